import { describe, expect, test } from "vitest";
import {
	countDiagnostics,
	cutsLines,
	diagnosticCountsText,
	lastRequestText,
	tierText,
	watchProblemLines,
} from "../../../../src/editors/kit/core/status-texts.ts";

describe("the words every source's status uses alike", () => {
	test("diagnostics counted by severity, said after a file only", () => {
		const counts = countDiagnostics([{ severity: "error" }, { severity: "warning" }, { severity: "hint" }]);
		expect(counts).toEqual({ errors: 1, warnings: 1 });
		expect(diagnosticCountsText(counts, "/p/a.ts")).toBe(" (1 errors, 1 warnings)");
		expect(diagnosticCountsText(counts, undefined)).toBe("");
		expect(diagnosticCountsText(undefined, "/p/a.ts")).toBe("");
	});

	test.each([
		["none yet", undefined, "none yet"],
		["answered", { atSeconds: 100, what: "state" }, "state 5s ago"],
		[
			"failed, its reason made safe",
			{ atSeconds: 100, what: "state", failure: "boom\u001b[2J" },
			/^state 5s ago, failed: boom/,
		],
	])("the last request: %s", (_name, request, text) => {
		const shown = lastRequestText(request, 105);
		if (typeof text === "string") expect(shown).toBe(text);
		else expect(shown).toMatch(text);
		expect(shown).not.toContain("\u001b");
	});

	test("a tier with its evidence, or no tier with why", () => {
		const paths = { cwd: "/p", activeFile: "/p/src/a.ts", argvDirs: [] };
		expect(tierText(paths, "/p")).toMatch(/^tier \d \(.+\)$/);
		expect(tierText({ cwd: "/q", activeFile: "/q/a.ts", argvDirs: [] }, "/p")).toMatch(/^no tier \(.+\)$/);
	});

	test("cuts and watch problems, one line each, none when there are none", () => {
		expect(cutsLines(undefined, "    ")).toEqual([]);
		expect(cutsLines(["the path: 5 MB"], "    ")).toEqual(["    cut by pi: the path: 5 MB"]);
		expect(
			watchProblemLines([{ dir: "/run/user/1", problem: "EMFILE" }], "runtime dir", "new Neovims are found"),
		).toEqual(["  runtime dir /run/user/1 not watched: EMFILE (new Neovims are found on /ide)"]);
	});
});
