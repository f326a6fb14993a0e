import { describe, expect, test } from "vitest";
import {
	type EmacsEntry,
	type EmacsReport,
	type EmacsUnread,
	emacsNoMatchLine,
	emacsStatusLines,
} from "../../../../src/editors/emacs/core/status.ts";
import { editorReading } from "../../../support/fixtures.ts";

const NOW = 1_800_000_000;
const entry = (over: Partial<EmacsEntry> = {}): EmacsEntry => ({
	pid: 42,
	socket: "/run/user/1000/emacs/server",
	version: "28.2",
	daemon: false,
	frames: 1,
	cwd: "/p",
	file: "/p/a.py",
	mode: "python-mode",
	minibuffer: false,
	pushing: true,
	pushes: { count: 12, lastAtSeconds: NOW - 3 },
	busy: false,
	diagnostics: { errors: 1, warnings: 2 },
	enclosing: false,
	lastRequest: { atSeconds: NOW - 5, what: "state" },
	editor: { ...editorReading("/p/a.py"), origin: "emacs" },
	...over,
});
const report = (over: Partial<EmacsReport> = {}): EmacsReport => ({
	phase: "watching",
	source: "default",
	emacsen: [entry()],
	unread: [],
	listener: { socket: "/run/user/1000/pi-ide-emacs-x/push" },
	...over,
});
const unread = (why: EmacsUnread["why"], daemon = false): EmacsUnread => ({ pid: 77, daemon, why });

