import { describe, expect, test } from "vitest";
import { zedActiveBuffer, zedCursorAndSelection, zedEditorState } from "../../../../src/editors/zed/core/buffer.ts";
import {
	indexZedBuffer,
	indexZedText,
	lineCount,
	zedBufferBytes,
} from "../../../../src/editors/zed/core/buffer-index.ts";

const TEXT = 'const a = 1;\nconst grüß = "héllo 🌍";\nexport {};\n';
const at = (needle: string) => Buffer.byteLength(TEXT.slice(0, TEXT.indexOf(needle)));

describe("Zed's byte offsets as the protocol's 1-based lines and byte columns", () => {
	test.each([
		["a caret at the start", [[0, 0]], { line: 1, column: 1 }, undefined],
		[
			"a caret after a multibyte word (bytes, not characters)",
			[[at(' = "'), at(' = "')]],
			{ line: 2, column: 13 },
			undefined,
		],
		["a caret at the end of the text", [[TEXT.length + 8, TEXT.length + 8]], { line: 4, column: 1 }, undefined],
		[
			"a selection ending in a 4-byte character: its first byte is the inclusive end",
			[[at("héllo"), at('";')]],
			{ line: 2, column: 28 },
			{ start: { line: 2, column: 17 }, end: { line: 2, column: 24 }, text: "héllo 🌍" },
		],
		[
			"several rows: the non-empty selection that starts first, whatever the carets",
			[
				[0, 0],
				[at("export"), at("export") + 6],
				[at("const grüß"), at("const grüß") + 5],
			],
			{ line: 2, column: 6 },
			{ start: { line: 2, column: 1 }, end: { line: 2, column: 5 }, text: "const" },
		],
		[
			"only carets: the first",
			[
				[at("export"), at("export")],
				[at("a ="), at("a =")],
			],
			{ line: 1, column: 7 },
			undefined,
		],
		[
			"an offset inside a character moves back to its first byte",
			[[at("ü") + 1, at("ß") + 1]],
			{ line: 2, column: 11 },
			{ start: { line: 2, column: 9 }, end: { line: 2, column: 9 }, text: "ü" },
		],
		[
			"a multi-line selection ending after a newline ends on that newline",
			[[at("const grüß"), at("export")]],
			{ line: 3, column: 1 },
			{ start: { line: 2, column: 1 }, end: { line: 2, column: 30 }, text: 'const grüß = "héllo 🌍";\n' },
		],
		["no rows: no cursor", [], null, undefined],
	] as const)("%s", (_name, selections, cursor, selection) => {
		const result = zedCursorAndSelection(indexZedText(TEXT), selections as unknown as [number, number][]);
		expect(result.cursor).toEqual(cursor);
		if (selection === undefined) expect(result.selection).toBeUndefined();
		else expect(result.selection).toMatchObject(selection);
	});
});

describe("the active buffer: unsaved flag, and when pi first saw a selection (Zed keeps no time)", () => {
	const input = {
		file: "/p/src/a.ts",
		text: indexZedText(TEXT),
		modified: false,
		language: "TypeScript",
		selections: [[at("export"), at("export") + 6]] as [number, number][],
	};

	test("a new selection is seen now; the same one later keeps that time; another one starts again", () => {
		const first = zedActiveBuffer(input, undefined, 1000);
		expect(first.buffer.selection?.selected_at).toBe(1000);
		expect(first.buffer).toMatchObject({
			name: "a.ts",
			modified: false,
			lines_total: 3,
			cursor: { line: 3, column: 7 },
		});
		const same = zedActiveBuffer(input, first.seen, 1050);
		expect(same.buffer.selection?.selected_at).toBe(1000);
		const other = zedActiveBuffer({ ...input, selections: [[0, 5]] }, same.seen, 1070);
		expect(other.buffer.selection?.selected_at).toBe(1070);
		const editedText = zedActiveBuffer(
			{ ...input, text: indexZedText(TEXT.replace("export", "import")) },
			first.seen,
			1080,
		);
		expect(editedText.buffer.selection?.selected_at).toBe(1080);
	});

	test("unreadable text (a file gone or too large): the file is named, no cursor, no selection", () => {
		const { buffer } = zedActiveBuffer({ ...input, text: undefined }, undefined, 1);
		expect(buffer).toEqual({
			file: "/p/src/a.ts",
			name: "a.ts",
			language: "TypeScript",
			modified: false,
			cursor: null,
			selection: null,
			lines_total: 0,
		});
	});

	test("the workspace as protocol state: app zed, the paths it was opened on as launch args", () => {
		const { buffer } = zedActiveBuffer(input, undefined, 1);
		expect(zedEditorState({ pid: 42, cwd: "/p", paths: ["/p", "/q"], timestampSeconds: 7, buffer })).toMatchObject({
			pid: 42,
			app: "zed",
			cwd: "/p",
			argv: ["/p", "/q"],
			timestamp: 7,
		});
	});

	const fileBytes = (text: string) => zedBufferBytes(Buffer.from(text), true);
	test.each([
		["LF as it is", "a\nb\n", "a\nb\n"],
		["CRLF made LF", "a\r\nb\r\n", "a\nb\n"],
		["a lone CR is a line break too (Zed's LineEnding::normalize)", "a\rb\r\nc", "a\nb\nc"],
		["a CR last", "a\r", "a\n"],
		["a leading byte-order mark dropped, as Zed decodes the file", "\uFEFFa\nb", "a\nb"],
		["a BOM further in is text", "a\uFEFFb", "a\uFEFFb"],
	])("the file's text as Zed's offsets count it: %s", (_name, file, text) => {
		expect(Buffer.from(fileBytes(file)).toString()).toBe(text);
	});

	test("bytes that are not UTF-8 count as U+FFFD, as a lossy decode leaves them", () => {
		const bytes = zedBufferBytes(Uint8Array.from([0x61, 0xff, 0x0a, 0x62]), false);
		expect(Buffer.from(bytes).toString()).toBe("a\uFFFD\nb");
		expect(bytes.length).toBe(6);
	});

	test.each([
		["empty", "", 1],
		["one line, no final newline", "a", 1],
		["a final newline ends the last line", "a\n", 1],
		["two lines", "a\nb", 2],
		["an empty line last", "a\n\n", 2],
	])("lines counted as an editor does: %s", (_name, text, lines) => {
		expect(lineCount(indexZedText(text))).toBe(lines);
	});

	test("offsets into a file with a BOM and CR line ends land where Zed put them", () => {
		const index = indexZedBuffer(fileBytes("\uFEFFone\rtwo\r\nthree"));
		// Zed's offset 8 is the "t" of "two"... of "three": bytes after "one\ntwo\n".
		expect(zedCursorAndSelection(index, [[8, 13]]).selection).toMatchObject({
			start: { line: 3, column: 1 },
			text: "three",
		});
	});
});

