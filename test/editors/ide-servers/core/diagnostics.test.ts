import { describe, expect, test } from "vitest";
import { type Diagnostic, MAX_DIAGNOSTICS } from "../../../../src/editors/core/protocol-state.ts";
import { diagnosticsOfFile } from "../../../../src/editors/ide-servers/core/diagnostics.ts";

const FILE = "/home/dev/proj/src/a.ts";
const OTHER = "/home/dev/proj/src/b.ts";
const item = (line: number, character: number, severity: unknown, message = "m", more: object = {}) => ({
	message,
	severity,
	range: { start: { line, character }, end: { line, character: character + 1 } },
	...more,
});

describe("diagnosticsOfFile: both answer shapes (reference §3 and §6)", () => {
	test("Claude Code's array [{uri, diagnostics}], as VS Code answers: 0-based moved to 1-based, source kept", () => {
		const answer = [
			{
				uri: `file://${FILE}`,
				diagnostics: [
					item(4, 6, "Error", "Type 'string' is not assignable to type 'number'.", { source: "ts", code: "2322" }),
					item(0, 0, "Warning", "unused"),
				],
			},
			{ uri: `file://${OTHER}`, diagnostics: [item(1, 1, "Error", "elsewhere")] },
		];
		expect(diagnosticsOfFile(answer, FILE, false)).toEqual<Diagnostic[]>([
			{
				line: 5,
				column: 7,
				severity: "error",
				message: "Type 'string' is not assignable to type 'number'.",
				source: "ts",
			},
			{ line: 1, column: 1, severity: "warning", message: "unused" },
		]);
	});

	test("pi-ide.nvim's object keyed by URI, severity Information", () => {
		const answer = {
			[`file://${FILE}`]: [item(2, 0, "Information", "info here", { source: "lua_ls" })],
			[`file://${OTHER}`]: [item(3, 0, "Error", "elsewhere")],
		};
		expect(diagnosticsOfFile(answer, FILE, false)).toEqual<Diagnostic[]>([
			{ line: 3, column: 1, severity: "info", message: "info here", source: "lua_ls" },
		]);
	});

	test("a plain path as the uri names the file too", () => {
		expect(diagnosticsOfFile([{ uri: FILE, diagnostics: [item(0, 0, "Hint")] }], FILE, false)).toEqual([
			{ line: 1, column: 1, severity: "hint", message: "m" },
		]);
	});

	test("a URI with an escaped space", () => {
		const file = "/home/dev/my proj/a.ts";
		const answer = [{ uri: "file:///home/dev/my%20proj/a.ts", diagnostics: [item(0, 0, "Error")] }];
		expect(diagnosticsOfFile(answer, file, false)?.length).toBe(1);
	});

	test("claude-code-ide.el's 1-based positions kept", () => {
		expect(
			diagnosticsOfFile([{ uri: FILE, diagnostics: [item(5, 3, "Error"), item(0, 0, "Error")] }], FILE, true),
		).toEqual([
			{ line: 5, column: 3, severity: "error", message: "m" },
			{ line: 1, column: 1, severity: "error", message: "m" },
		]);
	});

	test("other files only: an empty list, not undefined", () => {
		expect(diagnosticsOfFile([{ uri: OTHER, diagnostics: [item(0, 0, "Error")] }], FILE, false)).toEqual([]);
		expect(diagnosticsOfFile([], FILE, false)).toEqual([]);
		expect(diagnosticsOfFile({}, FILE, false)).toEqual([]);
	});

	test("two entries for the file: both read", () => {
		const answer = [
			{ uri: FILE, diagnostics: [item(0, 0, "Error", "one")] },
			{ uri: `file://${FILE}`, diagnostics: [item(1, 0, "Error", "two")] },
		];
		expect(diagnosticsOfFile(answer, FILE, false)?.map((d) => d.message)).toEqual(["one", "two"]);
	});
});

