import { describe, expect, test } from "vitest";
import { hasExited, parseProcStat } from "../../../src/editors/core/proc-stat.ts";

const line = (comm: string, state: string, startTicks = "4242") =>
	`77 (${comm}) ${state} 1 77 77 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 ${startTicks} 12345678 500 18446744073709551615`;

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
		expect(stat).toEqual({ name, state, startTicks: 4242 });
		expect(stat && hasExited(stat)).toBe(exited);
	});

	test.each([
		["empty", ""],
		["no parentheses", "77 zed-editor S 1"],
		["cut after the name", "77 (zed-editor)"],
		["a state that is no letter", line("zed-editor", "?")],
		["no start time", "77 (zed-editor) S 1 77"],
		["a start time that is no number", line("zed-editor", "S", "soon")],
	])("unreadable: %s", (_case, text) => {
		expect(parseProcStat(text)).toBeUndefined();
	});
});
