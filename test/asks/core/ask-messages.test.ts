import { describe, expect, test } from "vitest";
import { MAX_LISTED_BUFFERS, MAX_TYPED_BYTES, parseAskMessage } from "../../../src/asks/core/ask-messages.ts";
import { MAX_DIAGNOSTICS } from "../../../src/editors/core/protocol-state.ts";

const span = (overrides: Record<string, unknown> = {}) => ({
	file: "/p/src/a.ts",
	startLine: 2,
	endLine: 4,
	text: "b\nc\nd",
	...overrides,
});
const withPlaceholders = (placeholders: Record<string, unknown>) => ({ prompt: "explain @this", placeholders });
const error = { line: 3, column: 7, severity: "error", message: "x is not defined", source: "ts" };

describe("an ask the editor sent is taken as it is", () => {
	test.each<[string, unknown]>([
		["the words alone", { prompt: "explain the build" }],
		["a text starting with / (sent as text)", { prompt: "/model gpt" }],
		["@this: lines of a file", withPlaceholders({ this: span() })],
		[
			"@selection inside one line: its columns and exactly the selected text",
			withPlaceholders({ selection: span({ startLine: 3, endLine: 3, startColumn: 5, endColumn: 9, text: "value" }) }),
		],
		["a one-line span", withPlaceholders({ this: span({ startLine: 7, endLine: 7, text: "x" }) })],
		[
			"a buffer with no file: its name and text",
			withPlaceholders({ this: { name: "[No Name]", startLine: 1, endLine: 2, text: "a\nb" } }),
		],
		["@buffer: a file", withPlaceholders({ buffer: { file: "/p/src/a.ts" } })],
		["@buffer: no file", withPlaceholders({ buffer: { name: "*scratch*", text: "(+ 1 2)" } })],
		[
			`@buffers: ${MAX_LISTED_BUFFERS} at most`,
			withPlaceholders({
				buffers: Array.from({ length: MAX_LISTED_BUFFERS }, (_, index) => ({ file: `/p/${index}.ts` })),
			}),
		],
		["@buffers: none", withPlaceholders({ buffers: [] })],
		["@diagnostics", withPlaceholders({ diagnostics: { file: "/p/src/a.ts", items: [error] } })],
		["@diagnostics of a nameless buffer", withPlaceholders({ diagnostics: { name: "[No Name]", items: [] } })],
		["a key pi does not know (an editor newer than pi)", { prompt: "hi", editorVersion: 2 }],
		["exactly 64 KiB typed", { prompt: "a".repeat(MAX_TYPED_BYTES) }],
		["exactly 64 KiB typed in two-byte characters", { prompt: "é".repeat(MAX_TYPED_BYTES / 2) }],
	])("%s", (_name, params) => {
		expect(parseAskMessage("ask", params)).toEqual({ ok: true, value: { method: "ask", ask: params } });
	});
});

