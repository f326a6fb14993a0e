import { describe, expect, test } from "vitest";
import { classifyFileName, parseStateFile, stateFileLines } from "../../../../src/editors/state-dir/core/parse.ts";
import { type ClientFixture, clientFixtureText, editorState, nvimFixtureText } from "../../../support/fixtures.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const parse = (text: string, fileName = "4242.json") => parseStateFile(fileName, bytes(text));
/** A valid state's JSON with `top` merged in at the top level and `buffer` into active_buffer. */
const stateJson = (top: object, buffer: object = {}) => {
	const state = editorState();
	return JSON.stringify({ ...state, active_buffer: { ...state.active_buffer, ...buffer }, ...top });
};
const withTop = (top: object) => stateJson(top);
const SELECTION = { start: { line: 1, column: 1 }, end: { line: 1, column: 2 }, text: "x", selected_at: 1 };
const withBuffer = (buffer: object) => stateJson({}, buffer);

describe("classifyFileName", () => {
	test.each([
		["4242.json", { kind: "state", pid: 4242 }],
		["1.json", { kind: "state", pid: 1 }],
		["2147483647.json", { kind: "state", pid: 2147483647 }],
		["4242.json.tmp", { kind: "ignored" }],
		["notes.txt", { kind: "ignored" }],
		[".4242.json.swp", { kind: "ignored" }],
		["0.json", { kind: "rejected", reason: "file name is not <pid>.json with a positive integer pid" }],
		["-1.json", { kind: "rejected", reason: "file name is not <pid>.json with a positive integer pid" }],
		["1.5.json", { kind: "rejected", reason: "file name is not <pid>.json with a positive integer pid" }],
		["0042.json", { kind: "rejected", reason: "file name is not <pid>.json with a positive integer pid" }],
		["abc.json", { kind: "rejected", reason: "file name is not <pid>.json with a positive integer pid" }],
		["99999999999.json", { kind: "rejected", reason: "pid 99999999999 in the file name is out of range" }],
	])("%s", (name, verdict) => {
		expect(classifyFileName(name)).toEqual(verdict);
	});
});

describe("parseStateFile accepts what real clients write", () => {
	test.each(["named-buffer", "visual-line-selection", "charwise-selection", "unnamed-buffer"] as const)(
		"%s",
		(fixture) => {
			const result = parse(nvimFixtureText(fixture));
			expect(result.ok).toBe(true);
			if (result.ok) expect(result.pid).toBe(4242);
		},
	);

	test.each([
		"vscode-client/named-file",
		"vscode-client/no-editor",
		"vscode-client/multi-root",
		"vscode-client/restored-selection",
		"vscode-client/unsaved-utf16-selection",
		"vscode-client/untitled",
		"obsidian-client/note",
		"obsidian-client/no-note",
	] satisfies ClientFixture[])("%s", (fixture) => {
		const result = parse(clientFixtureText(fixture));
		expect(result).toMatchObject({ ok: true, pid: 4242 });
	});

	test("VS Code's no-editor buffer: cursor null as a whole, explicit nulls, [No File]", () => {
		const result = parse(clientFixtureText("vscode-client/no-editor"));
		expect(result.ok && result.state.active_buffer).toEqual({
			file: null,
			name: "[No File]",
			language: null,
			cursor: null,
			selection: null,
			modified: false,
			lines_total: 0,
		});
	});

	test("escaped slashes decode to real paths", () => {
		const result = parse(nvimFixtureText("named-buffer"));
		expect(result.ok && result.state.active_buffer?.file).toBe("/home/dev/proj/src/main.ts");
		expect(result.ok && result.state.argv).toEqual(["src/main.ts"]);
	});

	test("omitted nil keys stay omitted", () => {
		const result = parse(nvimFixtureText("unnamed-buffer"));
		expect(result.ok && result.state.active_buffer).toEqual({
			lines_total: 1,
			cursor: { line: 1, column: 1 },
			name: "[No Name]",
			modified: false,
		});
	});

	test.each([
		["explicit nulls", withBuffer({ file: null, language: null, selection: null })],
		["null cursor (no cursor concept)", withBuffer({ cursor: { line: null, column: null } })],
		["unknown extra keys", withTop({ future_field: { x: 1 }, vscode_window: 3 })],
		["no argv", withTop({ argv: undefined })],
		["null active_buffer", withTop({ active_buffer: null })],
		["relative obsidian path", withBuffer({ file: "Notes/foo.md" })],
		["selected_at null", withBuffer({ selection: { ...SELECTION, selected_at: null } })],
		["selected_at omitted (nil)", withBuffer({ selection: { ...SELECTION, selected_at: undefined } })],
	])("%s", (_name, text) => {
		expect(parse(text)).toMatchObject({ ok: true });
	});

	test("a byte-order mark is tolerated", () => {
		expect(parse(`\uFEFF${nvimFixtureText("named-buffer")}`)).toMatchObject({ ok: true });
	});
});

