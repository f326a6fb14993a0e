import { describe, expect, test } from "vitest";
import { clip, escapeForPrompt, sanitizeForDisplay } from "../../../src/shared/core/display-text.ts";

describe("sanitizeForDisplay", () => {
	test.each([
		["plain", "main.ts", "main.ts"],
		["CSI colour", "\u001b[31mred\u001b[0m.ts", "red.ts"],
		["CSI clear screen", "a\u001b[2Jb", "ab"],
		["OSC title with BEL", "\u001b]0;pwned\u0007main.ts", "main.ts"],
		["OSC 8 hyperlink with ST", "\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\", "link"],
		["C1 CSI", "a\u009b31mb", "ab"],
		["lone ESC at the end", "main.ts\u001b", "main.ts"],
		["BEL", "a\u0007b", "a b"],
		["newline and tab", "a\nb\tc", "a b c"],
		["DEL and C1", "a\u007fb\u0085c", "a b c"],
		["bidi override (Trojan Source)", "evil\u202Est.ts", "evil st.ts"],
		["bidi isolates", "\u2066x\u2069", " x "],
		["CJK and emoji kept", "文件-😀.ts", "文件-😀.ts"],
	])("%s", (_name, input, expected) => {
		expect(sanitizeForDisplay(input)).toBe(expected);
	});
});

describe("escapeForPrompt", () => {
	test.each([
		["single-line escapes newlines", "a\nb", false, "a\\u000ab"],
		["multiline keeps newlines and tabs", "a\n\tb", true, "a\n\tb"],
		["ESC becomes visible", "x\u001b[31m", true, "x\\u001b[31m"],
		["bidi becomes visible", "a\u202Eb", true, "a\\u202eb"],
		["NUL", "a\u0000b", true, "a\\u0000b"],
	])("%s", (_name, input, multiline, expected) => {
		expect(escapeForPrompt(input, multiline)).toBe(expected);
	});
});

test.each([
	["short", 10, "short"],
	["exactly ten", 11, "exactly ten"],
	["a longer text", 8, "a lon..."],
	["😀😀😀😀😀", 4, "😀..."],
])("clip(%s, %d)", (input, max, expected) => {
	expect(clip(input, max)).toBe(expected);
});
