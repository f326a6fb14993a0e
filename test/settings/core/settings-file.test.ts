import { describe, expect, test } from "vitest";
import { resolveSettings } from "../../../src/settings/core/settings.ts";
import {
	type SettingsFileRead,
	settingsFileValue,
	settingsProblemLine,
	settingsProblemNotice,
} from "../../../src/settings/core/settings-file.ts";

const FILE = "/home/u/.pi/agent/settings.json";
const text = (value: string): SettingsFileRead => ({ kind: "text", text: value });
const read = (value: string | SettingsFileRead) =>
	settingsFileValue("global", FILE, typeof value === "string" ? text(value) : value);

describe("one settings file as pi-ide reads it", () => {
	test.each([
		["strict JSON", '{"pi-ide": {"context": "explicit"}}'],
		["comments and trailing commas", '{\n  // mine\n  "pi-ide": {"context": "explicit",}, /* more */\n}'],
		["a byte-order mark (pi 1.x strips it too)", '\uFEFF{"pi-ide": {"context": "explicit"}}'],
	])("%s: its settings apply", (_name, content) => {
		const { value, problem } = read(content);
		expect(problem).toBeUndefined();
		expect(resolveSettings(value, undefined).context).toEqual({ mode: "explicit", source: "global" });
	});

	test.each([
		["no file", { kind: "missing" } as const],
		["an empty file (pi reads it as no settings, without a word)", text("")],
		["a file without pi-ide's key", text('{"theme": "dark"}')],
	])("%s: nothing set, nothing to say", (_name, given) => {
		expect(read(given)).toEqual({ value: read(given).value });
		expect(read(given).problem).toBeUndefined();
	});

	test.each([
		// The line and column are of the file as written: the comment before the error counts.
		[
			"a missing comma after a comment",
			'{\n  // the user\'s own /* */\n  "pi-ide": {"secretFiles": ["*.pem"] /* a, */\n    "context": "explicit"}\n}',
			{ line: 4, column: 5, piSaysIt: true },
		],
		["a cut-off file", '{"pi-ide": {"context": "explicit"', { line: 1, column: 34, piSaysIt: true }],
		// V8 says no position for an unexpected token; none is made up.
		["an unexpected token", '{"pi-ide": {"context": }}', { reason: "not valid JSON: Unexpected token '}'" }],
		["a second line cut off after a trailing comma", '{"a": 1,\r\n "b":', { line: 2, column: 6, piSaysIt: true }],
		["a comment never closed", '{"pi-ide": {} /* oops', { reason: "a comment is never closed", piSaysIt: true }],
		["white space only (pi's JSON.parse fails on it too)", "  \n", { piSaysIt: true }],
		["an array", "[1, 2]", { reason: "not a JSON object", piSaysIt: false }],
		["null", "null", { reason: "not a JSON object", piSaysIt: false }],
		["pi-ide's key not an object", '{"pi-ide": ["context"]}', { reason: '"pi-ide" is not an object', piSaysIt: false }],
		["pi-ide's key a string", '{"pi-ide": "explicit"}', { reason: '"pi-ide" is not an object', piSaysIt: false }],
	])("%s: a problem, its settings unset", (_name, content, expected) => {
		const { value, problem } = read(content);
		expect(value).toBeUndefined();
		expect(problem).toMatchObject({ scope: "global", file: FILE, ...expected });
	});

	test("unreadable: the errno code, and pi says it too", () => {
		expect(read({ kind: "unreadable", code: "EACCES" }).problem).toEqual({
			scope: "global",
			file: FILE,
			reason: "cannot be read (EACCES)",
			piSaysIt: true,
		});
	});

	test("the reason never quotes the file's text, and is one terminal-safe line", () => {
		const secret = "sk-live-0123456789abcdef";
		// V8's message would quote the key: the token that broke the parse is its first character.
		const { problem } = read(`{"pi-ide": {}, "token": ${secret}\u001b[2J}`);
		expect(problem?.reason).toMatch(/^not valid JSON: /);
		expect(problem?.reason).not.toContain("live");
		expect(problem?.reason).not.toMatch(/[\u0000-\u001f]/);
		expect(problem?.reason).not.toMatch(/position/);
	});
});

describe("what the user is told", () => {
	const broken = (scope: "global" | "project", content: string) => {
		const problem = settingsFileValue(scope, `/${scope}/settings.json`, text(content)).problem;
		if (!problem) throw new Error("expected a problem");
		return problem;
	};

	test("a syntax error pi already names: the notice names the file and the defaults, not the error", () => {
		const problem = broken("global", '{"pi-ide": {"secretFiles": ["*.pem"], "zed": false,}');
		const settings = resolveSettings(undefined, undefined, [problem]);
		const notice = settingsProblemNotice(problem, settings);
		expect(notice).toBe(
			"pi-ide: none of its settings in /global/settings.json apply (pi names the error); in effect: context auto, auto-connect on, Zed read, Neovim read, Emacs read, credential redaction on, unsaved-buffer guard on, only the default secret-file patterns",
		);
		expect(notice).not.toContain(problem.reason);
	});

	test("a broken project file: what the global file still sets is not called a default", () => {
		const problem = broken("project", "{");
		const global = { "pi-ide": { context: "explicit", neovim: false, emacs: false, secretFiles: ["*.key"] } };
		const notice = settingsProblemNotice(problem, resolveSettings(global, undefined, [problem]));
		expect(notice).toContain("in effect: auto-connect on, Zed read, credential redaction on");
		expect(notice).not.toMatch(/context|Neovim|Emacs/);
		expect(notice).toContain("the default secret-file patterns and 1 from the global settings");
	});

	test("a shape pi does not know about: the notice says it all", () => {
		const problem = broken("project", '{"pi-ide": true}');
		expect(settingsProblemNotice(problem, resolveSettings(undefined, undefined, [problem]))).toMatch(
			/^pi-ide: none of its settings in \/project\/settings\.json apply \("pi-ide" is not an object\); in effect: /,
		);
	});

	test("/ide status: the file, the sanitized reason and where", () => {
		const problem = broken("global", '{\n  "pi-ide": {"context" "auto"}\n}');
		expect(settingsProblemLine(problem)).toMatch(
			/^Settings file \/global\/settings\.json: not used: not valid JSON: .+ at line 2, column 24; none of its pi-ide settings apply$/,
		);
		expect(settingsProblemLine({ ...problem, file: "/x\u001b]0;owned\u0007/settings.json" })).not.toContain("\u001b");
	});

	test("one setting refused: said of that setting alone, the rest of the file applies", () => {
		const settings = resolveSettings(undefined, { "pi-ide": { suggestions: true } }, [], "/p/.pi/settings.json");
		const [problem] = settings.problems;
		if (!problem) throw new Error("expected a problem");
		expect(settingsProblemLine(problem)).toBe(
			'Settings file /p/.pi/settings.json: "suggestions" not used: a project\'s settings may turn suggestions off, never on or choose their model; only the global settings do',
		);
		expect(settingsProblemNotice(problem, settings)).toBe(
			'pi-ide: "suggestions" in /p/.pi/settings.json does not apply: a project\'s settings may turn suggestions off, never on or choose their model; only the global settings do',
		);
	});
});
