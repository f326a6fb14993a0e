import { describe, expect, test } from "vitest";
import {
	IDE_SELECTION_CHARS,
	pathOfUri,
	type ServerView,
	type ViewUpdate,
	withOpenEditors,
	withSelectionPayload,
} from "../../../../src/editors/ide-servers/core/editor-view.ts";

describe("pathOfUri: a file URI or an absolute path; nothing else names a file", () => {
	test.each<[string | undefined, string | undefined]>([
		["file:///home/dev/my%20proj/a.ts", "/home/dev/my proj/a.ts"],
		["file:///home/dev/proj/a.ts", "/home/dev/proj/a.ts"],
		["file:///home/dev/%C3%A9t%C3%A9.ts", "/home/dev/été.ts"],
		["/home/dev/proj/a.ts", "/home/dev/proj/a.ts"],
		["/home/dev/proj/./src/../a.ts", "/home/dev/proj/a.ts"],
		["/home/dev/my proj/a.ts", "/home/dev/my proj/a.ts"],
		["src/a.ts", undefined],
		["./a.ts", undefined],
		["untitled:Untitled-1", undefined],
		["http://example.com/a.ts", undefined],
		["vscode-remote://ssh-remote+host/home/a.ts", undefined],
		["file://otherhost/home/a.ts", undefined],
		["file:///home/dev/a%2Fb.ts", undefined],
		["C:\\Users\\dev\\a.ts", undefined],
		["", undefined],
		[undefined, undefined],
	])("%s → %s", (uri, path) => {
		expect(pathOfUri(uri)).toBe(path);
	});
});

const FILE = "/home/dev/proj/src/a.ts";
const OTHER = "/home/dev/proj/src/b.ts";
const at = (line: number, character: number) => ({ line, character });
const range = (sl: number, sc: number, el: number, ec: number, isEmpty?: boolean) => ({
	start: at(sl, sc),
	end: at(el, ec),
	...(isEmpty !== undefined && { isEmpty }),
});
const zero = { oneBased: false, atSeconds: 1000 };
const ok = (view: ServerView): ViewUpdate => ({ ok: true, view });

