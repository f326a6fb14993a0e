import { absoluteFile } from "../../editors/core/active-buffer.ts";
import type { EditorState, Selection } from "../../editors/core/protocol-state.ts";
import { escapeForPrompt } from "../../shared/core/display-text.ts";

/** Selection text beyond this many UTF-8 bytes is cut at a line boundary; a select-all must not flood the context. */
export const MAX_SELECTION_BYTES = 64 * 1024;

export const EDITOR_BLOCK_OPEN = "<editor-context>";
export const EDITOR_BLOCK_CLOSE = "</editor-context>";

const FULL_HEADER = `The user's editor state as of this prompt ("this file", "here" and "the selection" refer to it).`;
const DELTA_HEADER =
	"The user's editor changed since the previous editor context; only these lines differ, the rest is as it was:";
const UNCHANGED_TEXT = "The user's editor is still connected and unchanged since the previous editor context.";
const GONE_TAIL = "the previous editor context no longer applies.";

/** Why there is no editor to describe now, once the model has been told about one. */
export type GoneReason = "disconnected" | "no-file" | "rejected";

const GONE_TEXT: Record<GoneReason, string> = {
	disconnected: `The editor is disconnected: ${GONE_TAIL}`,
	"no-file": `The editor has no file open now: ${GONE_TAIL}`,
	rejected: `The editor's state is unknown (its latest state file was rejected): ${GONE_TAIL}`,
};

/** The block's lines in order; each value is the whole line the model reads (`Cursor: line 4, column 1`). */
export const FIELD_ORDER = ["App", "File", "Language", "Cursor", "Buffer", "Selection"] as const;
export type FieldName = (typeof FIELD_ORDER)[number];
export type EditorFields = Partial<Record<FieldName, string>>;

const LANGUAGE_TAG = /^[A-Za-z0-9_+#.-]{1,40}$/;

/**
 * What the block says about the buffer, without the selection: undefined for an unnamed buffer or no buffer
 * at all (there is nothing to point the model at).
 */
export function bufferFields(state: EditorState): EditorFields | undefined {
	const buffer = state.active_buffer;
	const file = absoluteFile(state);
	if (!buffer || file === undefined) return undefined;
	const line = (text: string) => escapeForPrompt(text, false);
	const fields: EditorFields = { App: `App: ${line(state.app)}`, File: `File: ${line(file)}` };
	if (buffer.language) fields.Language = `Language: ${line(buffer.language)}`;
	const { line: cursorLine, column: cursorColumn } = buffer.cursor ?? {};
	if (typeof cursorLine === "number") {
		fields.Cursor = `Cursor: line ${cursorLine}${typeof cursorColumn === "number" ? `, column ${cursorColumn}` : ""}`;
	}
	fields.Buffer = `Buffer: ${buffer.lines_total} lines, ${buffer.modified ? "unsaved changes" : "no unsaved changes"}`;
	return fields;
}

/** `line 4`, `lines 2-4`. */
export const lineSpan = (startLine: number, endLine: number) =>
	startLine === endLine ? `line ${startLine}` : `lines ${startLine}-${endLine}`;

/** `lines 2-4 (from line 2 column 1 to line 4 column 5)`. */
export function selectionRange(selection: Pick<Selection, "start" | "end">): string {
	const { start, end } = selection;
	return `${lineSpan(start.line, end.line)} (from line ${start.line} column ${start.column} to line ${end.line} column ${end.column})`;
}

/** The fenced text of a selection sent in full, with the cut note when it was cut. */
export function selectionBody(text: string, language: string | null | undefined, note?: string): string {
	const fence = fenceFor(text);
	const tag = language && LANGUAGE_TAG.test(language) ? language : "";
	return [`${fence}${tag}`, text, fence, ...(note ? [note] : [])].join("\n");
}

const fieldLines = (fields: EditorFields) =>
	FIELD_ORDER.flatMap((name) => (fields[name] === undefined ? [] : [fields[name]]));

/** Everything the model needs about the editor, with the selection's text when it goes along. */
export function fullBlock(fields: EditorFields, body?: string): string {
	return [EDITOR_BLOCK_OPEN, FULL_HEADER, ...fieldLines(fields), ...(body ? [body] : []), EDITOR_BLOCK_CLOSE].join(
		"\n",
	);
}

/** Only the lines that differ from what the model has; a selection that went away reads `Selection: none`. */
export function deltaBlock(changed: EditorFields, body?: string): string {
	return [EDITOR_BLOCK_OPEN, DELTA_HEADER, ...fieldLines(changed), ...(body ? [body] : []), EDITOR_BLOCK_CLOSE].join(
		"\n",
	);
}

export const SELECTION_NONE = "Selection: none";

export function unchangedLine(): string {
	return `${EDITOR_BLOCK_OPEN}${UNCHANGED_TEXT}${EDITOR_BLOCK_CLOSE}`;
}

export function goneLine(reason: GoneReason): string {
	return `${EDITOR_BLOCK_OPEN}${GONE_TEXT[reason]}${EDITOR_BLOCK_CLOSE}`;
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

export const CUT_LIMIT = `${MAX_SELECTION_BYTES / 1024} KiB`;

/** A single line over the cap: cut inside it at a character boundary rather than sending nothing. */
function cutInsideFirstLine(line: string, firstLine: number, lastLine: number): { text: string; note: string } {
	const head = Buffer.from(line, "utf8")
		.subarray(0, MAX_SELECTION_BYTES)
		.toString("utf8")
		.replace(/\uFFFD$/, "");
	const rest = lastLine > firstLine ? `; lines ${firstLine + 1}-${lastLine} left out` : "";
	return { text: head, note: `[selection cut at ${CUT_LIMIT}: line ${firstLine} truncated${rest}]` };
}
