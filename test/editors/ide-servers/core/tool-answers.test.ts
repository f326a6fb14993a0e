import { describe, expect, test } from "vitest";
import { toolAnswerOf } from "../../../../src/editors/core/mcp.ts";
import { dirtyOf, mentionOf } from "../../../../src/editors/ide-servers/core/tool-answers.ts";

describe("toolAnswerOf and dirtyOf: a tool's text content", () => {
	const content = (text: unknown) => ({ content: [{ type: "text", text }] });
	test.each<[string, unknown, ReturnType<typeof toolAnswerOf>, boolean | undefined]>([
		[
			"checkDocumentDirty: dirty",
			content(JSON.stringify({ success: true, filePath: "/p/a.ts", isDirty: true, isUntitled: false })),
			{ json: { success: true, filePath: "/p/a.ts", isDirty: true, isUntitled: false } },
			true,
		],
		[
			"checkDocumentDirty: saved",
			content(JSON.stringify({ success: true, isDirty: false })),
			{ json: { success: true, isDirty: false } },
			false,
		],
		[
			"a document not open: not dirty",
			content("Document not open: /p/a.ts"),
			{ text: "Document not open: /p/a.ts" },
			false,
		],
		["another plain text: unknown", content("Opened file: /p/a.ts"), { text: "Opened file: /p/a.ts" }, undefined],
		[
			"JSON without isDirty: unknown",
			content(JSON.stringify({ success: false })),
			{ json: { success: false } },
			undefined,
		],
		[
			"isDirty a string: unknown",
			content(JSON.stringify({ isDirty: "true" })),
			{ json: { isDirty: "true" } },
			undefined,
		],
		["a JSON array", content("[1,2]"), { json: [1, 2] }, undefined],
		["no content list", { content: "x" }, undefined, undefined],
		["an empty content list", { content: [] }, undefined, undefined],
		["a content block without text (an image)", { content: [{ type: "image", data: "…" }] }, undefined, undefined],
		["text not a string", content(5), undefined, undefined],
		["not an object", null, undefined, undefined],
	])("%s", (_name, result, answer, dirty) => {
		expect(toolAnswerOf(result)).toEqual(answer);
		expect(dirtyOf(toolAnswerOf(result))).toBe(dirty);
	});

	test("a long plain text is cut at 300", () => {
		expect(toolAnswerOf(content(`Document not open: /${"a".repeat(400)}`))).toEqual({
			text: `Document not open: /${"a".repeat(280)}`,
		});
	});

	test("only the first content block counts", () => {
		expect(
			toolAnswerOf({
				content: [
					{ type: "text", text: "FILE_SAVED" },
					{ type: "text", text: "{}" },
				],
			}),
		).toEqual({
			text: "FILE_SAVED",
		});
	});
});

describe("mentionOf: at_mentioned's file and 1-based lines", () => {
	test.each<[string, unknown, boolean, ReturnType<typeof mentionOf>]>([
		[
			"0-based lines +1 (VS Code, nvim)",
			{ filePath: "/p/a.ts", lineStart: 0, lineEnd: 4 },
			false,
			{ file: "/p/a.ts", lines: { start: 1, end: 5 } },
		],
		[
			"1-based lines kept (claude-code-ide.el)",
			{ filePath: "/p/a.ts", lineStart: 1, lineEnd: 4 },
			true,
			{ file: "/p/a.ts", lines: { start: 1, end: 4 } },
		],
		[
			"a 1-based 0 becomes line 1",
			{ filePath: "/p/a.ts", lineStart: 0, lineEnd: 0 },
			true,
			{ file: "/p/a.ts", lines: { start: 1, end: 1 } },
		],
		[
			"one line",
			{ filePath: "/p/a.ts", lineStart: 9, lineEnd: 9 },
			false,
			{ file: "/p/a.ts", lines: { start: 10, end: 10 } },
		],
		["no lines (an empty selection)", { filePath: "/p/a.ts" }, false, { file: "/p/a.ts" }],
		[
			"only lineStart: one line",
			{ filePath: "/p/a.ts", lineStart: 2 },
			false,
			{ file: "/p/a.ts", lines: { start: 3, end: 3 } },
		],
		["only lineEnd: no lines", { filePath: "/p/a.ts", lineEnd: 2 }, false, { file: "/p/a.ts" }],
		[
			"end before start: the start line",
			{ filePath: "/p/a.ts", lineStart: 8, lineEnd: 3 },
			false,
			{ file: "/p/a.ts", lines: { start: 9, end: 9 } },
		],
		[
			"lines that are not counts: no lines",
			{ filePath: "/p/a.ts", lineStart: -1, lineEnd: "4" },
			false,
			{ file: "/p/a.ts" },
		],
		[
			"a fractional lineEnd: the start line",
			{ filePath: "/p/a.ts", lineStart: 1, lineEnd: 2.5 },
			false,
			{ file: "/p/a.ts", lines: { start: 2, end: 2 } },
		],
		["a relative path: rejected", { filePath: "src/a.ts", lineStart: 0, lineEnd: 1 }, false, undefined],
		["a file URI: rejected", { filePath: "file:///p/a.ts" }, false, undefined],
		["no filePath", { lineStart: 0 }, false, undefined],
		["a path over 4096 characters", { filePath: `/${"a".repeat(4096)}` }, false, undefined],
		["not an object", "/p/a.ts", false, undefined],
		["null", null, false, undefined],
	])("%s", (_name, params, oneBased, mention) => {
		expect(mentionOf(params, oneBased)).toEqual(mention);
	});
});

describe("at_mentioned goes into pi's input as a paste", () => {
	test.each([
		["an ESC (it would end the paste early)", "/p/a\u001b[201~b.ts"],
		["a newline", "/p/a\nb.ts"],
		["a C1 control", "/p/a\u009bb.ts"],
		["DEL", "/p/a\u007fb.ts"],
	])("a path with %s is no mention", (_name, filePath) => {
		expect(mentionOf({ filePath, lineStart: 0, lineEnd: 1 }, false)).toBeUndefined();
	});
});
