import { createHash } from "node:crypto";
import { escapeForPrompt } from "./display-text.ts";

/**
 * The pieces every text sent to the model is made of, whoever sends it (a selection, a referenced range):
 * the cut at a byte cap, the fence around it, the words for a span of lines, the id of what was sent.
 */

/** Text beyond this many UTF-8 bytes is cut at a line boundary; a select-all must not flood the context. */
export const MAX_SENT_TEXT_BYTES = 64 * 1024;

/** The cap as the notes and the transcript name it: `64 KiB`. */
export const CUT_LIMIT = `${MAX_SENT_TEXT_BYTES / 1024} KiB`;

const LANGUAGE_TAG = /^[A-Za-z0-9_+#.-]{1,40}$/;

/** `line 4`, `lines 2-4`. */
export const lineSpan = (startLine: number, endLine: number) =>
	startLine === endLine ? `line ${startLine}` : `lines ${startLine}-${endLine}`;

/** The fence's language tag a file's name suggests (`ts` for `main.ts`), when the editor names none. */
export function fenceLanguageOf(path: string): string | undefined {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1) : undefined;
}

/** A backtick fence longer than any backtick run inside the text, so the text cannot close it early. */
export function fenceFor(text: string): string {
	let longest = 0;
	for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
	return "`".repeat(Math.max(3, longest + 1));
}

/** The text fenced, tagged with its language when that is a plain tag, and the cut note after it. */
export function fencedText(text: string, language: string | null | undefined, note?: string): string {
	const fence = fenceFor(text);
	const tag = language && LANGUAGE_TAG.test(language) ? language : "";
	return [`${fence}${tag}`, text, fence, ...(note ? [note] : [])].join("\n");
}

/** A short stable id of what was sent: the same parts are the same thing to the model. */
export const contentId = (parts: readonly unknown[]) =>
	createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

/** What was cut, as its note names it: `[selection cut at 64 KiB: lines 900-1000 left out]`. */
export type CutName = "selection" | "reference" | "diff" | "code block";

/**
 * Keep whole lines up to the byte cap; say exactly which lines were left out. Lines are escaped one at a
 * time and only until the cap is reached: a 16 MiB select-all costs the prompt no more than 64 KiB does.
 */
export function cutText(
	text: string,
	lines: { first: number; last: number },
	name: CutName,
): { text: string; note?: string } {
	const kept: string[] = [];
	let bytes = 0;
	let start = 0;
	let complete = false;
	while (!complete) {
		let end = text.indexOf("\n", start);
		if (end < 0) {
			end = text.length;
			complete = true;
		}
		const raw = text.slice(start, end).replace(/\r$/, "");
		// Escaping only lengthens, so a raw line this long is already over the cap: escape just its head.
		const line = escapeForPrompt(raw.length > MAX_SENT_TEXT_BYTES ? raw.slice(0, MAX_SENT_TEXT_BYTES + 1) : raw, true);
		const cost = byteLength(line) + (kept.length > 0 ? 1 : 0);
		if (bytes + cost > MAX_SENT_TEXT_BYTES) {
			if (kept.length === 0) return cutInsideFirstLine(line, lines, name);
			complete = false;
			break;
		}
		kept.push(line);
		bytes += cost;
		start = end + 1;
	}
	if (complete) return { text: kept.join("\n") };
	const from = lines.first + kept.length;
	const leftOut = lineSpan(from, Math.max(lines.last, from));
	return { text: kept.join("\n"), note: `[${name} cut at ${CUT_LIMIT}: ${leftOut} left out]` };
}

/** A single line over the cap: cut inside it at a character boundary rather than sending nothing. */
function cutInsideFirstLine(
	line: string,
	{ first, last }: { first: number; last: number },
	name: CutName,
): { text: string; note: string } {
	const head = Buffer.from(line, "utf8")
		.subarray(0, MAX_SENT_TEXT_BYTES)
		.toString("utf8")
		.replace(/\uFFFD$/, "");
	const rest = last > first ? `; lines ${first + 1}-${last} left out` : "";
	return { text: head, note: `[${name} cut at ${CUT_LIMIT}: line ${first} truncated${rest}]` };
}

const isHighSurrogateUnit = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/** At most `maxChars` UTF-16 code units from the start, never half of a surrogate pair. */
export function headChars(text: string, maxChars: number): string {
	if (text.length <= maxChars) return text;
	const end = maxChars > 0 && isHighSurrogateUnit(text.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
	return text.slice(0, end);
}
