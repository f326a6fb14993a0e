import { posix } from "node:path";
import type { ActiveBuffer, EditorState, Position } from "../../core/protocol-state.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The text Zed's byte offsets count, from a file read as UTF-8: Zed drops a leading byte-order mark when it
 * decodes a file and turns CRLF and a lone CR alike into LF (its `LineEnding::normalize`).
 */
export function zedBufferText(fileText: string): string {
	return fileText.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

/** Zed keeps no selection time: pi's own first sight of a selection stands in for it. */
export interface SeenSelection {
	file: string;
	start: number;
	end: number;
	text: string;
	firstSeenSeconds: number;
}

/** A byte offset moved back onto the first byte of its character, within the text. */
function onCharacter(bytes: Uint8Array, offset: number): number {
	let at = Math.max(0, Math.min(offset, bytes.length));
	while (at > 0 && at < bytes.length && ((bytes[at] as number) & 0xc0) === 0x80) at--;
	return at;
}

/** 1-based line and 1-based byte column of a byte offset (the protocol's positions). */
function positionAt(bytes: Uint8Array, offset: number): Position {
	let line = 1;
	let lineStart = 0;
	for (let index = 0; index < offset; index++) {
		if (bytes[index] === 0x0a) {
			line++;
			lineStart = index + 1;
		}
	}
	return { line, column: offset - lineStart + 1 };
}

/** Lines as an editor counts them: a final newline ends the last line, it starts no new one. */
function lineCount(text: string): number {
	let lines = 1;
	for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
	return text.endsWith("\n") ? lines - 1 : lines;
}

/**
 * Zed's selections (UTF-8 byte offsets into the LF text) as the protocol's cursor and selection: the
 * non-empty selection that starts first is the selection and its end the caret; with only carets, the first.
 */
export function zedCursorAndSelection(
	text: string,
	selections: readonly (readonly [number, number])[],
): { cursor: Position | null; selection?: { start: Position; end: Position; text: string; range: [number, number] } } {
	const bytes = encoder.encode(text);
	const ranges = selections
		.map(([start, end]) => [onCharacter(bytes, start), onCharacter(bytes, end)] as const)
		.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	const chosen = ranges.find(([start, end]) => end > start);
	if (!chosen) {
		const caret = ranges[0];
		return { cursor: caret ? positionAt(bytes, caret[0]) : null };
	}
	const [start, end] = chosen;
	// Inclusive end: the first byte of the last selected character.
	const last = onCharacter(bytes, end - 1);
	return {
		cursor: positionAt(bytes, end),
		selection: {
			start: positionAt(bytes, start),
			end: positionAt(bytes, last),
			text: decoder.decode(bytes.subarray(start, end)),
			range: [start, end],
		},
	};
}

export interface ZedBufferInput {
	file: string | null;
	/** The text the offsets point into (`contents`, or the file with CRLF made LF); undefined when unreadable. */
	text: string | undefined;
	modified: boolean;
	language: string | null;
	selections: readonly (readonly [number, number])[];
}

/** The protocol's `active_buffer` for Zed's active editor, and the selection pi has now seen. */
export function zedActiveBuffer(
	input: ZedBufferInput,
	previous: SeenSelection | undefined,
	nowSeconds: number,
): { buffer: ActiveBuffer; seen?: SeenSelection } {
	const name = input.file ? posix.basename(input.file) : "untitled";
	const base = { file: input.file, name, language: input.language, modified: input.modified };
	if (input.text === undefined) return { buffer: { ...base, cursor: null, selection: null, lines_total: 0 } };
	const { cursor, selection } = zedCursorAndSelection(input.text, input.selections);
	const lines = lineCount(input.text);
	if (!selection || !input.file) return { buffer: { ...base, cursor, selection: null, lines_total: lines } };
	const [start, end] = selection.range;
	const same =
		previous?.file === input.file &&
		previous.start === start &&
		previous.end === end &&
		previous.text === selection.text;
	const seen = same ? previous : { file: input.file, start, end, text: selection.text, firstSeenSeconds: nowSeconds };
	return {
		buffer: {
			...base,
			cursor,
			selection: {
				start: selection.start,
				end: selection.end,
				text: selection.text,
				selected_at: seen.firstSeenSeconds,
			},
			lines_total: lines,
		},
		seen,
	};
}

/** One Zed workspace as the protocol's editor state: app `zed`, the paths it was opened on as launch args. */
export function zedEditorState(options: {
	pid: number;
	cwd: string;
	paths: readonly string[];
	timestampSeconds: number;
	buffer: ActiveBuffer | null;
}): EditorState {
	return {
		pid: options.pid,
		cwd: options.cwd,
		timestamp: options.timestampSeconds,
		app: "zed",
		argv: [...options.paths],
		active_buffer: options.buffer,
	};
}