describe("parseStateFile rejects with a reason", () => {
	test.each([
		["empty", "", "empty file (an editor may be mid-write)"],
		["not JSON", "hello", "not valid JSON (truncated or corrupt)"],
		["truncated", nvimFixtureText("named-buffer").slice(0, 80), "not valid JSON (truncated or corrupt)"],
		["top-level array", "[1,2]", "top level is an array, not an object"],
		["top-level string", '"x"', "top level is string, not an object"],
		["top-level null", "null", "top level is null, not an object"],
		["cwd a number", withTop({ cwd: 7 }), "invalid state: cwd must be string"],
		["cwd relative", withTop({ cwd: "proj" }), 'invalid state: cwd must match pattern "^/"'],
		["active_buffer a string", withTop({ active_buffer: "main.ts" }), "invalid state: active_buffer must be object"],
		[
			"cursor strings",
			withBuffer({ cursor: { line: "1", column: "2" } }),
			"invalid state: active_buffer.cursor.line must be integer",
		],
		[
			"selection.text a number",
			withBuffer({ selection: { ...SELECTION, text: 5 } }),
			"invalid state: active_buffer.selection.text must be string",
		],
		["argv a string", withTop({ argv: "src/main.ts" }), "invalid state: argv must be array"],
		["negative lines_total", withBuffer({ lines_total: -1 }), "invalid state: active_buffer.lines_total must be >= 0"],
		[
			"fractional lines_total",
			withBuffer({ lines_total: 1.5 }),
			"invalid state: active_buffer.lines_total must be integer",
		],
		[
			"huge lines_total",
			withBuffer({ lines_total: 1e300 }),
			"invalid state: active_buffer.lines_total must be <= 2147483647",
		],
		["missing pid", withTop({ pid: undefined }), "invalid state: top level must have required properties pid"],
		["pid differs from name", withTop({ pid: 777 }), "pid field 777 does not match the file name 4242.json"],
	])("%s", (_name, text, reason) => {
		expect(parse(text)).toEqual({ ok: false, reason });
	});

	test("invalid UTF-8", () => {
		expect(parseStateFile("4242.json", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).toEqual({
			ok: false,
			reason: "not valid UTF-8",
		});
	});

	test("a bad file name is rejected before the content is looked at", () => {
		expect(parse(nvimFixtureText("named-buffer"), "0.json")).toEqual({
			ok: false,
			reason: "file name is not <pid>.json with a positive integer pid",
		});
	});
});

describe("optional fields: kept when well formed, left out with a reason when not, the rest stands", () => {
	const diagnostic = { line: 2, column: 1, severity: "error", message: "Undefined variable 'x'", source: "tsc" };
	test("well-formed diagnostics are part of the state", () => {
		const result = parse(withBuffer({ diagnostics: [diagnostic] }));
		expect(result.ok && result.state.active_buffer?.diagnostics).toEqual([diagnostic]);
		expect(result.ok && result.dropped).toBeUndefined();
	});
	test.each([
		["not a list", 3, "active_buffer.diagnostics left out: active_buffer.diagnostics must be array"],
		[
			"a severity no client writes",
			[{ ...diagnostic, severity: "fatal" }],
			"active_buffer.diagnostics left out: active_buffer.diagnostics.0.severity",
		],
		["line 0", [{ ...diagnostic, line: 0 }], "active_buffer.diagnostics left out: active_buffer.diagnostics.0.line"],
		[
			"a message over 1024 characters",
			[{ ...diagnostic, message: "x".repeat(1025) }],
			"active_buffer.diagnostics left out: active_buffer.diagnostics.0.message",
		],
		["101 entries", Array(101).fill(diagnostic), "active_buffer.diagnostics left out: active_buffer.diagnostics must"],
	])("%s", (_name, diagnostics, reason) => {
		const result = parse(withBuffer({ diagnostics }));
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.state.active_buffer).not.toHaveProperty("diagnostics");
		expect(result.state.active_buffer?.file).toBeTruthy();
		expect(result.dropped?.[0]).toContain(reason);
	});
	test.each([
		[
			"unsaved_files with a relative path",
			{ unsaved_files: ["src/a.ts"] },
			'unsaved_files: 1 of 1 entries left out (unsaved_files.0 must match pattern "^/")',
		],
		["unsaved_files not a list", { unsaved_files: "/a" }, "unsaved_files left out: unsaved_files must be array"],
		["client too long", { client: "x".repeat(101) }, "client left out: client must"],
		["client not a string", { client: 3 }, "client left out: client must be string"],
	])("%s", (_name, top, reason) => {
		const result = parse(withTop(top));
		expect(result.ok && result.dropped?.[0]).toContain(reason);
	});
	test("one bad unsaved_files entry costs only that entry: the good paths are kept, the rest named", () => {
		const result = parse(withTop({ unsaved_files: ["/p/a.ts", "src/b.ts", 7, "/p/c.ts"] }));
		expect(result.ok && result.state.unsaved_files).toEqual(["/p/a.ts", "/p/c.ts"]);
		expect(result.ok && result.dropped).toEqual([
			'unsaved_files: 2 of 4 entries left out (unsaved_files.1 must match pattern "^/")',
		]);
		expect(result.ok && result.unsavedFilesMalformed).toBeUndefined();
	});
	test("over the cap: the first 1000 paths are guarded, and it says so", () => {
		const files = Array.from({ length: 1001 }, (_, index) => `/p/${index}.ts`);
		const result = parse(withTop({ unsaved_files: files }));
		expect(result.ok && result.state.unsaved_files?.length).toBe(1000);
		expect(result.ok && result.dropped).toEqual(["unsaved_files: only the first 1000 of 1001 paths are guarded"]);
	});
	test("unsaved_files that is no list: left out, and marked so that the list before it stands", () => {
		const result = parse(withTop({ unsaved_files: "/a" }));
		expect(result.ok && result.unsavedFilesMalformed).toBe(true);
	});
	test("well-formed unsaved_files and client are part of the state", () => {
		const result = parse(withTop({ unsaved_files: ["/p/a.ts"], client: "pi-ide-context-vscode/0.3.0" }));
		expect(result.ok && result.state).toMatchObject({
			unsaved_files: ["/p/a.ts"],
			client: "pi-ide-context-vscode/0.3.0",
		});
		expect(result.ok && result.dropped).toBeUndefined();
	});
	test("a malformed required field still rejects the whole state", () => {
		const result = parse(withBuffer({ diagnostics: 3, lines_total: -1 }));
		expect(result.ok).toBe(false);
	});
});

describe("whether a state file's selection is whole lines, by the protocol", () => {
	const at = (startLine: number, startColumn: number, endLine: number) => ({
		start: { line: startLine, column: startColumn },
		end: { line: endLine, column: 4 },
		text: "x",
		selected_at: null,
	});
	test.each([
		["multi-line: full lines", at(2, 3, 5), { wholeLineSelection: true }],
		["one line from column 3: exact columns, a part", at(4, 3, 4), { wholeLineSelection: false }],
		["one line from column 1: whole only if it is the line on disk (the reader checks)", at(4, 1, 4), {}],
		["one line from column 0 (accepted as written)", at(4, 0, 4), {}],
		["no selection", null, {}],
	])("%s", (_case, selection, expected) => {
		expect(stateFileLines(selection)).toEqual(expected);
	});
});