describe("a malformed ask gives a reason and never throws", () => {
	test.each<[string, unknown, string]>([
		["no params", undefined, "the message: must be object"],
		["null", null, "the message: must be object"],
		["a string", "explain this", "the message: must be object"],
		["an array", ["explain"], "the message: must be object"],
		["no prompt", { placeholders: {} }, "the message: must have required properties prompt"],
		["a number for a prompt", { prompt: 42 }, "/prompt: must be string"],
		["placeholders not an object", { prompt: "x", placeholders: "@this" }, "/placeholders: must be object"],
		["a line as a string", withPlaceholders({ this: span({ startLine: "2" }) }), "/placeholders/this/startLine"],
		["line 0", withPlaceholders({ this: span({ startLine: 0 }) }), "/placeholders/this/startLine: must be >= 1"],
		["a fractional line", withPlaceholders({ selection: span({ endLine: 4.5 }) }), "/placeholders/selection/endLine"],
		["a negative column", withPlaceholders({ this: span({ startColumn: -1 }) }), "/placeholders/this/startColumn"],
		["a span without text", withPlaceholders({ this: { file: "/p/a.ts", startLine: 1, endLine: 1 } }), "text"],
		[
			"@this ends before it starts",
			withPlaceholders({ this: span({ startLine: 5, endLine: 4 }) }),
			"@this ends before it starts",
		],
		[
			"@selection ends before it starts",
			withPlaceholders({ selection: span({ startLine: 9, endLine: 1 }) }),
			"@selection ends before it starts",
		],
		["a relative file", withPlaceholders({ this: span({ file: "src/a.ts" }) }), "/placeholders/this/file"],
		["the root alone as a file", withPlaceholders({ buffer: { file: "/" } }), "/placeholders/buffer/file"],
		["a buffer's file as a number", withPlaceholders({ buffer: { file: 7 } }), "/placeholders/buffer/file"],
		[
			"a relative file among the buffers",
			withPlaceholders({ buffers: [{ file: "/p/a.ts" }, { file: "b.ts" }] }),
			"/placeholders/buffers/1/file",
		],
		[
			`${MAX_LISTED_BUFFERS + 1} buffers`,
			withPlaceholders({
				buffers: Array.from({ length: MAX_LISTED_BUFFERS + 1 }, (_, index) => ({ file: `/p/${index}.ts` })),
			}),
			`/placeholders/buffers: must not have more than ${MAX_LISTED_BUFFERS} items`,
		],
		[
			"a diagnostic of an unknown severity",
			withPlaceholders({ diagnostics: { items: [{ ...error, severity: "fatal" }] } }),
			"/placeholders/diagnostics/items/0/severity",
		],
		[
			`${MAX_DIAGNOSTICS + 1} diagnostics`,
			withPlaceholders({ diagnostics: { items: Array.from({ length: MAX_DIAGNOSTICS + 1 }, () => error) } }),
			`/placeholders/diagnostics/items: must not have more than ${MAX_DIAGNOSTICS} items`,
		],
		[
			"a span's text over 1 MiB",
			withPlaceholders({ this: span({ text: "x".repeat(1024 * 1024 + 1) }) }),
			"/placeholders/this/text",
		],
	])("%s", (_name, params, where) => {
		let result: ReturnType<typeof parseAskMessage> | undefined;
		expect(() => {
			result = parseAskMessage("ask", params);
		}).not.toThrow();
		expect(result?.ok).toBe(false);
		const reason = result?.ok === false ? result.reason : "";
		expect(reason).toMatch(/^a malformed ask \(.+\)$/);
		expect(reason).toContain(where);
	});
});

describe("a prompt over 64 KiB typed (UTF-8) is refused, never cut", () => {
	test.each<[string, string, number]>([
		["ASCII, one byte over", "a".repeat(MAX_TYPED_BYTES + 1), 65],
		["two-byte characters, one over", "é".repeat(MAX_TYPED_BYTES / 2 + 1), 65],
		["three-byte characters: 64 KiB in bytes though 22 K characters", "€".repeat(22 * 1024), 66],
		["four-byte characters (surrogate pairs)", "😀".repeat(MAX_TYPED_BYTES / 4 + 1), 65],
		["far over", "a".repeat(200 * 1024), 200],
	])("%s", (_name, prompt, kib) => {
		expect(parseAskMessage("ask", { prompt })).toEqual({
			ok: false,
			reason: `prompt too long (${kib} KiB typed; 64 KiB at most)`,
		});
	});

	test("the placeholders' texts do not count: only what was typed", () => {
		const params = withPlaceholders({ this: span({ text: "x".repeat(MAX_TYPED_BYTES * 2) }) });
		expect(parseAskMessage("ask", params).ok).toBe(true);
	});
});

describe("add, stop, reply", () => {
	test.each<[string, unknown]>([
		["a file", { file: "/p/src/a.ts" }],
		["a line", { file: "/p/src/a.ts", startLine: 3 }],
		["lines", { file: "/p/src/a.ts", startLine: 3, endLine: 5 }],
	])("add: %s", (_name, params) => {
		expect(parseAskMessage("add", params)).toEqual({ ok: true, value: { method: "add", add: params } });
	});

	test.each<[string, unknown, string]>([
		["no params", undefined, "the message: must be object"],
		["no file", { startLine: 1 }, "the message: must have required properties file"],
		["a relative file", { file: "src/a.ts" }, "/file: must match pattern"],
		["line 0", { file: "/p/a.ts", startLine: 0 }, "/startLine: must be >= 1"],
		["a line as a string", { file: "/p/a.ts", endLine: "3" }, "/endLine"],
	])("a malformed add: %s", (_name, params, where) => {
		const result = parseAskMessage("add", params);
		expect(result.ok).toBe(false);
		const reason = result.ok ? "" : result.reason;
		expect(reason).toMatch(/^a malformed add \(.+\)$/);
		expect(reason).toContain(where);
	});

	test.each(["stop", "reply", "replyClosed"] as const)("%s takes no params: whatever came is ignored", (method) => {
		for (const params of [undefined, null, {}, "junk", { prompt: 1 }])
			expect(parseAskMessage(method, params)).toEqual({ ok: true, value: { method } });
	});
});