describe("whole lines: a line reference is served from the selection only when it covers whole lines of Zed's text", () => {
	const LINES = "one\ntwo\nthree\n\nlast";
	const offset = (needle: string) => Buffer.byteLength(LINES.slice(0, LINES.indexOf(needle)));
	const end = (needle: string) => offset(needle) + Buffer.byteLength(needle);
	test.each([
		["one line, its newline left out", [offset("two"), end("two")], true],
		["one line with its newline (the start of the next line)", [offset("two"), offset("three")], true],
		["two lines", [offset("one"), end("two")], true],
		["the last line, no final newline (the end of the text)", [offset("last"), end("last")], true],
		["an empty line by its newline", [offset("\n\nlast") + 1, offset("last")], true],
		["one word of a line", [offset("two"), offset("two") + 2], false],
		["from inside a line to a line's end", [offset("two") + 1, end("two")], false],
		["from a line's start to inside the next", [offset("two"), offset("three") + 2], false],
		["from a line's start to inside another", [offset("one"), end("two") - 1], false],
	] as const)("%s: %s", (_name, [start, stop], whole) => {
		const { selection } = zedCursorAndSelection(indexZedText(LINES), [[start, stop]]);
		expect(selection?.wholeLines).toBe(whole);
	});

	test("the active buffer says it; a caret has no selection to say it of", () => {
		const base = { file: "/p/a.ts", text: indexZedText(LINES), modified: true, language: null };
		const whole = zedActiveBuffer({ ...base, selections: [[offset("one"), offset("three")]] }, undefined, 1);
		expect(whole.wholeLines).toBe(true);
		expect(whole.buffer.selection?.text).toBe("one\ntwo\n");
		const part = zedActiveBuffer({ ...base, selections: [[offset("two"), offset("two") + 1]] }, undefined, 1);
		expect(part.wholeLines).toBe(false);
		const caret = zedActiveBuffer({ ...base, selections: [[offset("two"), offset("two")]] }, undefined, 1);
		expect(caret.wholeLines).toBeUndefined();
	});

	test("a position is found by the line starts, as the old scan from the start found it", () => {
		const text = Array.from({ length: 500 }, (_, i) => `${"é".repeat(i % 7)}line ${i}`).join("\n");
		const index = indexZedText(text);
		const bytes = Buffer.from(text);
		// Offsets of characters (Zed's always are): the first, some in the middle, the last, the end.
		const offsets = [0, 1, 7, 1000, 2345, text.length - 1, text.length].map((chars) =>
			Buffer.byteLength(text.slice(0, chars)),
		);
		for (const at of offsets) {
			const before = bytes.subarray(0, at);
			const line = before.filter((byte) => byte === 0x0a).length + 1;
			const column = at - (before.lastIndexOf(0x0a) + 1) + 1;
			expect(zedCursorAndSelection(index, [[at, at]]).cursor, `offset ${at}`).toEqual({ line, column });
		}
	});
});
