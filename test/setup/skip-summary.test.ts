import { describe, expect, test } from "vitest";
import { parseSkipLine } from "./skip-log.ts";
import { summaryLines } from "./skip-summary.ts";

describe("the run's closing summary of skipped tests", () => {
	test("a skip line is what said it and why, the why whole over several lines; other lines are not", () => {
		expect(parseSkipLine("the Neovim Lua tests skipped: nvim is not installed\n")).toEqual({
			what: "the Neovim Lua tests",
			reason: "nvim is not installed",
		});
		expect(parseSkipLine("the VS Code tests skipped: npm error code 1\nnpm error path /x\n")).toEqual({
			what: "the VS Code tests",
			reason: "npm error code 1\nnpm error path /x",
		});
		expect(parseSkipLine("[setup] VS Code client built in 3.1 s\n")).toBeUndefined();
		expect(parseSkipLine("5 lines\nthen something skipped: late\n")).toBeUndefined();
	});

	test("the count, each reason once with its files, the global setup's for the whole run, the unexplained", () => {
		const skippedIn = new Map([
			["/repo/test/e2e/vscode.test.ts", 9],
			["/repo/test/e2e/review-vscode.test.ts", 4],
			["/repo/test/e2e/demo.test.ts", 1],
		]);
		const notes = [
			{ file: "/repo/test/e2e/vscode.test.ts", what: "the VS Code tests", reason: "no host" },
			{ file: "/repo/test/e2e/review-vscode.test.ts", what: "the VS Code review", reason: "no host" },
			{ file: "", what: "the VS Code tests", reason: "could not install:\nnpm error code 1\nnpm error gyp" },
			{ file: "/repo/test/e2e/neovim.test.ts", what: "the Neovim tests", reason: "ran after all" },
		];
		expect(summaryLines(14, skippedIn, notes, "/repo")).toEqual([
			"",
			" Skipped  14 tests in 3 files, not run on this machine (under CI=true they fail instead):",
			"   the VS Code tests, the VS Code review skipped: no host",
			"     (test/e2e/review-vscode.test.ts 4, test/e2e/vscode.test.ts 9)",
			"   the VS Code tests skipped: could not install:",
			"     npm error code 1",
			"     npm error gyp",
			"     (said by the global setup, for the whole run)",
			"   no reason printed: test/e2e/demo.test.ts 1",
		]);
	});
});
