import { posix } from "node:path";
import type { ActiveBuffer, EditorState, Position } from "../../core/protocol-state.ts";
import {
	coversWholeLines,
	decodeRange,
	lineCount,
	onCharacter,
	positionAt,
	type ZedBufferIndex,
} from "./buffer-index.ts";

/** Zed keeps no selection time: pi's own first sight of a selection stands in for it. */
export interface SeenSelection {
	file: string;
	start: number;
	end: number;
	text: string;
	firstSeenSeconds: number;
}

/**
 * Zed's selections (UTF-8 byte offsets into the LF text) as the protocol's cursor and selection: the
 * non-empty selection that starts first is the selection and its end the caret; with only carets, the first.
 * `wholeLines`: the selection covers whole lines of that text.
 */
export function zedCursorAndSelection(
	index: ZedBufferIndex,
	selections: readonly (readonly [number, number])[],
): {
	cursor: Position | null;
	selection?: { start: Position; end: Position; text: string; range: [number, number]; wholeLines: boolean };
} {
	const { bytes } = index;
	const ranges = selections
		.map(([start, end]) => [onCharacter(bytes, start), onCharacter(bytes, end)] as const)
		.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	const chosen = ranges.find(([start, end]) => end > start);
	if (!chosen) {
		const caret = ranges[0];
		return { cursor: caret ? positionAt(index, caret[0]) : null };
	}
	const [start, end] = chosen;
	// Inclusive end: the first byte of the last selected character.
	const last = onCharacter(bytes, end - 1);
	return {
		cursor: positionAt(index, end),
		selection: {
			start: positionAt(index, start),
			end: positionAt(index, last),
			text: decodeRange(bytes, start, end),
			range: [start, end],
			wholeLines: coversWholeLines(bytes, start, end),
		},
	};
}

export interface ZedBufferInput {
	file: string | null;
	/** The text the offsets point into (`contents`, or the file with CRLF made LF); undefined when unreadable. */
	text: ZedBufferIndex | undefined;
	modified: boolean;
	language: string | null;
	selections: readonly (readonly [number, number])[];
}

/**
 * The protocol's `active_buffer` for Zed's active editor, the selection pi has now seen, and whether that
 * selection covers whole lines of the text Zed holds (only then may a line reference be served from it).
 */
export function zedActiveBuffer(
	input: ZedBufferInput,
	previous: SeenSelection | undefined,
	nowSeconds: number,
): { buffer: ActiveBuffer; seen?: SeenSelection; wholeLines?: boolean } {
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
		wholeLines: selection.wholeLines,
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
