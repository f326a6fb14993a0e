import { describe, expect, test } from "vitest";
import {
	INTERNAL_ERROR,
	INVALID_PARAMS,
	METHOD_NOT_FOUND,
	REQUEST_CANCELLED,
} from "../../../src/editors/core/json-rpc.ts";
import {
	CURSOR_CONTEXT_MAX_BYTES,
	ENCLOSING_SCOPE_MAX_CHARS,
	headBytes,
	MAX_SUGGESTIONS,
	OUTLINE_MAX_CHARS,
	parseSuggestionRequest,
	type SuggestionRequestParse,
	tailBytes,
} from "../../../src/suggestions/core/request.ts";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const okRequest = (parse: SuggestionRequestParse) => {
	if (!parse.ok) throw new Error(`refused: ${parse.reason}`);
	return parse.request;
};

describe("parseSuggestionRequest: what editors send", () => {
	test("pi-ide.nvim's request, every field, cursorInComment kept, unknown fields dropped", () => {
		const kept = {
			filePath: "/home/dev/p/main.ts",
			language: "typescript",
			outline: "(program (function_declaration))",
			enclosingScope: "function main() {",
			cursorBefore: "function main() {\n\treturn",
			cursorAfter: ";\n}",
			suggestionCount: 3,
			model: "openai/gpt-4o-mini",
			cursorInComment: false,
		};
		expect(okRequest(parseSuggestionRequest({ ...kept, bufnr: 7, future: { anything: true } }))).toEqual(kept);
	});

	test("the minimal payload: the cursor's two sides; the count defaults to 3", () => {
		expect(parseSuggestionRequest({ cursorBefore: "a", cursorAfter: "" })).toEqual({
			ok: true,
			request: { cursorBefore: "a", cursorAfter: "", suggestionCount: 3 },
		});
	});

	test("an optional field sent as null counts as absent", () => {
		const request = okRequest(
			parseSuggestionRequest({ cursorBefore: "", cursorAfter: "", filePath: null, model: null, suggestionCount: null }),
		);
		expect(request).toEqual({ cursorBefore: "", cursorAfter: "", suggestionCount: 3 });
	});

	test.each<[string, unknown, string]>([
		["no params", undefined, "getSuggestions params are not an object"],
		["null", null, "getSuggestions params are not an object"],
		["an array", [{ cursorBefore: "", cursorAfter: "" }], "getSuggestions params are not an object"],
		["a string", "complete this", "getSuggestions params are not an object"],
		["no cursorAfter", { cursorBefore: "" }, "not a getSuggestions request:"],
		["cursorBefore a number", { cursorBefore: 1, cursorAfter: "" }, "cursorBefore must be string"],
		["cursorBefore null", { cursorBefore: null, cursorAfter: "" }, "cursorBefore must be string"],
		["filePath an array", { cursorBefore: "", cursorAfter: "", filePath: ["/a"] }, "filePath must be string"],
		["count a string", { cursorBefore: "", cursorAfter: "", suggestionCount: "3" }, "suggestionCount must be number"],
		["cursorInComment 1", { cursorBefore: "", cursorAfter: "", cursorInComment: 1 }, "cursorInComment must be boolean"],
		["model an object", { cursorBefore: "", cursorAfter: "", model: { id: "x" } }, "model must be string"],
		[
			"a path over PATH_MAX",
			{ cursorBefore: "", cursorAfter: "", filePath: `/${"a".repeat(4096)}` },
			"filePath must not have more than 4096 characters",
		],
		[
			"a language over 64",
			{ cursorBefore: "", cursorAfter: "", language: "x".repeat(65) },
			"language must not have more than 64",
		],
		["a model over 200", { cursorBefore: "", cursorAfter: "", model: `a/${"b".repeat(199)}` }, "model must not have"],
	])("refused, with a reason and no throw: %s", (_name, params, reason) => {
		const parse = parseSuggestionRequest(params);
		expect(parse.ok).toBe(false);
		if (!parse.ok) expect(parse.reason).toContain(reason);
	});

	test("at the caps exactly: accepted as sent", () => {
		const request = okRequest(
			parseSuggestionRequest({
				cursorBefore: "",
				cursorAfter: "",
				filePath: `/${"a".repeat(4095)}`,
				language: "x".repeat(64),
				model: `a/${"b".repeat(198)}`,
			}),
		);
		expect(request.filePath).toHaveLength(4096);
		expect(request.language).toHaveLength(64);
		expect(request.model).toHaveLength(200);
	});
});

