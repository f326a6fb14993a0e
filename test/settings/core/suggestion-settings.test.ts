import { describe, expect, test } from "vitest";
import { resolveSettings, SUGGESTION_KEYS_DEFAULT, suggestionDebounceMs } from "../../../src/settings/core/settings.ts";

const ide = (section: object) => ({ "pi-ide": section });

describe("suggestionDebounceMs: the global number or the default; a project's only lengthens the pause", () => {
	const set = (value: unknown) => (value === undefined ? undefined : ide({ suggestionDebounceMs: value }));
	test.each<[unknown, unknown, number]>([
		[undefined, undefined, 300],
		[150, undefined, 150],
		[0, undefined, 0],
		[10_000, undefined, 10_000],
		[undefined, 500, 500],
		[undefined, 100, 300],
		[150, 100, 150],
		[150, 800, 800],
		[10_001, undefined, 300],
		[-1, undefined, 300],
		[250.5, "400", 300],
		[Number.NaN, Number.POSITIVE_INFINITY, 300],
	])("global %j, project %j: %i", (global, project, expected) => {
		expect(suggestionDebounceMs(resolveSettings(set(global), set(project)).suggestionDebounceMs, 300)).toBe(expected);
	});
});

describe("suggestionKeys: the global file's, each key on its own; never <Tab> by default", () => {
	test("the defaults: copilot.lua's keys", () => {
		expect(resolveSettings(undefined, undefined).suggestionKeys).toEqual({
			accept: "<M-l>",
			next: "<M-]>",
			previous: "<M-[>",
			dismiss: "<C-]>",
			ask: "<M-\\>",
		});
		expect(Object.values(SUGGESTION_KEYS_DEFAULT)).not.toContain("<Tab>");
	});

	test.each<[string, unknown, Partial<Record<keyof typeof SUGGESTION_KEYS_DEFAULT, string | false>>]>([
		["a key changed, the rest kept", { accept: "<C-l>" }, { accept: "<C-l>" }],
		["<Tab> when the user asks for it", { accept: "<Tab>" }, { accept: "<Tab>" }],
		["false or empty: no key for it", { next: false, previous: "" }, { next: false, previous: false }],
		["nonsense: the default", { accept: "has space", dismiss: 5, ask: "x".repeat(33) }, {}],
		["a control character: the default", { accept: "\u001b[A" }, {}],
		["unknown actions ignored", { format: "<M-f>" }, {}],
	])("%s", (_name, keys, changed) => {
		expect(resolveSettings(ide({ suggestionKeys: keys }), undefined).suggestionKeys).toEqual({
			...SUGGESTION_KEYS_DEFAULT,
			...changed,
		});
	});

	test.each([
		["not an object", "<M-l>"],
		["a list", ["<M-l>"]],
		["null", null],
	])("%s: the defaults", (_name, keys) => {
		expect(resolveSettings(ide({ suggestionKeys: keys }), undefined).suggestionKeys).toEqual(SUGGESTION_KEYS_DEFAULT);
	});

	test("a project's keys are not used: a cloned repository does not choose them", () => {
		expect(resolveSettings(undefined, ide({ suggestionKeys: { accept: "<CR>" } })).suggestionKeys).toEqual(
			SUGGESTION_KEYS_DEFAULT,
		);
	});
});
