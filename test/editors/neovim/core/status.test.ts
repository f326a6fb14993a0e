import { describe, expect, test } from "vitest";
import {
	type NeovimEntry,
	type NeovimReport,
	neovimNoMatchLine,
	neovimStatusLines,
} from "../../../../src/editors/neovim/core/status.ts";
import { editorReading } from "../../../support/fixtures.ts";

const NOW = 1_800_000_000;
const entry = (over: Partial<NeovimEntry> = {}): NeovimEntry => ({
	pid: 42,
	socket: "/tmp/nvimAbC/0",
	ui: true,
	cwd: "/p",
	file: "/p/a.ts",
	blocking: false,
	pushing: true,
	autoread: true,
	diagnostics: { errors: 1, warnings: 2 },
	enclosing: false,
	lastRequest: { atSeconds: NOW - 5, what: "push" },
	editor: { ...editorReading("/p/a.ts"), origin: "neovim" },
	...over,
});
const report = (over: Partial<NeovimReport> = {}): NeovimReport => ({
	phase: "watching",
	source: "default",
	enclosingFound: false,
	neovims: [entry()],
	failures: [],
	...over,
});

describe("the Neovim section of /ide status", () => {
	test("one Neovim in the project, pushing", () => {
		expect(neovimStatusLines(report(), NOW, "/p")).toEqual([
			"Neovim: 1 found over their own servers (found at start, on /ide, and when a server appears in a runtime dir)",
			"  nvim 42: /tmp/nvimAbC/0",
			"    cwd: /p; file: /p/a.ts (1 errors, 2 warnings)",
			"    UI attached; tier 0 (cwd equals the project)",
			"    pushes: live; autoread: on (the model's edits are reloaded in Neovim)",
			"    last request: push 5s ago",
		]);
	});

	test.each<[string, Partial<NeovimEntry>, string]>([
		[
			"a headless Neovim",
			{ ui: false, pushing: false },
			"no UI; not offered: no UI attached (a headless Neovim: a formatter, a test runner)",
		],
		["the one pi runs in", { enclosing: true }, "UI attached; tier 0 (pi runs in its terminal: $NVIM)"],
		[
			"blocking before it described itself",
			{ editor: undefined, blocking: true },
			"not read yet: it waits for the user (a prompt)",
		],
		["blocking", { blocking: true }, "pushes: live; blocking: waits for the user; autoread"],
		["autoread off", { autoread: false }, "autoread: off (pi does not reload the model's edits in Neovim)"],
		[
			"a failed request",
			{ lastRequest: { atSeconds: NOW - 65, what: "reload", failure: "no answer within 500 ms" } },
			"last request: reload 1m ago, failed: no answer within 500 ms",
		],
		[
			"a problem",
			{ problem: "unexpected state from Neovim at /cwd" },
			"; problem: unexpected state from Neovim at /cwd",
		],
		[
			"another project",
			{ editor: { ...editorReading("/q/a.ts"), paths: { cwd: "/q", argvDirs: [] } } },
			"no tier (no cwd, file or launch arg in the project)",
		],
		["terminal escapes in a path", { file: "/p/\u001b[31mred.ts" }, "file: /p/red.ts"],
	])("%s", (_name, over, expected) => {
		expect(neovimStatusLines(report({ neovims: [entry(over)] }), NOW, "/p").join("\n")).toContain(expected);
	});

	test.each<[string, Partial<NeovimReport>, string]>([
		[
			"off",
			{ phase: "off", source: "/home/u/.pi/agent/settings.json" },
			'Neovim: off ("neovim": false in /home/u/.pi/agent/settings.json)',
		],
		[
			"Windows",
			{ phase: "unsupported" },
			"Neovim: not read on Windows (its servers are named pipes; see docs/editors.md)",
		],
		[
			"$NVIM names a socket no Neovim holds",
			{ enclosing: "/tmp/x/0" },
			"  $NVIM: /tmp/x/0 (no Neovim of this user holds that socket: ignored)",
		],
		["$NVIM found", { enclosing: "/tmp/x/0", enclosingFound: true }, "  $NVIM: /tmp/x/0"],
		[
			"a Neovim pi could not talk to",
			{ failures: [{ pid: 7, socket: "/tmp/n/0", reason: "cannot connect: ECONNREFUSED" }] },
			"  nvim 7: /tmp/n/0: cannot talk to it: cannot connect: ECONNREFUSED",
		],
		[
			"a runtime dir that cannot be watched",
			{
				watchProblems: [
					{ dir: "/run/user/0", problem: "cannot watch /run/user/0: the inotify watch limit is reached" },
				],
			},
			"  runtime dir /run/user/0 not watched: cannot watch /run/user/0: the inotify watch limit is reached (new Neovims are found on /ide)",
		],
	])("%s", (_name, over, expected) => {
		expect(neovimStatusLines(report(over), NOW, "/p")).toContain(expected);
	});

	test("what /ide says when no editor is in the project", () => {
		expect(neovimNoMatchLine(report({ neovims: [entry(), entry({ pid: 43, ui: false })] }))).toBe(
			"Neovim: 2 found over their own servers (1 with a UI); none in this project",
		);
		expect(neovimNoMatchLine(report({ phase: "off", source: "x" }))).toBe('Neovim: off ("neovim": false in x)');
	});
});
