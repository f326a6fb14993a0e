import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, test } from "vitest";
import { parseReferences, referencePath } from "../../src/references/core/parse.ts";
import {
	type EditorInProject,
	insertEditorReference,
	mentionText,
	selectionReference,
} from "../../src/references/shortcut.ts";
import { editorState, type StateOverrides, selection } from "../support/fixtures.ts";

const PROJECT = "/home/dev/proj";

const connected = (buffer: StateOverrides["buffer"]): EditorInProject => ({
	editor: { state: editorState({ cwd: PROJECT, buffer }) },
	projectDir: PROJECT,
});

/** pi's context as ctrl+alt+k uses it: the input's text, a paste at its cursor, notices. */
function context(cwd: string, inputBefore = "") {
	const pasted: string[] = [];
	const notices: string[] = [];
	const ctx = {
		cwd,
		hasUI: true,
		ui: {
			getEditorText: () => inputBefore,
			pasteToEditor: (text: string) => pasted.push(text),
			notify: (message: string) => notices.push(message),
		},
	} as unknown as ExtensionContext;
	return { ctx, pasted, notices };
}

describe("ctrl+alt+k inserts a reference to what the editor shows", () => {
	test.each<[string, EditorInProject | undefined, string, string, string[], string[]]>([
		[
			"a selection, relative to pi's cwd, after a space when the input does not end in one",
			connected({ selection: selection(2, 4, "x", null) }),
			PROJECT,
			"explain",
			[" @src/main.ts#L2-4 "],
			[],
		],
		[
			"no selection: the cursor line",
			connected({ cursor: { line: 7, column: 1 } }),
			PROJECT,
			"",
			["@src/main.ts#L7 "],
			[],
		],
		[
			"pi runs outside the project: the path relative to the project",
			connected({ cursor: { line: 7, column: 1 } }),
			"/elsewhere",
			"",
			["@src/main.ts#L7 "],
			[],
		],
		[
			"nothing connected: a notice, nothing inserted",
			undefined,
			PROJECT,
			"",
			[],
			["pi-ide: nothing to reference: no editor is connected (/ide picks one)"],
		],
		[
			"an unnamed buffer: a notice",
			connected({ file: null }),
			PROJECT,
			"",
			[],
			["pi-ide: nothing to reference: the editor shows no file"],
		],
		[
			"neither a selection nor a cursor: a notice",
			connected({ cursor: { line: null, column: null } }),
			PROJECT,
			"",
			[],
			["pi-ide: nothing to reference: the editor reports no selection and no cursor"],
		],
	])("%s", (_name, editor, cwd, inputBefore, pasted, notices) => {
		const fake = context(cwd, inputBefore);
		insertEditorReference(fake.ctx, editor);
		expect(fake.pasted).toEqual(pasted);
		expect(fake.notices).toEqual(notices);
	});
});

describe("@ completion's first item: the selection only, never the cursor line", () => {
	test.each<[string, EditorInProject | undefined, string | undefined]>([
		["a selection (fresh or stale)", connected({ selection: selection(3, 5, "x", null) }), "@src/main.ts#L3-5"],
		["a cursor only", connected({ cursor: { line: 9, column: 1 } }), undefined],
		["nothing connected", undefined, undefined],
	])("%s", (_name, editor, expected) => {
		expect(selectionReference(editor, PROJECT)).toBe(expected);
	});
});

describe("mentionText: an IDE server's at_mentioned (VS Code's ctrl+alt+K, claudecode.nvim's send)", () => {
	const place = { cwd: PROJECT, projectDir: PROJECT, inputBefore: "" };
	test.each<[string, Parameters<typeof mentionText>[0], Partial<typeof place>, string]>([
		["lines", { file: `${PROJECT}/src/a.ts`, lines: { start: 2, end: 5 } }, {}, "@src/a.ts#L2-5 "],
		["one line", { file: `${PROJECT}/src/a.ts`, lines: { start: 7, end: 7 } }, {}, "@src/a.ts#L7 "],
		["no lines (an empty selection): the file only", { file: `${PROJECT}/src/a.ts` }, {}, "@src/a.ts "],
		["after a word: a space first", { file: `${PROJECT}/src/a.ts` }, { inputBefore: "explain" }, " @src/a.ts "],
		[
			"after a space: none",
			{ file: `${PROJECT}/src/a.ts`, lines: { start: 1, end: 2 } },
			{ inputBefore: "see " },
			"@src/a.ts#L1-2 ",
		],
		[
			"a space in the path: quoted",
			{ file: `${PROJECT}/src/my a.ts`, lines: { start: 3, end: 4 } },
			{},
			'@"src/my a.ts"#L3-4 ',
		],
		["a space in the path, no lines: quoted", { file: `${PROJECT}/my dir/a.ts` }, {}, '@"my dir/a.ts" '],
		[
			"inside pi's cwd below the project: relative to the cwd",
			{ file: `${PROJECT}/src/a.ts` },
			{ cwd: `${PROJECT}/src` },
			"@a.ts ",
		],
		[
			"outside pi's cwd, inside the project (pi's cwd spelled another way): relative to the project",
			{ file: `${PROJECT}/src/a.ts`, lines: { start: 1, end: 1 } },
			{ cwd: "/link/proj" },
			"@src/a.ts#L1 ",
		],
		["outside both: absolute", { file: "/etc/hosts", lines: { start: 1, end: 3 } }, {}, "@/etc/hosts#L1-3 "],
		["outside both, with a space: absolute and quoted", { file: "/tmp/x y.ts" }, {}, '@"/tmp/x y.ts" '],
	])("%s", (_name, mention, where, text) => {
		expect(mentionText(mention, { ...place, ...where })).toBe(text);
	});

	test("what it inserts with lines parses back to the same file and lines", () => {
		for (const file of [`${PROJECT}/src/a.ts`, `${PROJECT}/src/my a.ts`, "/tmp/x y/b.ts"]) {
			const text = mentionText({ file, lines: { start: 4, end: 9 } }, { ...place, inputBefore: "why" });
			const [reference] = parseReferences(`why${text}`).references;
			expect(reference && referencePath(reference.path, PROJECT, "/h")).toBe(file);
			expect(reference && [reference.startLine, reference.endLine]).toEqual([4, 9]);
		}
	});
});
