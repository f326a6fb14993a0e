import { describe, expect, test } from "vitest";
import { DEFAULT_SECRET_FILE_PATTERNS, secretFilePatterns } from "../../../src/safety/core/secret-files.ts";
import {
	PROJECT_SUGGESTIONS_REFUSED,
	resolveSettings,
	reviewStanding,
	suggestionStanding,
	suggestionsPerMinute,
} from "../../../src/settings/core/settings.ts";

const ide = (section: object) => ({ "pi-ide": section });
const off = ide({ autoconnect: false });
const on = ide({ autoconnect: true });

describe("autoconnect: the project wins, missing means on", () => {
	test.each([
		["nothing set", undefined, undefined, true],
		["global off", off, undefined, false],
		["project off", undefined, off, false],
		["project on wins over global off", off, on, true],
		["project off wins over global on", on, off, false],
		["a non-boolean is ignored", ide({ autoconnect: "no" }), undefined, true],
		["a broken section is ignored", { "pi-ide": 5 }, null, true],
	])("%s", (_name, global, project, expected) => {
		expect(resolveSettings(global, project).autoconnect).toBe(expected);
	});
});

describe("context mode: a project may choose explicit; its auto does not override a global explicit", () => {
	test.each([
		["nothing set", undefined, undefined, { mode: "auto", source: "default" }],
		["global explicit", ide({ context: "explicit" }), undefined, { mode: "explicit", source: "global" }],
		["global auto", ide({ context: "auto" }), undefined, { mode: "auto", source: "global" }],
		["project explicit", undefined, ide({ context: "explicit" }), { mode: "explicit", source: "project" }],
		[
			"project explicit over global auto",
			ide({ context: "auto" }),
			ide({ context: "explicit" }),
			{ mode: "explicit", source: "project" },
		],
		[
			"project auto cannot undo global explicit",
			ide({ context: "explicit" }),
			ide({ context: "auto" }),
			{ mode: "explicit", source: "global" },
		],
		["project auto", undefined, ide({ context: "auto" }), { mode: "auto", source: "project" }],
		["anything else is ignored", ide({ context: "none" }), ide({ context: true }), { mode: "auto", source: "default" }],
	])("%s", (_name, global, project, expected) => {
		expect(resolveSettings(global, project).context).toEqual(expected);
	});
});

describe("review: off by default; a project may turn it on, only the global file turns it off", () => {
	test.each([
		["nothing set", undefined, undefined, { on: false, source: "default" }],
		["global on", ide({ review: true }), undefined, { on: true, source: "global" }],
		["project on", undefined, ide({ review: true }), { on: true, source: "project" }],
		[
			"project off cannot undo global on",
			ide({ review: true }),
			ide({ review: false }),
			{ on: true, source: "global" },
		],
		["global off wins over project on", ide({ review: false }), ide({ review: true }), { on: false, source: "global" }],
		["a non-boolean is ignored", ide({ review: "yes" }), ide({ review: 1 }), { on: false, source: "default" }],
	])("%s", (_name, global, project, expected) => {
		expect(resolveSettings(global, project).review).toEqual(expected);
	});

	test.each([
		["the setting as it is", { on: true, source: "global" }, undefined, false, { on: true, source: "global" }],
		[
			"/ide review off over the global file",
			{ on: true, source: "global" },
			false,
			false,
			{ on: false, source: "process" },
		],
		["/ide review on over the default", { on: false, source: "default" }, true, true, { on: true, source: "process" }],
		[
			"print mode ignores a project's on",
			{ on: true, source: "project" },
			undefined,
			true,
			{ on: false, source: "print-mode" },
		],
		["print mode keeps the global on", { on: true, source: "global" }, undefined, true, { on: true, source: "global" }],
		[
			"the TUI takes a project's on",
			{ on: true, source: "project" },
			undefined,
			false,
			{ on: true, source: "project" },
		],
	] as const)("%s", (_name, setting, override, printMode, expected) => {
		expect(reviewStanding(setting, override, printMode)).toEqual(expected);
	});
});

