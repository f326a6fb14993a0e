import { describe, expect, test } from "vitest";
import {
	SUGGEST_CONTEXT_BYTES,
	SUGGEST_COUNT,
	SUGGEST_MAX_LANGUAGE_BYTES,
	SUGGEST_MAX_PATH_BYTES,
	SUGGEST_OUTLINE_BYTES,
} from "../../../../src/editors/neovim/core/suggest-context-lua.ts";
import {
	parseSuggestAsk,
	parseSuggestCancel,
	parseSuggestStart,
	SHOWN_TEXT_MAX_CHARS,
	showOutcome,
	suggestionTexts,
	suggestLuaOptions,
} from "../../../../src/editors/neovim/core/suggest-protocol.ts";
import { SUGGESTION_KEYS_DEFAULT } from "../../../../src/settings/core/settings.ts";
import {
	CURSOR_CONTEXT_MAX_BYTES,
	FILE_PATH_MAX_CHARS,
	LANGUAGE_MAX_CHARS,
	MAX_SUGGESTIONS,
	OUTLINE_MAX_CHARS,
} from "../../../../src/suggestions/core/request.ts";

const REQUEST = { filePath: "/p/a.ts", cursorBefore: "x = ", cursorAfter: "" };

describe("Neovim's ask, as the Lua sends it", () => {
	test.each<[string, unknown, ReturnType<typeof parseSuggestAsk>]>([
		[
			"the fields pi echoes, the keys not offered, the request as it came",
			[{ id: 3, tick: 41, buf: 1, by_hand: true, unoffered: ["accept", "ask"], request: REQUEST }],
			{ ok: true, value: { id: 3, tick: 41, byHand: true, unoffered: ["accept", "ask"], request: REQUEST } },
		],
		[
			"unknown actions and repeats dropped; an empty table for none (Lua's {} may be a map)",
			[{ id: 1, tick: 2, unoffered: ["accept", "accept", "format", 7], request: REQUEST }],
			{ ok: true, value: { id: 1, tick: 2, byHand: false, unoffered: ["accept"], request: REQUEST } },
		],
		[
			"unoffered as a map",
			[{ id: 1, tick: 2, unoffered: {}, request: REQUEST }],
			{ ok: true, value: { id: 1, tick: 2, byHand: false, unoffered: [], request: REQUEST } },
		],
		["not a list", { id: 1 }, { ok: false, reason: "a suggestion's ask that is not a table" }],
		["no table", ["x"], { ok: false, reason: "a suggestion's ask that is not a table" }],
		["no id", [{ tick: 1, request: REQUEST }], { ok: false, reason: "a suggestion's ask without its id or tick" }],
		[
			"a fractional tick",
			[{ id: 1, tick: 1.5, request: REQUEST }],
			{ ok: false, reason: "a suggestion's ask without its id or tick" },
		],
		[
			"a negative id",
			[{ id: -1, tick: 1, request: REQUEST }],
			{ ok: false, reason: "a suggestion's ask without its id or tick" },
		],
		["no request", [{ id: 1, tick: 1 }], { ok: false, reason: "a suggestion's ask without its request" }],
		[
			"a request that is a list",
			[{ id: 1, tick: 1, request: [] }],
			{ ok: false, reason: "a suggestion's ask without its request" },
		],
	])("%s", (_name, params, expected) => {
		expect(parseSuggestAsk(params)).toEqual(expected);
	});

	test.each<[unknown, number | undefined]>([
		[[{ id: 4 }], 4],
		[[{ id: "4" }], undefined],
		[[], undefined],
		[null, undefined],
	])("a cancel %j: %j", (params, id) => {
		expect(parseSuggestCancel(params)).toBe(id);
	});
});

describe("the start chunk's answer", () => {
	test.each<[string, unknown, ReturnType<typeof parseSuggestStart>]>([
		[
			"pi's own channel: mine",
			{ owner: 5, unoffered: ["ask"] },
			{ ok: true, value: { kind: "mine", unoffered: ["ask"] } },
		],
		["another channel: elsewhere", { owner: 9 }, { ok: true, value: { kind: "elsewhere", owner: 9 } }],
		[
			"too old a Neovim",
			{ unsupported: "Neovim 0.7 or later draws pi's suggestions" },
			{ ok: true, value: { kind: "unsupported", reason: "Neovim 0.7 or later draws pi's suggestions" } },
		],
		["no owner", {}, { ok: false, reason: "Neovim's answer to starting suggestions names no owner" }],
		["not a table", true, { ok: false, reason: "Neovim's answer to starting suggestions is not a table" }],
	])("%s", (_name, value, expected) => {
		expect(parseSuggestStart(value, 5)).toEqual(expected);
	});

	test.each<[unknown, string | undefined]>([
		["shown", "shown"],
		["stale", "stale"],
		["empty", "empty"],
		["gone", "gone"],
		["drawn", undefined],
		[1, undefined],
	])("the show chunk's word %j", (value, outcome) => {
		expect(showOutcome(value)).toBe(outcome);
	});
});

describe("what is drawn of an answer", () => {
	test.each<[string, unknown, string[]]>([
		["the texts", { suggestions: ["a", "b\nc"] }, ["a", "b\nc"]],
		["at most the count", { suggestions: ["1", "2", "3", "4"] }, ["1", "2", "3"]],
		["strings only, none empty", { suggestions: ["", 5, null, "x"] }, ["x"]],
		["no suggestions field", { other: 1 }, []],
		["not a result", "x", []],
	])("%s", (_name, result, texts) => {
		expect(suggestionTexts(result, 3)).toEqual(texts);
	});

	test("a text over the cap is cut, never inside a surrogate pair", () => {
		const long = `${"a".repeat(SHOWN_TEXT_MAX_CHARS - 1)}😀tail`;
		const [cut] = suggestionTexts({ suggestions: [long] }, 3);
		expect(cut).toBe("a".repeat(SHOWN_TEXT_MAX_CHARS - 1));
		expect(suggestionTexts({ suggestions: ["b".repeat(SHOWN_TEXT_MAX_CHARS + 5)] }, 3)[0]).toHaveLength(
			SHOWN_TEXT_MAX_CHARS,
		);
	});
});

describe("the Lua's options and caps", () => {
	test("keys turned off are left out; the pause as set", () => {
		expect(suggestLuaOptions(250, { ...SUGGESTION_KEYS_DEFAULT, next: false, previous: false })).toEqual({
			debounce_ms: 250,
			keys: { accept: "<M-l>", dismiss: "<C-]>", ask: "<M-\\>" },
		});
	});

	test("what Neovim sends fits what pi's request keeps: the same caps", () => {
		expect(SUGGEST_CONTEXT_BYTES).toBe(CURSOR_CONTEXT_MAX_BYTES);
		// Bytes never outnumber UTF-16 code units: 12 000 bytes are at most 12 000 characters.
		expect(SUGGEST_OUTLINE_BYTES).toBe(OUTLINE_MAX_CHARS);
		expect(SUGGEST_MAX_PATH_BYTES).toBeLessThanOrEqual(FILE_PATH_MAX_CHARS);
		expect(SUGGEST_MAX_LANGUAGE_BYTES).toBeLessThanOrEqual(LANGUAGE_MAX_CHARS);
		expect(SUGGEST_COUNT).toBe(MAX_SUGGESTIONS);
	});
});