describe("suggestionCount: the seed's cap, 0 to 3", () => {
	test.each<[unknown, number]>([
		[undefined, MAX_SUGGESTIONS],
		[3, 3],
		[1, 1],
		[2.9, 2],
		[99, 3],
		[0, 0],
		[-1, 0],
		[-0.5, 0],
	])("%s → %s", (suggestionCount, count) => {
		const params = { cursorBefore: "", cursorAfter: "", ...(suggestionCount !== undefined && { suggestionCount }) };
		expect(okRequest(parseSuggestionRequest(params)).suggestionCount).toBe(count);
	});
});

describe("the caps: the text nearest the cursor kept, never half a character", () => {
	test("ASCII over 8 KiB: before keeps its end, after its start", () => {
		const before = `${"a".repeat(5000)}${"b".repeat(5000)}`;
		const after = `${"c".repeat(5000)}${"d".repeat(5000)}`;
		const request = okRequest(parseSuggestionRequest({ cursorBefore: before, cursorAfter: after }));
		expect(request.cursorBefore).toBe(before.slice(-CURSOR_CONTEXT_MAX_BYTES));
		expect(request.cursorAfter).toBe(after.slice(0, CURSOR_CONTEXT_MAX_BYTES));
	});

	test.each<[string, string]>([
		["2-byte é", "é"],
		["3-byte 語", "語"],
		["4-byte 😀 (a surrogate pair)", "😀"],
		["mixed", "aé語😀"],
	])("%s: within 8192 bytes, whole characters, valid UTF-8", (_name, unit) => {
		const text = `x${unit.repeat(5000)}y`;
		const request = okRequest(parseSuggestionRequest({ cursorBefore: text, cursorAfter: text }));
		for (const [kept, fits] of [
			[request.cursorBefore, text.endsWith(request.cursorBefore)],
			[request.cursorAfter, text.startsWith(request.cursorAfter)],
		] as const) {
			expect(fits).toBe(true);
			expect(bytes(kept)).toBeLessThanOrEqual(CURSOR_CONTEXT_MAX_BYTES);
			// Nothing lost beyond what one more character would cost.
			expect(bytes(kept)).toBeGreaterThan(CURSOR_CONTEXT_MAX_BYTES - 4);
			expect(Buffer.from(kept, "utf8").toString("utf8")).toBe(kept);
			expect(kept).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
		}
	});

	test.each<[string, string, number, string]>([
		["a pair that does not fit is left out whole (tail)", "a😀b", 4, "b"],
		["a pair that fits is kept whole (tail)", "a😀b", 5, "😀b"],
		["a lone surrogate counts as U+FFFD's 3 bytes (tail)", "a\ud800b", 4, "\ud800b"],
		["nothing fits", "😀", 3, ""],
	])("tailBytes: %s", (_name, text, max, kept) => {
		expect(tailBytes(text, max)).toBe(kept);
	});

	test.each<[string, string, number, string]>([
		["a pair that does not fit is left out whole (head)", "a😀b", 4, "a"],
		["a pair that fits is kept whole (head)", "a😀b", 5, "a😀"],
		["a lone low surrogate counts as 3 bytes (head)", "a\udc00b", 4, "a\udc00"],
		["at the cap exactly", "é語", 5, "é語"],
	])("headBytes: %s", (_name, text, max, kept) => {
		expect(headBytes(text, max)).toBe(kept);
	});

	test("the outline and the enclosing scope keep their start, never half a surrogate pair", () => {
		const outline = `${"o".repeat(OUTLINE_MAX_CHARS - 1)}😀tail`;
		const scope = "s".repeat(ENCLOSING_SCOPE_MAX_CHARS + 100);
		const request = okRequest(
			parseSuggestionRequest({ cursorBefore: "", cursorAfter: "", outline, enclosingScope: scope }),
		);
		expect(request.outline).toBe("o".repeat(OUTLINE_MAX_CHARS - 1));
		expect(request.enclosingScope).toBe("s".repeat(ENCLOSING_SCOPE_MAX_CHARS));
	});

	test("a 16 MiB field is cut without encoding it whole", () => {
		const huge = "語".repeat(8 * 1024 * 1024);
		const request = okRequest(parseSuggestionRequest({ cursorBefore: huge, cursorAfter: huge, outline: huge }));
		expect(bytes(request.cursorBefore)).toBe(8190);
		expect(request.outline).toHaveLength(OUTLINE_MAX_CHARS);
	});
});

test("the JSON-RPC codes an answer carries, as the seed replies them", () => {
	expect([REQUEST_CANCELLED, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR]).toEqual([
		-32800, -32601, -32602, -32603,
	]);
});
