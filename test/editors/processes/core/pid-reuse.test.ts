import { describe, expect, test } from "vitest";
import { bootTimeFromProcStat, pidReused, processStart } from "../../../../src/editors/processes/core/pid-reuse.ts";
import { parseProcStat } from "../../../../src/editors/processes/core/proc-stat.ts";
import { PID_REUSE_TOLERANCE_SECONDS } from "../../../../src/shared/core/timing.ts";

/** A stat line to its process's start, as liveness reads it. */
const processStartFromStat = (line: string, bootTimeSeconds: number) => {
	const stat = parseProcStat(line);
	return stat && processStart(stat, bootTimeSeconds);
};

describe("pidReused", () => {
	const written = 1_800_000_000;
	test.each<[string, number | undefined, boolean]>([
		["start time unknown (macOS, no permission): kill(pid, 0) decides", undefined, false],
		["the editor started long before its last write (an idle editor)", written - 36_000, false],
		["started just after the write, within the tolerance", written + PID_REUSE_TOLERANCE_SECONDS, false],
		["started after the write: another process has the pid", written + PID_REUSE_TOLERANCE_SECONDS + 0.01, true],
		["started an hour after the write", written + 3600, true],
	])("%s", (_name, start, reused) => {
		expect(pidReused(start, written)).toBe(reused);
	});
});

describe("reading /proc", () => {
	test("btime from /proc/stat", () => {
		expect(bootTimeFromProcStat("cpu  1 2 3\nintr 5\nbtime 1700000000\nprocesses 9\n")).toBe(1_700_000_000);
		expect(bootTimeFromProcStat("cpu 1 2 3\n")).toBeUndefined();
	});

	const stat = (comm: string, startTicks: string) =>
		`1234 (${comm}) S 1 1234 1234 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 ${startTicks} 12345678 500 18446744073709551615`;

	test.each([
		["a plain name, whole seconds as ps prints them", "nvim", "12345", 1_700_000_000 + 123],
		["a name with spaces and parentheses", "my (odd) name) x", "200", 1_700_000_002],
		["zero ticks", "init", "0", 1_700_000_000],
	])("field 22 after the last ')': %s", (_name, comm, ticks, expected) => {
		expect(processStartFromStat(stat(comm, ticks), 1_700_000_000)).toBeCloseTo(expected, 6);
	});

	test.each(["no parenthesis at all", "1 (x) S 1", "1 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 nope"])(
		"unreadable: %s",
		(line) => {
			expect(processStartFromStat(line, 1_700_000_000)).toBeUndefined();
		},
	);
});