describe("guards: only the user's global settings turn one off; a project may turn one on", () => {
	test.each([
		["nothing set", undefined, undefined, { on: true, source: "default" }],
		["global off", ide({ redactSecrets: false, guardUnsaved: false }), undefined, { on: false, source: "global" }],
		["global on", ide({ redactSecrets: true, guardUnsaved: true }), undefined, { on: true, source: "global" }],
		[
			"project off is ignored",
			undefined,
			ide({ redactSecrets: false, guardUnsaved: false }),
			{ on: true, source: "default" },
		],
		[
			"project off cannot undo global on",
			ide({ redactSecrets: true, guardUnsaved: true }),
			ide({ redactSecrets: false, guardUnsaved: false }),
			{ on: true, source: "global" },
		],
		[
			"project on over global off",
			ide({ redactSecrets: false, guardUnsaved: false }),
			ide({ redactSecrets: true, guardUnsaved: true }),
			{ on: true, source: "project" },
		],
		[
			"a non-boolean is ignored",
			ide({ redactSecrets: "no", guardUnsaved: 0 }),
			undefined,
			{ on: true, source: "default" },
		],
	])("%s", (_name, global, project, expected) => {
		const settings = resolveSettings(global, project);
		expect(settings.redactSecrets).toEqual(expected);
		expect(settings.guardUnsaved).toEqual(expected);
	});
});

describe("secretFiles: defaults, global and project lists all count (pi 1.x would replace one with the other)", () => {
	test("union, in order, without duplicates; junk entries dropped", () => {
		const settings = resolveSettings(
			ide({ secretFiles: ["*.secret.json", "", 7, ".env"] }),
			ide({ secretFiles: ["config/prod.yaml", "*.secret.json"] }),
		);
		expect(settings.secretFiles).toEqual({
			global: ["*.secret.json", ".env"],
			project: ["config/prod.yaml", "*.secret.json"],
		});
		expect(secretFilePatterns(settings.secretFiles)).toEqual([
			...DEFAULT_SECRET_FILE_PATTERNS,
			"*.secret.json",
			"config/prod.yaml",
		]);
	});

	test("a list that is not an array adds nothing", () => {
		expect(secretFilePatterns(resolveSettings(ide({ secretFiles: "*.pem" }), undefined).secretFiles)).toEqual([
			...DEFAULT_SECRET_FILE_PATTERNS,
		]);
	});
});

describe.each(["zed", "neovim", "emacs"] as const)(
	"%s: on unless the global or project settings say false; a project's true never overrides a global false",
	(key) => {
		const set = (value: unknown) => ide({ [key]: value });
		test.each([
			["nothing set", undefined, undefined, { on: true, source: "default" }],
			["global false", set(false), undefined, { on: false, source: "global" }],
			["project false", undefined, set(false), { on: false, source: "project" }],
			["project true under global false", set(false), set(true), { on: false, source: "global" }],
			["project true", undefined, set(true), { on: true, source: "project" }],
			["global true", set(true), undefined, { on: true, source: "global" }],
			["a non-boolean is ignored", set("no"), undefined, { on: true, source: "default" }],
		])("%s", (_name, global, project, expected) => {
			expect(resolveSettings(global, project)[key]).toEqual(expected);
		});
	},
);

describe('ideServers: either file may turn them off or to "ask"; only the global file says "auto"; default "ask"', () => {
	const set = (value: unknown) => (value === undefined ? undefined : ide({ ideServers: value }));
	const off = { mode: "off", source: "global" };
	const projectOff = { mode: "off", source: "project" };
	const projectAsk = { mode: "ask", source: "project" };
	const globalAsk = { mode: "ask", source: "global" };
	const globalAuto = { mode: "auto", source: "global" };
	const fallback = { mode: "ask", source: "default" };
	// Every global × project combination of: not set, false, "ask", "auto", garbage (true).
	test.each<[unknown, unknown, { mode: string; source: string }]>([
		[undefined, undefined, fallback],
		[undefined, false, projectOff],
		[undefined, "ask", projectAsk],
		[undefined, "auto", fallback],
		[undefined, true, fallback],
		[false, undefined, off],
		[false, false, off],
		[false, "ask", off],
		[false, "auto", off],
		[false, true, off],
		["ask", undefined, globalAsk],
		["ask", false, projectOff],
		["ask", "ask", projectAsk],
		["ask", "auto", globalAsk],
		["ask", true, globalAsk],
		["auto", undefined, globalAuto],
		["auto", false, projectOff],
		["auto", "ask", projectAsk],
		["auto", "auto", globalAuto],
		["auto", true, globalAuto],
		[true, undefined, fallback],
		[true, false, projectOff],
		[true, "ask", projectAsk],
		[true, "auto", fallback],
		[true, true, fallback],
	])("global %j, project %j", (global, project, expected) => {
		expect(resolveSettings(set(global), set(project)).ideServers).toEqual(expected);
	});

	test.each<[unknown]>([["off"], ["Auto"], [" ask"], [0], [null], [{}], [["auto"]]])("%j is garbage", (value) => {
		expect(resolveSettings(ide({ ideServers: value }), ide({ ideServers: value })).ideServers).toEqual(fallback);
	});

	test("a broken section counts as unset", () => {
		expect(resolveSettings({ "pi-ide": 5 }, { "pi-ide": [] }).ideServers).toEqual(fallback);
	});
});

