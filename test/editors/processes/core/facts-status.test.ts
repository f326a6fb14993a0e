import { describe, expect, test } from "vitest";
import { type FactsStatusInput, factsStatusLines } from "../../../../src/editors/processes/core/facts-status.ts";

const proc: FactsStatusInput = { backend: "proc", why: "Linux", unknown: [] };
const ps: FactsStatusInput = { backend: "ps", why: "no /proc on darwin", unknown: [] };

describe("the Processes lines of /ide status", () => {
	test.each<[string, FactsStatusInput, string[]]>([
		["procfs after a scan", { ...proc, lastScanMs: 3.4 }, ["Processes: procfs (Linux); last scan 3 ms"]],
		["procfs before any scan", proc, ["Processes: procfs (Linux); no scan yet"]],
		[
			"procfs names no lsof version",
			{ ...proc, lsofVersion: "4.95.0", lastScanMs: 0 },
			["Processes: procfs (Linux); last scan 0 ms"],
		],
		[
			"ps with lsof's version",
			{ ...ps, lsofVersion: "4.91", lastScanMs: 23.5 },
			["Processes: ps + lsof 4.91 (no /proc on darwin); last scan 24 ms"],
		],
		[
			"ps before lsof was asked",
			{ ...ps, lastScanMs: 41 },
			["Processes: ps + lsof (no /proc on darwin); last scan 41 ms"],
		],
		["ps, an empty version", { ...ps, lsofVersion: "" }, ["Processes: ps + lsof (no /proc on darwin); no scan yet"]],
		[
			"ps on a Linux whose /proc pi cannot read",
			{ ...ps, why: "/proc cannot be read", lsofVersion: "4.95.0" },
			["Processes: ps + lsof 4.95.0 (/proc cannot be read); no scan yet"],
		],
		[
			"what could not be known, one line each, in order",
			{ ...ps, lastScanMs: 12, unknown: ["lsof is not installed (not on PATH)", "ps gave no answer within 3000 ms"] },
			[
				"Processes: ps + lsof (no /proc on darwin); last scan 12 ms",
				"  unknown: lsof is not installed (not on PATH)",
				"  unknown: ps gave no answer within 3000 ms",
			],
		],
		[
			"a value of the variable ignored, before the unknowns",
			{ ...proc, why: "Linux", ignored: "PI_IDE_PROCESS_FACTS=lsof is neither proc nor ps: ignored", unknown: ["x"] },
			[
				"Processes: procfs (Linux); no scan yet",
				"  PI_IDE_PROCESS_FACTS=lsof is neither proc nor ps: ignored",
				"  unknown: x",
			],
		],
	])("%s", (_case, status, lines) => {
		expect(factsStatusLines(status)).toEqual(lines);
	});

	test("control characters from outside are shown safely: escapes dropped, others a space, long text cut", () => {
		const lines = factsStatusLines({
			backend: "ps",
			why: "no /proc on \u001b[31mdarwin\u001b[0m",
			lsofVersion: "4.91\u0007\u001b]0;title\u0007",
			ignored: "PI_IDE_PROCESS_FACTS=\u001b]52;c;cGF5bG9hZA==\u0007x is neither proc nor ps: ignored",
			unknown: ["ps failed (exit 2): line one\nline two\u202e", `lsof said ${"z".repeat(300)}`],
		});
		expect(lines).toEqual([
			"Processes: ps + lsof 4.91  (no /proc on darwin); no scan yet",
			"  PI_IDE_PROCESS_FACTS=x is neither proc nor ps: ignored",
			"  unknown: ps failed (exit 2): line one line two ",
			`  unknown: lsof said ${"z".repeat(187)}...`,
		]);
		expect(factsStatusLines({ ...ps, lsofVersion: "4.99.3.0.0.0.0.0.0.0.0.0" })[0]).toContain(
			"lsof 4.99.3.0.0.0.0.0.... (",
		);
	});
});
