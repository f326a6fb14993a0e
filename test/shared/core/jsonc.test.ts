import { describe, expect, test } from "vitest";
import { parseJsonc } from "../../../src/shared/core/jsonc.ts";

describe("JSON with comments and trailing commas, as editors write settings", () => {
	test.each([
		["plain JSON", '{"a": 1}', { a: 1 }],
		["line comments", '{\n  // the theme\n  "a": 1 // trailing\n}', { a: 1 }],
		["block comments", '/* head */ {"a": /* inline */ 1}', { a: 1 }],
		["trailing commas in objects and arrays", '{"a": [1, 2,], "b": {"c": 3,},}', { a: [1, 2], b: { c: 3 } }],
		[
			"comment markers and commas inside strings are text",
			'{"url": "http://x//y", "s": "a,}", "t": "/*no*/"}',
			{
				url: "http://x//y",
				s: "a,}",
				t: "/*no*/",
			},
		],
		["an escaped quote inside a string", '{"q": "say \\"hi\\" // not a comment"}', { q: 'say "hi" // not a comment' }],
	])("%s", (_name, text, value) => {
		expect(parseJsonc(text)).toEqual({ ok: true, value });
	});

	test.each([
		["an unclosed block comment", '{"a": 1 /* never closed', "a comment is never closed"],
		["not JSON at all", "a = 1", "not valid JSON with comments"],
		["an empty file", "", "not valid JSON with comments"],
	])("%s: a reason, no throw", (_name, text, reason) => {
		const parsed = parseJsonc(text);
		expect(parsed.ok).toBe(false);
		expect(!parsed.ok && parsed.reason).toContain(reason);
	});
});
