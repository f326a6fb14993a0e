import { describe, expect, test } from "vitest";
import {
	zedActiveBuffer,
	zedBufferText,
	zedCursorAndSelection,
	zedEditorState,
} from "../../../../src/editors/zed/core/buffer.ts";

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
		const result = zedCursorAndSelection(TEXT, selections as unknown as [number, number][]);
		expect(result.cursor).toEqual(cursor);
		if (selection === undefined) expect(result.selection).toBeUndefined();
		else expect(result.selection).toMatchObject(selection);
	});
});

describe("the active buffer: unsaved flag, and when pi first saw a selection (Zed keeps no time)", () => {
	const input = {
		file: "/p/src/a.ts",
		text: TEXT,
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
		const editedText = zedActiveBuffer({ ...input, text: TEXT.replace("export", "import") }, first.seen, 1080);
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

	test.each([
		["LF as it is", "a\nb\n", "a\nb\n"],
		["CRLF made LF", "a\r\nb\r\n", "a\nb\n"],
		["a lone CR is a line break too (Zed's LineEnding::normalize)", "a\rb\r\nc", "a\nb\nc"],
		["a leading byte-order mark dropped, as Zed decodes the file", "\uFEFFa\nb", "a\nb"],
		["a BOM further in is text", "a\uFEFFb", "a\uFEFFb"],
	])("the file's text as Zed's offsets count it: %s", (_name, file, text) => {
		expect(zedBufferText(file)).toBe(text);
	});

	test("offsets into a file with a BOM and CR line ends land where Zed put them", () => {
		const text = zedBufferText("\uFEFFone\rtwo\r\nthree");
		// Zed's offset 8 is the "t" of "two"... of "three": bytes after "one\ntwo\n".
		expect(zedCursorAndSelection(text, [[8, 13]]).selection).toMatchObject({
			start: { line: 3, column: 1 },
			text: "three",
		});
	});
});
