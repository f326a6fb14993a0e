import { escapeForPrompt } from "./display-text.ts";
import { absoluteFile, freshSelection } from "./editor-view.ts";
import type { EditorState } from "./state-schema.ts";

/** Selection text beyond this many UTF-8 bytes is cut at a line boundary; a select-all must not flood the context. */
export const MAX_SELECTION_BYTES = 64 * 1024;

export const EDITOR_BLOCK_OPEN = "<editor-context>";
export const EDITOR_BLOCK_CLOSE = "</editor-context>";

const LANGUAGE_TAG = /^[A-Za-z0-9_+#.-]{1,40}$/;

/**
 * The block the model receives with a prompt, or undefined for an unnamed buffer. A stale or absent
 * selection leaves no selection section at all.
 */
export function formatEditorBlock(
	state: EditorState,
	selectionFirstSeenSeconds: number,
	nowSeconds: number,
): string | undefined {
	const buffer = state.active_buffer;
	const file = absoluteFile(state);
	if (!buffer || file === undefined) return undefined;
	const line = (text: string) => escapeForPrompt(text, false);

	const lines = [
		EDITOR_BLOCK_OPEN,
		`The user's editor state as of this prompt ("this file", "here" and "the selection" refer to it).`,
		`App: ${line(state.app)}`,
		`File: ${line(file)}`,
	];
	if (buffer.language) lines.push(`Language: ${line(buffer.language)}`);
	const { line: cursorLine, column: cursorColumn } = buffer.cursor ?? {};
	if (typeof cursorLine === "number") {
		lines.push(`Cursor: line ${cursorLine}${typeof cursorColumn === "number" ? `, column ${cursorColumn}` : ""}`);
	}
	lines.push(`Buffer: ${buffer.lines_total} lines, ${buffer.modified ? "unsaved changes" : "no unsaved changes"}`);

	const fresh = freshSelection(state, selectionFirstSeenSeconds, nowSeconds);
	if (fresh) {
		const { start, end, text } = fresh.selection;
		const cut = cutSelection(text, start.line, end.line);
		const range = start.line === end.line ? `line ${start.line}` : `lines ${start.line}-${end.line}`;
		lines.push(
			`Selection: ${range} (from line ${start.line} column ${start.column} to line ${end.line} column ${end.column})`,
		);
		const fence = fenceFor(cut.text);
		const tag = buffer.language && LANGUAGE_TAG.test(buffer.language) ? buffer.language : "";
		lines.push(`${fence}${tag}`, cut.text, fence);
		if (cut.note) lines.push(cut.note);
	}
	lines.push(EDITOR_BLOCK_CLOSE);
	return lines.join("\n");
}

/** A backtick fence longer than any backtick run inside the text, so the text cannot close it early. */
export function fenceFor(text: string): string {
	let longest = 0;
	for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
	return "`".repeat(Math.max(3, longest + 1));
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * Keep whole lines up to the byte cap; say exactly which lines were left out. Lines are escaped one at a
 * time and only until the cap is reached: a 16 MiB select-all costs the prompt no more than 64 KiB does.
 */
export function cutSelection(text: string, firstLine: number, lastLine: number): { text: string; note?: string } {
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
		const line = escapeForPrompt(raw.length > MAX_SELECTION_BYTES ? raw.slice(0, MAX_SELECTION_BYTES + 1) : raw, true);
		const cost = byteLength(line) + (kept.length > 0 ? 1 : 0);
		if (bytes + cost > MAX_SELECTION_BYTES) {
			if (kept.length === 0) return cutInsideFirstLine(line, firstLine, lastLine);
			complete = false;
			break;
		}
		kept.push(line);
		bytes += cost;
		start = end + 1;
	}
	if (complete) return { text: kept.join("\n") };
	const from = firstLine + kept.length;
	const last = Math.max(lastLine, from);
	const leftOut = from === last ? `line ${from}` : `lines ${from}-${last}`;
	return { text: kept.join("\n"), note: `[selection cut at ${CUT_LIMIT}: ${leftOut} left out]` };
}

const CUT_LIMIT = `${MAX_SELECTION_BYTES / 1024} KiB`;

/** A single line over the cap: cut inside it at a character boundary rather than sending nothing. */
function cutInsideFirstLine(line: string, firstLine: number, lastLine: number): { text: string; note: string } {
	const head = Buffer.from(line, "utf8")
		.subarray(0, MAX_SELECTION_BYTES)
		.toString("utf8")
		.replace(/\uFFFD$/, "");
	const rest = lastLine > firstLine ? `; lines ${firstLine + 1}-${lastLine} left out` : "";
	return { text: head, note: `[selection cut at ${CUT_LIMIT}: line ${firstLine} truncated${rest}]` };
}