describe("withSelectionPayload: the shapes the servers send (reference §3–4)", () => {
	test.each<[string, ServerView, unknown, { oneBased: boolean; atSeconds: number | null }, ViewUpdate]>([
		[
			"VS Code's full shape",
			{},
			{
				text: "const x",
				filePath: FILE,
				fileUrl: `file://${FILE}`,
				selection: range(2, 4, 2, 11, false),
			},
			zero,
			ok({
				file: FILE,
				dirty: undefined,
				cursor: at(2, 11),
				selection: { start: at(2, 4), end: at(2, 11), text: "const x", atSeconds: 1000 },
			}),
		],
		[
			"getCurrentSelection's answer with success: true",
			{},
			{ success: true, text: "ab", filePath: FILE, fileUrl: `file://${FILE}`, selection: range(0, 0, 0, 2, false) },
			zero,
			ok({
				file: FILE,
				dirty: undefined,
				cursor: at(0, 2),
				selection: { start: at(0, 0), end: at(0, 2), text: "ab", atSeconds: 1000 },
			}),
		],
		[
			"pi-ide.nvim: no fileUrl",
			{},
			{ text: "line\n", filePath: FILE, selection: range(4, 0, 5, 0, false) },
			zero,
			ok({
				file: FILE,
				dirty: undefined,
				cursor: at(5, 0),
				selection: { start: at(4, 0), end: at(5, 0), text: "line\n", atSeconds: 1000 },
			}),
		],
		[
			"only a fileUrl: its path",
			{},
			{ text: "", fileUrl: "file:///home/dev/my%20proj/a.ts", selection: range(1, 1, 1, 1, true) },
			zero,
			ok({ file: "/home/dev/my proj/a.ts", dirty: undefined, cursor: at(1, 1) }),
		],
		[
			"a relative filePath: the fileUrl's path",
			{},
			{ text: "", filePath: "src/a.ts", fileUrl: `file://${FILE}`, selection: range(1, 1, 1, 1, true) },
			zero,
			ok({ file: FILE, dirty: undefined, cursor: at(1, 1) }),
		],
		[
			"JetBrains: {selection, text, filePath}, no isEmpty",
			{},
			{ selection: range(9, 2, 10, 3), text: "ab\ncde", filePath: FILE },
			zero,
			ok({
				file: FILE,
				dirty: undefined,
				cursor: at(10, 3),
				selection: { start: at(9, 2), end: at(10, 3), text: "ab\ncde", atSeconds: 1000 },
			}),
		],
		[
			"claude-code-ide.el's 1-based lines and columns moved down",
			{},
			{ text: "foo", filePath: FILE, selection: range(3, 5, 3, 8) },
			{ oneBased: true, atSeconds: 1000 },
			ok({
				file: FILE,
				dirty: undefined,
				cursor: at(2, 7),
				selection: { start: at(2, 4), end: at(2, 7), text: "foo", atSeconds: 1000 },
			}),
		],
		[
			"a 1-based 0 stays 0, never negative",
			{},
			{ text: "", filePath: FILE, selection: range(0, 0, 0, 0) },
			{ oneBased: true, atSeconds: 1000 },
			ok({ file: FILE, dirty: undefined, cursor: at(0, 0) }),
		],
		[
			"an empty selection: the cursor only",
			{},
			{ text: "", filePath: FILE, fileUrl: `file://${FILE}`, selection: range(7, 3, 7, 3, true) },
			zero,
			ok({ file: FILE, dirty: undefined, cursor: at(7, 3) }),
		],
		[
			"isEmpty true wins over a range that is not",
			{},
			{ text: "x", filePath: FILE, selection: range(7, 3, 7, 4, true) },
			zero,
			ok({ file: FILE, dirty: undefined, cursor: at(7, 4) }),
		],
		[
			"a range without text is no selection",
			{},
			{ filePath: FILE, selection: range(1, 0, 2, 0, false) },
			zero,
			ok({ file: FILE, dirty: undefined, cursor: at(2, 0) }),
		],
		[
			"selection null: the file, no cursor",
			{ file: FILE, cursor: at(3, 3) },
			{ text: "", filePath: FILE, selection: null },
			zero,
			ok({ file: FILE, dirty: undefined }),
		],
		[
			"success: false: no file, the dirty list kept",
			{ file: FILE, cursor: at(1, 1), dirty: [FILE], languageId: "typescript", lineCount: 9 },
			{ success: false, message: "No active editor found" },
			zero,
			ok({ dirty: [FILE] }),
		],
		[
			"no file named (an untitled tab): no file, the dirty list kept",
			{ file: FILE, dirty: [OTHER] },
			{ text: "x", filePath: "untitled:Untitled-1", selection: range(0, 0, 0, 1) },
			zero,
			ok({ dirty: [OTHER] }),
		],
		[
			"the same file keeps its language and line count",
			{ file: FILE, languageId: "typescript", lineCount: 120, dirty: [FILE] },
			{ text: "", filePath: FILE, selection: range(5, 0, 5, 0) },
			zero,
			ok({ file: FILE, dirty: [FILE], languageId: "typescript", lineCount: 120, cursor: at(5, 0) }),
		],
		[
			"another file drops them",
			{ file: FILE, languageId: "typescript", lineCount: 120 },
			{ text: "", filePath: OTHER, selection: range(5, 0, 5, 0) },
			zero,
			ok({ file: OTHER, dirty: undefined, cursor: at(5, 0) }),
		],
	])("%s", (_name, view, raw, facts, expected) => {
		expect(withSelectionPayload(view, raw, facts)).toEqual(expected);
	});

	test.each<[string, unknown, string]>([
		["not an object", "selection", "unexpected selection at /: "],
		["null", null, "unexpected selection at /: "],
		["text a number", { text: 5, filePath: FILE }, "unexpected selection at /text: "],
		["a negative line", { filePath: FILE, selection: range(-1, 0, 0, 0) }, "unexpected selection at /selection"],
		[
			"a fractional character",
			{ filePath: FILE, selection: range(0, 0.5, 0, 1) },
			"unexpected selection at /selection",
		],
		["a range without end", { filePath: FILE, selection: { start: at(0, 0) } }, "unexpected selection at /selection"],
		["a path over 4096 characters", { filePath: `/${"a".repeat(4096)}` }, "unexpected selection at /filePath: "],
	])("a payload that fails the schema: a reason (%s)", (_name, raw, reason) => {
		const update = withSelectionPayload({ file: FILE }, raw, zero);
		expect(update.ok).toBe(false);
		if (!update.ok) expect(update.reason.startsWith(reason)).toBe(true);
	});

	test(`a selection's text is cut at ${IDE_SELECTION_CHARS} characters`, () => {
		const text = "x".repeat(IDE_SELECTION_CHARS + 500);
		const update = withSelectionPayload({}, { text, filePath: FILE, selection: range(0, 0, 900, 0) }, zero);
		expect(update.ok && update.view.selection?.text).toBe("x".repeat(IDE_SELECTION_CHARS));
	});

	describe("when pi saw a selection made", () => {
		const first = withSelectionPayload({}, { text: "abc", filePath: FILE, selection: range(1, 0, 1, 3) }, zero);
		const seen = first.ok ? first.view : {};
		test.each<[string, unknown, number | null, number | null | undefined]>([
			[
				"the same selection told again keeps its time",
				{ text: "abc", filePath: FILE, selection: range(1, 0, 1, 3) },
				2000,
				1000,
			],
			["another range gets the new time", { text: "abc", filePath: FILE, selection: range(2, 0, 2, 3) }, 2000, 2000],
			[
				"the same range with other text gets the new time",
				{ text: "abd", filePath: FILE, selection: range(1, 0, 1, 3) },
				2000,
				2000,
			],
			[
				"the same range in another file gets the new time",
				{ text: "abc", filePath: OTHER, selection: range(1, 0, 1, 3) },
				2000,
				2000,
			],
			[
				"a replay pi did not see made keeps the time it saw",
				{ text: "abc", filePath: FILE, selection: range(1, 0, 1, 3) },
				null,
				1000,
			],
			[
				"a new selection pi did not see made: unknown",
				{ text: "xyz", filePath: FILE, selection: range(3, 0, 3, 3) },
				null,
				null,
			],
		])("%s", (_name, raw, atSeconds, expected) => {
			const update = withSelectionPayload(seen, raw, { oneBased: false, atSeconds });
			expect(update.ok && update.view.selection?.atSeconds).toBe(expected);
		});

		test("a cursor move in between drops the selection; the same one again is new", () => {
			const moved = withSelectionPayload(
				seen,
				{ text: "", filePath: FILE, selection: range(1, 3, 1, 3) },
				{ oneBased: false, atSeconds: 1500 },
			);
			expect(moved.ok && moved.view.selection).toBeUndefined();
			const again = withSelectionPayload(
				moved.ok ? moved.view : {},
				{ text: "abc", filePath: FILE, selection: range(1, 0, 1, 3) },
				{ oneBased: false, atSeconds: 2000 },
			);
			expect(again.ok && again.view.selection?.atSeconds).toBe(2000);
		});
	});
});

