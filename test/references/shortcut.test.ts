import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, test } from "vitest";
import { type EditorInProject, insertEditorReference, selectionReference } from "../../src/references/shortcut.ts";
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
