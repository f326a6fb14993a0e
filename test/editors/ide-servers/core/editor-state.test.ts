import { describe, expect, test } from "vitest";
import type { ActiveBuffer, Diagnostic, Selection } from "../../../../src/editors/core/protocol-state.ts";
import {
	isWholeLineSelection,
	type ServerFacts,
	stateOfView,
} from "../../../../src/editors/ide-servers/core/editor-state.ts";
import type { Point0, ServerView } from "../../../../src/editors/ide-servers/core/editor-view.ts";

const FILE = "/home/dev/proj/src/a.ts";
const NOW = 1_800_000_000;
const facts = (overrides: Partial<ServerFacts> = {}): ServerFacts => ({
	pid: 5150,
	app: "vscode",
	workspaceFolders: ["/home/dev/proj"],
	nowSeconds: NOW,
	...overrides,
});
const at = (line: number, character: number): Point0 => ({ line, character });
const picked = (start: Point0, end: Point0, text: string, atSeconds: number | null = NOW - 2) => ({
	start,
	end,
	text,
	atSeconds,
});

describe("stateOfView: the protocol state of an IDE server's editor", () => {
	test("no file: the editor's facts and active_buffer null", () => {
		expect(stateOfView({ dirty: [FILE] }, facts())).toEqual({
			pid: 5150,
			cwd: "/home/dev/proj",
			timestamp: NOW,
			app: "vscode",
			argv: [],
			active_buffer: null,
		});
	});

	test.each<[string, string[], string, string[]]>([
		["one folder: the cwd", ["/home/dev/proj"], "/home/dev/proj", []],
		["several: the first is the cwd, the others argv", ["/a", "/b", "/c"], "/a", ["/b", "/c"]],
		["no folders: /", [], "/", []],
	])("%s", (_name, workspaceFolders, cwd, argv) => {
		const state = stateOfView({}, facts({ workspaceFolders }));
		expect([state.cwd, state.argv]).toEqual([cwd, argv]);
	});

	test("a file with nothing else known: its language from its extension, else none", () => {
		expect(stateOfView({ file: "/p/Makefile" }, facts()).active_buffer?.language).toBeNull();
		expect(stateOfView({ file: FILE }, facts()).active_buffer).toEqual({
			file: FILE,
			name: "a.ts",
			language: "ts",
			cursor: null,
			selection: null,
			modified: false,
			lines_total: 0,
		});
	});

	test("everything known: 1-based cursor and selection, language, modified, lines, diagnostics", () => {
		const diagnostics: Diagnostic[] = [{ line: 3, column: 5, severity: "error", message: "no", source: "ts" }];
		const view: ServerView = {
			file: FILE,
			languageId: "typescript",
			lineCount: 120,
			cursor: at(4, 9),
			selection: picked(at(4, 2), at(4, 9), "const x"),
			dirty: ["/other.ts", FILE],
		};
		expect(stateOfView(view, facts({ linesOnDisk: 99, diagnostics })).active_buffer).toEqual({
			file: FILE,
			name: "a.ts",
			language: "typescript",
			cursor: { line: 5, column: 10 },
			selection: { start: { line: 5, column: 3 }, end: { line: 5, column: 9 }, text: "const x", selected_at: NOW - 2 },
			modified: true,
			lines_total: 120,
			diagnostics,
		});
	});

	test.each<[string, ServerView, Partial<ServerFacts>, Pick<ActiveBuffer, "modified" | "lines_total">]>([
		[
			"dirty names another file: not modified",
			{ file: FILE, dirty: ["/x.ts"] },
			{},
			{ modified: false, lines_total: 0 },
		],
		["no dirty list: not modified", { file: FILE }, {}, { modified: false, lines_total: 0 }],
		["dirty names it: modified", { file: FILE, dirty: [FILE] }, {}, { modified: true, lines_total: 0 }],
		[
			"lines from lineCount over the disk's",
			{ file: FILE, lineCount: 7 },
			{ linesOnDisk: 9 },
			{ modified: false, lines_total: 7 },
		],
		["lineCount 0 is a count", { file: FILE, lineCount: 0 }, { linesOnDisk: 9 }, { modified: false, lines_total: 0 }],
		["else lines on disk", { file: FILE }, { linesOnDisk: 9 }, { modified: false, lines_total: 9 }],
	])("%s", (_name, view, more, expected) => {
		const buffer = stateOfView(view, facts(more)).active_buffer;
		expect({ modified: buffer?.modified, lines_total: buffer?.lines_total }).toEqual(expected);
	});

	test.each<[string, Diagnostic[] | undefined, boolean]>([
		["no diagnostics told", undefined, false],
		["an empty list: no field", [], false],
		["some: the field", [{ line: 1, column: 1, severity: "hint", message: "m" }], true],
	])("diagnostics: %s", (_name, diagnostics, present) => {
		const buffer = stateOfView({ file: FILE }, facts(diagnostics ? { diagnostics } : {})).active_buffer;
		expect(buffer !== null && buffer !== undefined && "diagnostics" in buffer).toBe(present);
	});

	test("the diagnostics are copied, not shared", () => {
		const diagnostics: Diagnostic[] = [{ line: 1, column: 1, severity: "hint", message: "m" }];
		const buffer = stateOfView({ file: FILE }, facts({ diagnostics }));
		expect(buffer.active_buffer?.diagnostics).toEqual(diagnostics);
		expect(buffer.active_buffer?.diagnostics).not.toBe(diagnostics);
	});
});

