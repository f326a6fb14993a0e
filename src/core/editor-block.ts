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
	const { line: cursorLine, column: cursorColumn } = buffer.cursor;
	if (typeof cursorLine === "number") {
		lines.push(`Cursor: line ${cursorLine}${typeof cursorColumn === "number" ? `, column ${cursorColumn}` : ""}`);
	}
	lines.push(`Buffer: ${buffer.lines_total} lines, ${buffer.modified ? "unsaved changes" : "no unsaved changes"}`);

	const fresh = freshSelection(state, selectionFirstSeenSeconds, nowSeconds);
	if (fresh) {
		const { start, end, text } = fresh.selection;
		const cut = cutSelection(escapeForPrompt(text.replace(/\r\n/g, "\n"), true), start.line);
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

/** Keep whole lines up to the byte cap; say exactly which lines were left out. */
export function cutSelection(text: string, firstLine: number): { text: string; note?: string } {
	if (Buffer.byteLength(text, "utf8") <= MAX_SELECTION_BYTES) return { text };
	const lines = text.split("\n");
	const lastLine = firstLine + lines.length - 1;
	let kept = 0;
	let bytes = 0;
	for (const line of lines) {
		const cost = Buffer.byteLength(line, "utf8") + (kept > 0 ? 1 : 0);
		if (bytes + cost > MAX_SELECTION_BYTES) break;
		bytes += cost;
		kept++;
	}
	const limit = `${MAX_SELECTION_BYTES / 1024} KiB`;
	if (kept === 0) {
		// A single line over the cap: cut inside it at a character boundary rather than sending nothing.
		const head = Buffer.from(lines[0] ?? "", "utf8")
			.subarray(0, MAX_SELECTION_BYTES)
			.toString("utf8")
			.replace(/\uFFFD$/, "");
		const rest = lastLine > firstLine ? `; lines ${firstLine + 1}-${lastLine} left out` : "";
		return { text: head, note: `[selection cut at ${limit}: line ${firstLine} truncated${rest}]` };
	}
	const from = firstLine + kept;
	const leftOut = from === lastLine ? `line ${from}` : `lines ${from}-${lastLine}`;
	return { text: lines.slice(0, kept).join("\n"), note: `[selection cut at ${limit}: ${leftOut} left out]` };
}
