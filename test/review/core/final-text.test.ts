import { describe, expect, test } from "vitest";
import { acceptedText, normalizedText, userChanged } from "../../../src/review/core/final-text.ts";

describe("the user's version keeps the proposal's BOM and line endings; an editor's added final newline is no change", () => {
	test.each([
		["as proposed, LF", "a\nb\n", "a\nb\n", "a\nb\n"],
		["CRLF proposal, LF editor text", "a\r\nb\r\n", "a\nb\n", "a\r\nb\r\n"],
		["CRLF kept on the user's new line", "a\r\nb\r\n", "a\nx\nb\n", "a\r\nx\r\nb\r\n"],
		["BOM put back", "\uFEFFa\n", "a\n", "\uFEFFa\n"],
		["BOM and CRLF", "\uFEFFa\r\nb", "a\nb", "\uFEFFa\r\nb"],
		["Neovim's final newline on a file without one", "a\nb", "a\nb\n", "a\nb"],
		["a blank last line the user added stays", "a\nb", "a\nb\n\n", "a\nb\n\n"],
		["a user's removed final newline stays removed", "a\nb\n", "a\nb", "a\nb"],
		["new text, editor CRLF", "a\n", "a\r\nb\r\n", "a\nb\n"],
		["empty", "", "", ""],
		["a lone CR counts as a line end", "a\n", "a\rb\n", "a\nb\n"],
	])("%s", (_name, proposed, editorText, expected) => {
		expect(acceptedText(proposed, editorText)).toBe(expected);
	});

	test.each([
		["same text", "a\r\nb\r\n", "a\r\nb\r\n", false],
		["same text in other line endings", "a\r\nb\r\n", "a\nb\n", false],
		["a BOM is not a change", "\uFEFFa", "a", false],
		["a changed line", "a\nb\n", "a\nc\n", true],
		["an added line", "a\n", "a\nb\n", true],
	])("changed? %s", (_name, proposed, accepted, expected) => {
		expect(userChanged(proposed, accepted)).toBe(expected);
	});

	test("normalizedText drops the BOM and every CR", () => {
		expect(normalizedText("\uFEFFa\r\nb\rc\n")).toBe("a\nb\nc\n");
	});
});
