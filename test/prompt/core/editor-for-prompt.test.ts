import { describe, expect, test } from "vitest";
import { editorForPrompt, freshSelectionSource } from "../../../src/prompt/core/editor-for-prompt.ts";
import { editorState, selection } from "../../support/fixtures.ts";

const NOW = 1_800_000_000;

describe("editorForPrompt", () => {
	test.each([
		["a file inside the project: relative label", "/p/src/a.ts", "/p", "src/a.ts"],
		["a file elsewhere: absolute label", "/q/b.ts", "/p", "/q/b.ts"],
		["a project with a trailing slash", "/p/a.ts", "/p/", "a.ts"],
		["control characters never reach the label", "/p/a\u001b[2Jb.ts", "/p", "ab.ts"],
	])("%s", (_name, file, project, label) => {
		const now = editorForPrompt(editorState({ cwd: "/p", buffer: { file, name: "x" } }), project, undefined);
		expect(now.kind === "editor" && now.fileLabel).toBe(label);
	});

	test("a long name is clipped to 120 characters for the transcript", () => {
		const now = editorForPrompt(
			editorState({ cwd: "/p", buffer: { file: `/p/${"a".repeat(300)}.ts` } }),
			"/p",
			undefined,
		);
		expect(now.kind === "editor" && [...now.fileLabel].length).toBe(120);
	});

	test.each([
		["no named buffer", { file: null, name: "[No Name]" }],
		["VS Code's no-editor state", { file: null, name: "[No File]", cursor: null }],
	])("%s is no file", (_name, buffer) => {
		expect(editorForPrompt(editorState({ buffer }), "/p", undefined)).toEqual({ kind: "gone", reason: "no-file" });
	});

	test("cursor line and fields come from the state; column 0 is shown as written", () => {
		const now = editorForPrompt(
			editorState({ cwd: "/p", buffer: { cursor: { line: 7, column: 0 } } }),
			"/p",
			undefined,
		);
		expect(now.kind === "editor" && now.cursorLine).toBe(7);
		expect(now.kind === "editor" && now.fields.Cursor).toBe("Cursor: line 7, column 0");
	});
});

describe("freshSelectionSource", () => {
	test.each([
		["fresh", NOW - 10, true],
		["stale", NOW - 61, false],
		["unknown age", null, false],
	])("%s selection", (_name, selectedAt, fresh) => {
		const state = editorState({ cwd: "/p", buffer: { file: "/p/a.ts", selection: selection(2, 3, "x", selectedAt) } });
		const source = freshSelectionSource(state, NOW - 10, NOW);
		expect(source !== undefined).toBe(fresh);
		if (source) expect(source.file).toBe("/p/a.ts");
	});

	test("a selection in an unnamed buffer has nothing to point at", () => {
		const state = editorState({ buffer: { file: null, name: "[No Name]", selection: selection(1, 1, "x", NOW) } });
		expect(freshSelectionSource(state, NOW, NOW)).toBeUndefined();
	});
});