describe("severities: VS Code's names, Neovim's Info, LSP's numbers", () => {
	test.each<[unknown, Diagnostic["severity"] | undefined]>([
		["Error", "error"],
		["Warning", "warning"],
		["Information", "info"],
		["Hint", "hint"],
		["Info", "info"],
		["Warn", "warning"],
		["ERROR", "error"],
		["error", "error"],
		[1, "error"],
		[2, "warning"],
		[3, "info"],
		[4, "hint"],
		[0, undefined],
		[5, undefined],
		["Fatal", undefined],
		["1", undefined],
		[null, undefined],
		[undefined, undefined],
	])("%s → %s", (severity, expected) => {
		const found = diagnosticsOfFile([{ uri: FILE, diagnostics: [item(0, 0, severity)] }], FILE, false);
		expect(found?.[0]?.severity).toBe(expected);
		expect(found?.length).toBe(expected === undefined ? 0 : 1);
	});
});

describe("malformed entries are skipped, the rest read", () => {
	test.each<[string, unknown]>([
		["not an object", "Error at 1"],
		["null", null],
		["no message", { severity: "Error", range: { start: { line: 0, character: 0 } } }],
		["a message that is a number", { message: 5, severity: "Error", range: { start: { line: 0, character: 0 } } }],
		["no range", { message: "m", severity: "Error" }],
		["no start", { message: "m", severity: "Error", range: { end: { line: 0, character: 0 } } }],
		["a negative line", item(-1, 0, "Error")],
		["a fractional character", item(0, 0.5, "Error")],
		["a line as a string", { message: "m", severity: "Error", range: { start: { line: "3", character: 0 } } }],
		["a huge line", item(2_147_483_647, 0, "Error")],
		["an unknown severity", item(0, 0, "Fatal")],
	])("%s", (_name, bad) => {
		const answer = [{ uri: FILE, diagnostics: [bad, item(2, 2, "Error", "good")] }];
		expect(diagnosticsOfFile(answer, FILE, false)).toEqual([
			{ line: 3, column: 3, severity: "error", message: "good" },
		]);
	});

	test.each<[string, unknown]>([
		[
			"an entry without a uri",
			[{ diagnostics: [item(0, 0, "Error")] }, { uri: FILE, diagnostics: [item(1, 0, "Error")] }],
		],
		[
			"an entry whose diagnostics is no list",
			[
				{ uri: FILE, diagnostics: "x" },
				{ uri: FILE, diagnostics: [item(1, 0, "Error")] },
			],
		],
		["an entry that is not an object", ["x", 5, null, { uri: FILE, diagnostics: [item(1, 0, "Error")] }]],
		[
			"an object whose value for the file is no list",
			{ [FILE]: { not: "a list" }, [`file://${FILE}`]: [item(1, 0, "Error")] },
		],
	])("%s", (_name, answer) => {
		expect(diagnosticsOfFile(answer, FILE, false)).toEqual([{ line: 2, column: 1, severity: "error", message: "m" }]);
	});

	test("an empty source is left out, a long one cut at 200", () => {
		const answer = [
			{
				uri: FILE,
				diagnostics: [item(0, 0, "Error", "a", { source: "" }), item(0, 0, "Error", "b", { source: "s".repeat(300) })],
			},
		];
		expect(diagnosticsOfFile(answer, FILE, false)).toEqual([
			{ line: 1, column: 1, severity: "error", message: "a" },
			{ line: 1, column: 1, severity: "error", message: "b", source: "s".repeat(200) },
		]);
	});

	test("a message is cut at 1024 characters, not dropped", () => {
		const found = diagnosticsOfFile([{ uri: FILE, diagnostics: [item(0, 0, "Error", "x".repeat(5000))] }], FILE, false);
		expect(found?.[0]?.message).toBe("x".repeat(1024));
	});

	test(`at most ${MAX_DIAGNOSTICS}, in order, over several entries`, () => {
		const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => item(from + i, 0, "Warning"));
		const answer = [
			{ uri: FILE, diagnostics: many(0, 60) },
			{ uri: `file://${FILE}`, diagnostics: many(60, 60) },
		];
		const found = diagnosticsOfFile(answer, FILE, false);
		expect(found?.length).toBe(MAX_DIAGNOSTICS);
		expect(found?.[0]?.line).toBe(1);
		expect(found?.[MAX_DIAGNOSTICS - 1]?.line).toBe(MAX_DIAGNOSTICS);
	});
});

describe("an answer of neither shape: undefined", () => {
	test.each<[string, unknown]>([
		["null", null],
		["a string", "No diagnostics"],
		["a number", 0],
		["undefined", undefined],
		["a boolean", true],
	])("%s", (_name, answer) => {
		expect(diagnosticsOfFile(answer, FILE, false)).toBeUndefined();
	});
});