describe("the Emacs section of /ide status", () => {
	test("one Emacs in the project, pushing", () => {
		expect(emacsStatusLines(report(), NOW, "/p")).toEqual([
			"Emacs: 1 read over their own servers (found at start, on /ide, and when a socket appears in a server dir)",
			"  emacs 42: /run/user/1000/emacs/server (Emacs 28.2)",
			"    cwd: /p; file: /p/a.py (1 errors, 2 warnings) (python-mode)",
			"    1 frame(s); tier 0 (cwd equals the project)",
			"    pushes: live (12 received, the last 3s ago)",
			"    last request: state 5s ago",
		]);
	});

	test.each<[string, Partial<EmacsEntry>, string]>([
		[
			"read once, not pushing",
			{ pushing: false, pushes: { count: 0 } },
			"    pushes: off (read on /ide) (none received)",
		],
		["busy", { busy: true }, "    pushes: live (12 received, the last 3s ago); busy: its last request timed out"],
		[
			"busy before it was read",
			{ editor: undefined, busy: true },
			"    1 frame(s); not read yet: busy (its request timed out)",
		],
		[
			"the one pi runs in",
			{ enclosing: true },
			"    1 frame(s); tier 0 (pi runs in its terminal: $INSIDE_EMACS, an ancestor of pi)",
		],
		[
			"a daemon with no frame (none yet, or its last client frame closed): connected, not offered",
			{ daemon: true, frames: 0 },
			"    0 frame(s); no frame a user sees: listed, not offered (emacsclient -c or -t makes one)",
		],
		["in the minibuffer", { minibuffer: true }, "    1 frame(s), in the minibuffer; tier 0 (cwd equals the project)"],
		[
			"with pi's commands, a name of the user's kept",
			{
				asks: {
					state: {
						kind: "installed",
						defined: { commands: ["pi-ide-ask", "pi-add", "pi-stop", "pi-reply"], kept: ["pi-ask"] },
					},
				},
			},
			"    asks: M-x pi-ide-ask, pi-add, pi-stop, pi-reply (your own pi-ask kept)",
		],
		[
			"pi's commands not installed",
			{ asks: { state: { kind: "failed", reason: "no answer within 1000 ms" } } },
			"    asks: not installed: no answer within 1000 ms",
		],
		[
			"a failed request and a problem",
			{ lastRequest: { atSeconds: NOW - 1, what: "unsaved list", failure: "no answer within 150 ms" }, problem: "x" },
			"    last request: unsaved list just now, failed: no answer within 150 ms; problem: x",
		],
		["no file", { file: undefined }, "    cwd: /p; file: none (python-mode)"],
		["a daemon's socket line", { daemon: true }, "  emacs 42: /run/user/1000/emacs/server (Emacs 28.2, a daemon)"],
		["what pi cut", { cuts: ["the selection cut"] }, "    cut by pi: the selection cut"],
	])("%s", (_name, over, line) => {
		expect(emacsStatusLines(report({ emacsen: [entry(over)] }), NOW, "/p")).toContain(line);
	});

	test("another project's Emacs: its tier and evidence", () => {
		const editor = { ...editorReading("/q/a.py"), origin: "emacs" as const };
		const lines = emacsStatusLines(report({ emacsen: [entry({ editor })] }), NOW, "/elsewhere");
		expect(lines).toContain("    1 frame(s); no tier (no cwd, file or launch arg in the project)");
	});

	test.each<[string, EmacsUnread, string]>([
		[
			"no server",
			unread({ kind: "no-server" }),
			"  emacs 77: no server: M-x server-start, or (server-start) in the init file",
		],
		[
			"a TCP server",
			unread({ kind: "tcp", ports: [4711] }),
			"  emacs 77: uses a TCP server (server-use-tcp, port 4711): not read",
		],
		[
			"one that answered as another pid",
			unread({ kind: "failed", socket: "/run/e/server", reason: "the server answered as pid 1, not 77" }, true),
			"  emacs 77 (a daemon): /run/e/server: cannot talk to it: the server answered as pid 1, not 77",
		],
		[
			"a refused socket",
			unread({ kind: "failed", socket: "/tmp/emacs0/server", reason: "/tmp/emacs0 has mode 0755" }),
			"  emacs 77: /tmp/emacs0/server: cannot talk to it: /tmp/emacs0 has mode 0755",
		],
	])("an Emacs pi does not read: %s", (_name, one, line) => {
		expect(emacsStatusLines(report({ emacsen: [], unread: [one] }), NOW, "/p")).toContain(line);
	});

	test("INSIDE_EMACS: the Emacs among pi's ancestors, or none", () => {
		expect(emacsStatusLines(report({ insideEmacs: "vterm", enclosingPid: 42 }), NOW, "/p")).toContain(
			"  $INSIDE_EMACS: vterm; pi runs in emacs 42",
		);
		expect(emacsStatusLines(report({ insideEmacs: "28.2,comint" }), NOW, "/p")).toContain(
			"  $INSIDE_EMACS: 28.2,comint (no Emacs among pi's ancestors: ignored)",
		);
	});

	test.each<[string, EmacsUnread["why"], string]>([
		[
			"no server",
			{ kind: "no-server" },
			"  $INSIDE_EMACS: 28.2,comint; pi runs in emacs 77, which runs no server: M-x server-start, or (server-start) in the init file",
		],
		[
			"a TCP server",
			{ kind: "tcp", ports: [4711] },
			"  $INSIDE_EMACS: 28.2,comint; pi runs in emacs 77, which uses a TCP server (server-use-tcp): not read",
		],
		[
			"one pi could not talk to",
			{ kind: "failed", socket: "/run/e/server", reason: "no answer within 1000 ms" },
			"  $INSIDE_EMACS: 28.2,comint; pi runs in emacs 77, which pi cannot talk to (below)",
		],
	])("INSIDE_EMACS, the Emacs pi runs in not read: %s", (_name, why, line) => {
		const lines = emacsStatusLines(
			report({ emacsen: [], unread: [unread(why)], insideEmacs: "28.2,comint", enclosingPid: 77 }),
			NOW,
			"/p",
		);
		expect(lines).toContain(line);
		expect(lines.filter((text) => text.startsWith("  emacs 77"))).toHaveLength(1);
	});

	test("no push socket, a dir not watched", () => {
		const lines = emacsStatusLines(
			report({ listener: { problem: "cannot listen" }, watchProblems: [{ dir: "/run/e", problem: "EACCES" }] }),
			NOW,
			"/p",
		);
		expect(lines).toContain("  pi's push socket: cannot listen (no Emacs is read)");
		expect(lines).toContain("  server dir /run/e not watched: EACCES (new Emacsen are found on /ide)");
	});

	test("what the user and Emacs wrote is shown safely", () => {
		const lines = emacsStatusLines(report({ emacsen: [entry({ file: "/p/\u001b[2Ja.py" })] }), NOW, "/p");
		expect(lines.join("\n")).not.toContain("\u001b");
	});

	test.each<[string, EmacsReport["phase"], string]>([
		["off", "off", 'Emacs: off ("emacs": false in /home/u/.pi/agent/settings.json)'],
		["Windows", "unsupported", "Emacs: not read on Windows (its server speaks TCP there; see docs/editors.md)"],
		["starting", "starting", "Emacs: looking"],
	])("%s: one line", (_name, phase, line) => {
		const lines = emacsStatusLines(report({ phase, source: "/home/u/.pi/agent/settings.json" }), NOW, "/p");
		expect(lines).toEqual([line]);
		expect(emacsNoMatchLine(report({ phase, source: "/home/u/.pi/agent/settings.json" }))).toBe(line);
	});
});

describe("what /ide says of Emacs when nothing is in the project", () => {
	test("how many were read, with a frame, and how many run no server", () => {
		const emacsen = [entry(), entry({ pid: 43, frames: 0 })];
		expect(emacsNoMatchLine(report({ emacsen, unread: [unread({ kind: "no-server" })] }))).toBe(
			"Emacs: 2 read over their own servers (1 with a frame); none in this project; 1 run no server (M-x server-start, or (server-start) in the init file)",
		);
		expect(emacsNoMatchLine(report({ emacsen: [] }))).toBe(
			"Emacs: 0 read over their own servers (0 with a frame); none in this project",
		);
		expect(emacsNoMatchLine(report({ emacsen: [], unread: [unread({ kind: "no-server" })], enclosingPid: 77 }))).toBe(
			"Emacs: 0 read over their own servers (0 with a frame); none in this project; pi runs in emacs 77, which runs no server (M-x server-start, or (server-start) in the init file)",
		);
	});
});
