import { describe, expect, test } from "vitest";
import { descendants, hasExited, parseProcStat } from "../../../../src/editors/processes/core/proc-stat.ts";

const line = (comm: string, state: string, startTicks = "4242", parentPid = "61") =>
	`77 (${comm}) ${state} ${parentPid} 77 77 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 ${startTicks} 12345678 500 18446744073709551615`;

describe("a /proc/<pid>/stat line", () => {
	test.each([
		["a running Zed", line("zed-editor", "R"), "zed-editor", "R", false],
		["a sleeping one", line("zed-editor", "S"), "zed-editor", "S", false],
		["stopped (ctrl+z)", line("zed-editor", "T"), "zed-editor", "T", false],
		["a zombie: exited, not reaped", line("zed-editor", "Z"), "zed-editor", "Z", true],
		["dead, being torn down", line("zed-editor", "X"), "zed-editor", "X", true],
		["a name with spaces and parentheses", line("a) (b c", "S"), "a) (b c", "S", false],
		["a name that looks like the fields", line("x) Z 1 2", "S"), "x) Z 1 2", "S", false],
	])("%s", (_case, text, name, state, exited) => {
		const stat = parseProcStat(text);
		expect(stat).toEqual({ name, state, parentPid: 61, startTicks: 4242 });
		expect(stat && hasExited(stat)).toBe(exited);
	});

	test.each([
		["empty", ""],
		["no parentheses", "77 zed-editor S 1"],
		["cut after the name", "77 (zed-editor)"],
		["a state that is no letter", line("zed-editor", "?")],
		["no start time", "77 (zed-editor) S 1 77"],
		["a start time that is no number", line("zed-editor", "S", "soon")],
		["a parent pid that is no number", line("zed-editor", "S", "4242", "x")],
	])("unreadable: %s", (_case, text) => {
		expect(parseProcStat(text)).toBeUndefined();
	});
});

describe("a process's descendants from a table of parents", () => {
	const parents = new Map([
		[10, 1],
		[11, 10],
		[12, 10],
		[13, 11],
		[20, 1],
		[30, 30],
	]);
	test.each([
		["children, then theirs", 10, [11, 12, 13]],
		["a leaf has none", 13, []],
		["another branch is not counted", 20, []],
		["a process that names itself its parent loops nowhere", 30, []],
		["a pid not in the table", 99, []],
	])("%s", (_case, root, expected) => {
		expect(descendants(root, parents)).toEqual(expected);
	});
});