describe("a selection's end becomes inclusive and 1-based", () => {
	test.each<[string, Point0, Point0, string, Selection["end"]]>([
		["one line: the last character selected", at(4, 2), at(4, 9), "const x", { line: 5, column: 9 }],
		["one character at the line's start", at(0, 0), at(0, 1), "a", { line: 1, column: 1 }],
		["over lines, ending mid-line", at(1, 3), at(3, 4), "bc\nline\nabcd", { line: 4, column: 4 }],
		[
			"whole lines (shift+down): ends on the line before, at its last character",
			at(2, 0),
			at(4, 0),
			"first\nsecond\n",
			{ line: 4, column: 6 },
		],
		["CRLF whole lines", at(2, 0), at(4, 0), "first\r\nsecond\r\n", { line: 4, column: 6 }],
		[
			"from mid-line to the next line's start: the line's last character",
			at(0, 4),
			at(1, 0),
			"abc\n",
			{ line: 1, column: 7 },
		],
		["only a line break: column of the line's end", at(0, 4), at(1, 0), "\n", { line: 1, column: 4 }],
		["ending after an empty line: column 1", at(0, 0), at(2, 0), "a\n\n", { line: 2, column: 1 }],
		["from column 0 of an empty line to the next: column 1", at(3, 0), at(4, 0), "\n", { line: 4, column: 1 }],
	])("%s", (_name, start, end, text, inclusive) => {
		const state = stateOfView({ file: FILE, selection: picked(start, end, text) }, facts());
		expect(state.active_buffer?.selection?.end).toEqual(inclusive);
		expect(state.active_buffer?.selection?.start).toEqual({ line: start.line + 1, column: start.character + 1 });
	});

	test("selected_at is when pi saw it made, null when it did not", () => {
		const state = stateOfView({ file: FILE, selection: picked(at(0, 0), at(0, 1), "a", null) }, facts());
		expect(state.active_buffer?.selection?.selected_at).toBeNull();
	});
});

describe("isWholeLineSelection: from character 0 to character 0 of a later line", () => {
	test.each<[string, ServerView["selection"], boolean]>([
		["nothing selected", undefined, false],
		["shift+down over two lines", picked(at(2, 0), at(4, 0), "a\nb\n"), true],
		["one line with its break", picked(at(2, 0), at(3, 0), "a\n"), true],
		["starts mid-line", picked(at(2, 1), at(4, 0), "a\nb\n"), false],
		["ends mid-line", picked(at(2, 0), at(4, 1), "a\nb\nc"), false],
		["one line without its break", picked(at(2, 0), at(2, 5), "abcde"), false],
		["empty at character 0", picked(at(2, 0), at(2, 0), ""), false],
	])("%s", (_name, selection, whole) => {
		expect(isWholeLineSelection(selection)).toBe(whole);
	});
});