describe("suggestions: asked-only by default; only the global file turns them on or names the model", () => {
	const set = (value: unknown) => (value === undefined ? undefined : ide({ suggestions: value }));
	const askedOnly = { mode: "asked-only", source: "default" };
	test.each<[string, unknown, unknown, object]>([
		["nothing set", undefined, undefined, askedOnly],
		["global true", true, undefined, { mode: "on", source: "global" }],
		["global model", "openai/gpt-4o-mini", undefined, { mode: "on", model: "openai/gpt-4o-mini", source: "global" }],
		["a model id with slashes", "openrouter/meta/llama", undefined, { mode: "on", model: "openrouter/meta/llama" }],
		["global false", false, undefined, { mode: "off", source: "global" }],
		["project false", undefined, false, { mode: "off", source: "project" }],
		["project false over global true", true, false, { mode: "off", source: "project" }],
		["project false over a global model", "a/b", false, { mode: "off", source: "project" }],
		["project true is not a project's to say", undefined, true, askedOnly],
		["project model is not a project's to say", undefined, "openai/gpt-5", askedOnly],
		["project true under global false", false, true, { mode: "off", source: "global" }],
		["project model under a global model", "a/b", "c/d", { mode: "on", model: "a/b", source: "global" }],
		["not a model: no slash", "gpt-4o", undefined, askedOnly],
		["not a model: empty provider", "/gpt", undefined, askedOnly],
		["not a model: empty id", "openai/", undefined, askedOnly],
		["not a model: a space", "openai/gpt 4", undefined, askedOnly],
		["garbage", 1, { on: true }, askedOnly],
	])("%s", (_name, global, project, expected) => {
		expect(resolveSettings(set(global), set(project)).suggestions).toMatchObject(expected);
	});

	test.each<[unknown]>([[true], ["openai/gpt-5"]])("a project's %j is a problem of that one setting", (value) => {
		const settings = resolveSettings(undefined, ide({ suggestions: value, zed: false }), [], "/p/.pi/settings.json");
		expect(settings.problems).toEqual([
			{
				scope: "project",
				file: "/p/.pi/settings.json",
				setting: "suggestions",
				reason: PROJECT_SUGGESTIONS_REFUSED,
				piSaysIt: false,
			},
		]);
		// The rest of the file applies.
		expect(settings.zed).toEqual({ on: false, source: "project" });
	});

	test.each<[unknown]>([[false], [undefined], ["nonsense"]])("a project's %j is no problem", (value) => {
		expect(resolveSettings(ide({ suggestions: true }), ide({ suggestions: value })).problems).toEqual([]);
	});

	test("a global true or model is no problem", () => {
		expect(resolveSettings(ide({ suggestions: "a/b" }), undefined).problems).toEqual([]);
	});

	test.each([
		["the setting as it is", { mode: "on", model: "a/b", source: "global" }, undefined, { mode: "on", model: "a/b" }],
		["off for this pi process", { mode: "on", source: "global" }, false, { mode: "off", source: "process" }],
		["on over the default", { mode: "asked-only", source: "default" }, true, { mode: "on", source: "process" }],
		["on keeps the global model", { mode: "on", model: "a/b", source: "global" }, true, { model: "a/b" }],
		["on over a project's off", { mode: "off", source: "project" }, true, { mode: "on", source: "process" }],
	] as const)("standing: %s", (_name, setting, override, expected) => {
		expect(suggestionStanding(setting, override)).toMatchObject(expected);
	});

	test("standing: /ide suggestions off names no model", () => {
		expect(suggestionStanding({ mode: "on", model: "a/b", source: "global" }, false)).toEqual({
			mode: "off",
			source: "process",
		});
	});
});

describe("suggestionsPerMinute: the global number or the default; a project's only lowers it", () => {
	const set = (value: unknown) => (value === undefined ? undefined : ide({ suggestionsPerMinute: value }));
	test.each<[unknown, unknown, number]>([
		[undefined, undefined, 30],
		[10, undefined, 10],
		[100, undefined, 100],
		[undefined, 5, 5],
		[undefined, 100, 30],
		[10, 5, 5],
		[10, 50, 10],
		[0, undefined, 30],
		[-3, 2.5, 30],
		["20", Number.NaN, 30],
		[Number.POSITIVE_INFINITY, 1e20, 30],
	])("global %j, project %j: %i", (global, project, expected) => {
		expect(suggestionsPerMinute(resolveSettings(set(global), set(project)).suggestionsPerMinute, 30)).toBe(expected);
	});
});
