import type { Position } from "../../core/protocol-state.ts";

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A buffer's text as Zed's byte offsets count it, and where its lines start: built once per text (a file
 * that changed on disk, unsaved text that changed), then each read finds a position by binary search instead
 * of scanning the text from its start.
 */
export interface ZedBufferIndex {
	/** UTF-8, LF line ends. */
	bytes: Uint8Array;
	/** The byte offset of each line's first byte; the first is 0. */
	lineStarts: Uint32Array;
}

/** What an index holds, for a cache's budget. */
export const indexBytes = (index: ZedBufferIndex) => index.bytes.byteLength + index.lineStarts.byteLength;

export function indexZedBuffer(bytes: Uint8Array): ZedBufferIndex {
	let count = 1;
	for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) count++;
	const lineStarts = new Uint32Array(count);
	let line = 1;
	for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) lineStarts[line++] = at + 1;
	return { bytes, lineStarts };
}

/** The index of a text held as a string (Zed's unsaved text, a test's table). */
export const indexZedText = (text: string) => indexZedBuffer(encoder.encode(text));

/**
 * A file's bytes as Zed's offsets count them: Zed drops a leading byte-order mark when it decodes a file and
 * turns CRLF and a lone CR alike into LF (its `LineEnding::normalize`). Bytes that are not UTF-8 are read as
 * U+FFFD, as a lossy decode leaves them (`validUtf8`: the caller's native check, so valid text is not decoded).
 */
export function zedBufferBytes(fileBytes: Uint8Array, validUtf8: boolean): Uint8Array {
	let bytes = validUtf8 ? fileBytes : encoder.encode(decoder.decode(fileBytes));
	if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
	if (bytes.indexOf(CR) === -1) return bytes;
	const out = new Uint8Array(bytes.length);
	let length = 0;
	for (let at = 0; at < bytes.length; at++) {
		const byte = bytes[at] as number;
		if (byte !== CR) out[length++] = byte;
		else {
			out[length++] = LF;
			if (bytes[at + 1] === LF) at++;
		}
	}
	return out.subarray(0, length);
}

/** A byte offset moved back onto the first byte of its character, within the text. */
export function onCharacter(bytes: Uint8Array, offset: number): number {
	let at = Math.max(0, Math.min(offset, bytes.length));
	while (at > 0 && at < bytes.length && ((bytes[at] as number) & 0xc0) === 0x80) at--;
	return at;
}

/** The 0-based line that holds a byte offset. */
function lineOf(index: ZedBufferIndex, offset: number): number {
	const starts = index.lineStarts;
	let low = 0;
	let high = starts.length - 1;
	while (low < high) {
		const middle = (low + high + 1) >>> 1;
		if ((starts[middle] as number) <= offset) low = middle;
		else high = middle - 1;
	}
	return low;
}

/** 1-based line and 1-based byte column of a byte offset (the protocol's positions). */
export function positionAt(index: ZedBufferIndex, offset: number): Position {
	const line = lineOf(index, offset);
	return { line: line + 1, column: offset - (index.lineStarts[line] as number) + 1 };
}

/** Lines as an editor counts them: a final newline ends the last line, it starts no new one. */
export function lineCount(index: ZedBufferIndex): number {
	const { bytes, lineStarts } = index;
	return bytes.length > 0 && bytes[bytes.length - 1] === LF ? lineStarts.length - 1 : lineStarts.length;
}

/**
 * The selection `[start, end)` covers whole lines of the text: it starts at a line's start and ends at a
 * line's end, or at the start of the next line (a selection made by whole lines takes the newline along).
 */
export function coversWholeLines(bytes: Uint8Array, start: number, end: number): boolean {
	if (end <= start) return false;
	const startsLine = start === 0 || bytes[start - 1] === LF;
	const endsLine = end >= bytes.length || bytes[end] === LF || bytes[end - 1] === LF;
	return startsLine && endsLine;
}

export const decodeRange = (bytes: Uint8Array, start: number, end: number) =>
	decoder.decode(bytes.subarray(start, end));
