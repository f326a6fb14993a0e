import { describe, expect, test } from "vitest";
import { editToAccepted, rewriteToAccepted } from "../../../src/review/core/final-text.ts";
import { changedText, rejectedText } from "../../../src/review/core/model-texts.ts";
import { CHOICES, choiceOf, lineCounts, selectTitle } from "../../../src/review/core/select-texts.ts";

describe("what the model is told", () => {
	test("a rejection names the editor, carries the reason, and says not to repeat the change", () => {
		expect(rejectedText("edit", "src/a.ts", "Neovim", "use a map")).toBe(
			'The user rejected this edit of src/a.ts in Neovim; the file was not changed. The user\'s reason: "use a map". Do not make the same change again: take the reason into account.',
		);
		expect(rejectedText("write", "a.ts", "pi", undefined)).toContain("ask the user how to proceed");
		expect(rejectedText("write", "a.ts", "pi", "  ")).not.toContain("reason:");
	});

	test("a changed proposal: the unified diff of the user's changes, and no need to re-read", () => {
		const text = changedText("edit", "src/a.ts", { proposed: "a\r\nb\r\n", accepted: "a\r\nB\r\n", secretFile: false });
		expect(text).toContain("The user changed your proposed edit before accepting it");
		expect(text).toContain(
			"--- src/a.ts (your proposal)\n+++ src/a.ts (as the user accepted it)\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n",
		);
		expect(text).toContain("no need to read it again");
	});

	test("a secret file's changes are not shown: the diff would carry lines the model never saw", () => {
		const text = changedText("edit", ".env", { proposed: "KEY=1\n", accepted: "KEY=sk-live-123\n", secretFile: true });
		expect(text).toContain(
			"The user changed your proposed edit before accepting it: .env now holds the user's version.",
		);
		expect(text).not.toContain("sk-live");
		expect(text).not.toContain("KEY=");
	});

	test("a huge change is cut at 64 KiB, and the model told to read the file again", () => {
		const many = (word: string) =>
			Array.from({ length: 4000 }, (_, index) => `${word} ${index} ${"x".repeat(20)}\n`).join("");
		const text = changedText("write", "big.txt", { proposed: many("old"), accepted: many("new"), secretFile: false });
		expect(Buffer.byteLength(text)).toBeLessThan(70 * 1024);
		expect(text).toContain("[diff cut at 64 KiB:");
		expect(text).toContain("read the file again");
	});

	test("the reason goes as one quoted line, whatever the editor sent", () => {
		expect(rejectedText("write", "a.ts", "Neovim", 'no\n"really"\tno')).toContain(
			'The user\'s reason: "no \\"really\\" no".',
		);
	});
});

describe("pi's select", () => {
	test("four choices; Esc is none of them", () => {
		expect(CHOICES).toEqual(["Accept", "Accept all in this session", "Reject", "Reject and say why"]);
		expect(CHOICES.map(choiceOf)).toEqual(["accept", "acceptAll", "reject", "rejectWhy"]);
		expect(choiceOf(undefined)).toBeUndefined();
		expect(choiceOf("accept")).toBeUndefined();
	});

	test.each([
		[
			{ kind: "shown", editor: "Neovim", where: "tab page 2", keys: ":w accepts" },
			"Shown in Neovim, tab page 2: :w accepts; or answer here.",
		],
		[{ kind: "closed", editor: "VS Code" }, "The diff in VS Code was closed without a decision: decide here."],
		[
			{ kind: "failed", editor: "Neovim", reason: "Neovim is waiting for the user" },
			"Not shown in Neovim: Neovim is waiting for the user. Decide here.",
		],
		[
			{ kind: "none", reason: "no editor is connected" },
			"Not shown in an editor: no editor is connected. Decide here.",
		],
	] as const)("the title says where: %j", (note, second) => {
		expect(selectTitle({ tool: "edit", displayName: "src/a.ts", added: 2, removed: 1 }, note)).toBe(
			`Review: edit src/a.ts (+2 -1)\n${second}`,
		);
	});

	test.each([
		["new file", undefined, "a\nb\n", { added: 2, removed: 0 }],
		["one line changed", "a\nb\nc\n", "a\nB\nc\n", { added: 1, removed: 1 }],
		["nothing", "a\n", "a\n", { added: 0, removed: 0 }],
		["emptied", "a\nb\n", "", { added: 0, removed: 2 }],
	])("line counts: %s", (_name, before, after, expected) => {
		expect(lineCounts(before, after)).toEqual(expected);
	});
});

describe("the accepted input", () => {
	test.each([
		["one line changed: only that line", "a\nb\nc\n", "a\nB\nc\n", { oldText: "b\n", newText: "B\n" }],
		["an inserted line: anchored on the line before", "a\nb\n", "a\nx\nb\n", { oldText: "a\n", newText: "a\nx\n" }],
		["inserted at the top: anchored on the line after", "a\nb\n", "x\na\nb\n", { oldText: "a\n", newText: "x\na\n" }],
		["a repeated line widened until unique", "x\ny\nx\nz\n", "x\ny\nX\nz\n", { oldText: "y\nx\n", newText: "y\nX\n" }],
		["CRLF and BOM compared as pi's edit matches", "\uFEFFa\r\nb\r\n", "a\nc\n", { oldText: "b\n", newText: "c\n" }],
		["the last line without a newline", "a\nb", "a\nc", { oldText: "b", newText: "c" }],
	])("edit: %s", (_name, before, accepted, expected) => {
		expect(editToAccepted(before, accepted)).toEqual(expected);
	});

	test("edit: the user undid the change: nothing to write", () => {
		const input: Record<string, unknown> = { path: "a.ts", edits: [{ oldText: "b", newText: "c" }] };
		expect(rewriteToAccepted("edit", input, "a\nb\n", "a\r\nb\r\n")).toBe(false);
		expect(input.edits).toEqual([{ oldText: "b", newText: "c" }]);
	});

	test("write: the user's version is the content", () => {
		const input: Record<string, unknown> = { path: "a.ts", content: "model\n" };
		rewriteToAccepted("write", input, "old\n", "user\n");
		expect(input).toEqual({ path: "a.ts", content: "user\n" });
	});

	test("edit: the span that differs, LF and without BOM as pi's edit matches; legacy fields gone", () => {
		const input: Record<string, unknown> = {
			path: "a.ts",
			oldText: "x",
			newText: "y",
			edits: [{ oldText: "b", newText: "c" }],
		};
		expect(rewriteToAccepted("edit", input, "\uFEFFa\r\nb\r\n", "\uFEFFa\r\nuser\r\n")).toBe(true);
		expect(input).toEqual({ path: "a.ts", edits: [{ oldText: "b\n", newText: "user\n" }] });
	});
});