const tab = (fields: Record<string, unknown>) => ({
	isPinned: false,
	isPreview: false,
	label: "x",
	groupIndex: 0,
	...fields,
});

describe("withOpenEditors: the active tab and every dirty document (reference §3 getOpenEditors)", () => {
	test.each<[string, ServerView, unknown, boolean, ViewUpdate]>([
		[
			"the active tab's file, language and line count; its selection moves the cursor",
			{},
			{
				tabs: [
					tab({ uri: `file://${OTHER}`, isActive: false, isDirty: false, languageId: "typescript", lineCount: 3 }),
					tab({
						uri: `file://${FILE}`,
						isActive: true,
						isDirty: false,
						languageId: "typescript",
						lineCount: 42,
						selection: range(4, 1, 4, 6, false),
					}),
				],
			},
			false,
			ok({ file: FILE, dirty: [], languageId: "typescript", lineCount: 42, cursor: at(4, 6) }),
		],
		[
			"the dirty list from every isDirty tab, active or not; untitled ones ignored",
			{},
			{
				tabs: [
					tab({ uri: `file://${OTHER}`, isActive: false, isDirty: true }),
					tab({ uri: "untitled:Untitled-1", isActive: false, isDirty: true, isUntitled: true }),
					tab({ uri: "file:///home/dev/proj/c%20d.ts", isActive: false, isDirty: true }),
					tab({ uri: `file://${FILE}`, isActive: true, isDirty: true, lineCount: 7 }),
				],
			},
			false,
			ok({ file: FILE, dirty: [OTHER, "/home/dev/proj/c d.ts", FILE], lineCount: 7 }),
		],
		[
			"no active tab: no file, the dirty list",
			{ file: FILE, cursor: at(2, 2), languageId: "typescript" },
			{ tabs: [tab({ uri: `file://${OTHER}`, isActive: false, isDirty: true })] },
			false,
			ok({ dirty: [OTHER] }),
		],
		[
			"an untitled active tab: no file",
			{ file: FILE },
			{ tabs: [tab({ uri: "untitled:Untitled-2", isActive: true, isDirty: true })] },
			false,
			ok({ dirty: [] }),
		],
		["no tabs at all", { file: FILE, dirty: [FILE] }, { tabs: [] }, false, ok({ dirty: [] })],
		[
			"the same file keeps what the view knew (cursor, selection); only its language and lines are updated",
			{
				file: FILE,
				cursor: at(9, 1),
				selection: { start: at(9, 0), end: at(9, 1), text: "a", atSeconds: 5 },
				lineCount: 10,
			},
			{ tabs: [tab({ uri: FILE, isActive: true, lineCount: 11, languageId: "ts", selection: range(0, 0, 0, 0) })] },
			false,
			ok({
				file: FILE,
				cursor: at(9, 1),
				selection: { start: at(9, 0), end: at(9, 1), text: "a", atSeconds: 5 },
				lineCount: 11,
				languageId: "ts",
				dirty: [],
			}),
		],
		[
			"a switch to another file drops the old cursor and selection",
			{ file: FILE, cursor: at(9, 1), selection: { start: at(9, 0), end: at(9, 1), text: "a", atSeconds: 5 } },
			{ tabs: [tab({ uri: `file://${OTHER}`, isActive: true })] },
			false,
			ok({ file: OTHER, dirty: [] }),
		],
		[
			"a 1-based server's tab selection moved down",
			{},
			{ tabs: [tab({ uri: FILE, isActive: true, selection: range(3, 3, 3, 5) })] },
			true,
			ok({ file: FILE, dirty: [], cursor: at(2, 4) }),
		],
	])("%s", (_name, view, raw, oneBased, expected) => {
		expect(withOpenEditors(view, raw, oneBased)).toEqual(expected);
	});

	test.each<[string, unknown, string]>([
		["no tabs", {}, "unexpected open editors at /: "],
		["tabs not a list", { tabs: {} }, "unexpected open editors at /tabs: "],
		["isDirty a string", { tabs: [{ uri: FILE, isDirty: "yes" }] }, "unexpected open editors at /tabs/0/isDirty: "],
		[
			"a negative line count",
			{ tabs: [{ uri: FILE, lineCount: -1 }] },
			"unexpected open editors at /tabs/0/lineCount: ",
		],
	])("a wrong answer: a reason (%s)", (_name, raw, reason) => {
		const update = withOpenEditors({}, raw, false);
		expect(update.ok).toBe(false);
		if (!update.ok) expect(update.reason.startsWith(reason)).toBe(true);
	});
});

describe("a selection first read by a query (no time) and then pushed", () => {
	test("the push that says it was just made times it: fresh from then", () => {
		const payload = { text: "abc", filePath: FILE, selection: range(0, 0, 0, 3) };
		const queried = withSelectionPayload({}, payload, { oneBased: false, atSeconds: null });
		const view = queried.ok ? queried.view : {};
		expect(view.selection?.atSeconds).toBeNull();
		const pushed = withSelectionPayload(view, payload, zero);
		expect(pushed.ok && pushed.view.selection?.atSeconds).toBe(1000);
		// A replay of it (no time either) keeps it as it is.
		const replayed = withSelectionPayload(view, payload, { oneBased: false, atSeconds: null });
		expect(replayed.ok && replayed.view.selection?.atSeconds).toBeNull();
	});
});
