import { describe, expect, test } from "vitest";
import {
	type IdeServersReport,
	ideServersNoMatchLine,
	ideServersStatusLines,
	type LockEntryReport,
} from "../../../../src/editors/ide-servers/core/status.ts";
import { lockReport } from "../../../../src/editors/ide-servers/listing.ts";

const NOW = 1_800_000_000;
const base: IdeServersReport = { phase: "watching", mode: "ask", source: "default", dirs: [], locks: [] };

const usable: LockEntryReport = {
	name: "/home/dev/.claude/ide/40123.lock",
	port: 40123,
	ideName: "Visual Studio Code",
	folders: ["/home/dev/proj", "/home/dev/lib"],
	holderPid: 5150,
	enclosing: false,
	guard: "unknown until connected",
};
const unused: LockEntryReport = {
	name: "/home/dev/.claude/ide/40999.lock",
	port: 40999,
	ideName: "Neovim",
	folders: [],
	unused: "nothing listens on port 40999 (a stale lockfile)",
	enclosing: false,
	guard: "unknown until connected",
};

describe("ideServersStatusLines: the IDE servers section of /ide status", () => {
	test.each<[string, IdeServersReport, string[]]>([
		[
			"off, by the global file",
			{ ...base, phase: "off", mode: "off", source: "~/.pi/agent/settings.json" },
			['IDE servers: off ("ideServers": false in ~/.pi/agent/settings.json)'],
		],
		[
			"Windows",
			{ ...base, phase: "unsupported" },
			["IDE servers: not read on Windows (a port's owner is proven by /proc or lsof; see docs/editors.md)"],
		],
		["starting", { ...base, phase: "starting" }, ["IDE servers: looking"]],
		[
			"watching, nothing found",
			base,
			['IDE servers: 0 of 0 lockfiles usable; connected when picked with /ide ("ideServers": "ask")'],
		],
		[
			"watching: dirs, a usable and an unused lock, the enclosing port",
			{
				...base,
				mode: "auto",
				ssePort: 40123,
				dirs: [
					{ path: "/home/dev/.claude/ide", kind: "claude", why: "~/.claude/ide", verdict: "read", watch: "watched" },
					{ path: "/home/dev/.pi/ide", kind: "pi", why: "~/.pi/ide", verdict: "not there (yet)" },
				],
				locks: [{ ...usable, enclosing: true }, unused],
			},
			[
				'IDE servers: 1 of 2 lockfiles usable; auto-connected by the same rules as every editor ("ideServers": "auto")',
				"  $CLAUDE_CODE_SSE_PORT: 40123 (the IDE pi runs in)",
				"  lock dir /home/dev/.claude/ide (~/.claude/ide): read; watched",
				"  lock dir /home/dev/.pi/ide (~/.pi/ide): not there (yet)",
				"  /home/dev/.claude/ide/40123.lock (Visual Studio Code): pid 5150 holds port 40123; pi runs in its terminal ($CLAUDE_CODE_SSE_PORT)",
				"    folders: /home/dev/proj, /home/dev/lib",
				"    not connected; unsaved guard: unknown until connected",
				"  /home/dev/.claude/ide/40999.lock (Neovim): not used: nothing listens on port 40999 (a stale lockfile)",
			],
		],
		[
			"a lock whose last connection ended, without an IDE name or folders",
			{
				...base,
				locks: [
					{
						...usable,
						ideName: undefined,
						folders: [],
						ended: "the editor closed pi's connection; another client may have taken it; /ide reconnects",
					},
				],
			},
			[
				'IDE servers: 1 of 1 lockfiles usable; connected when picked with /ide ("ideServers": "ask")',
				"  /home/dev/.claude/ide/40123.lock: pid 5150 holds port 40123",
				"    folders: none",
				"    not connected: the editor closed pi's connection; another client may have taken it; /ide reconnects; unsaved guard: unknown until connected",
			],
		],
		[
			"connecting",
			{ ...base, locks: [{ ...usable, connection: "connecting" }] },
			[
				'IDE servers: 1 of 1 lockfiles usable; connected when picked with /ide ("ideServers": "ask")',
				"  /home/dev/.claude/ide/40123.lock (Visual Studio Code): pid 5150 holds port 40123",
				"    folders: /home/dev/proj, /home/dev/lib",
				"    connecting; unsaved guard: unknown until connected",
			],
		],
	])("%s", (_name, report, lines) => {
		expect(ideServersStatusLines(report, NOW, "/p")).toEqual(lines);
	});

	test("a connected session: server, tools, pushes, the last request and what pi could not read", () => {
		const report: IdeServersReport = {
			...base,
			locks: [
				{
					...usable,
					connection: "connected",
					guard: "available",
					session: {
						server: { name: "Claude Code VSCode MCP", version: "1.0.100" },
						tools: ["getCurrentSelection", "getOpenEditors", "checkDocumentDirty"],
						pushes: 14,
						lastRequest: { atSeconds: NOW - 12, what: "getOpenEditors", failure: "timed out after 2 s" },
						problem: "selection_changed: unexpected selection at /text",
						nonsense: { count: 2, last: "a message that is not JSON" },
					},
				},
			],
		};
		expect(ideServersStatusLines(report, NOW, "/p").slice(3)).toEqual([
			"    connected; unsaved guard: available",
			"      server: Claude Code VSCode MCP 1.0.100; pushes seen: 14",
			"      tools: getCurrentSelection, getOpenEditors, checkDocumentDirty",
			"      last request: getOpenEditors 12s ago, failed: timed out after 2 s; problem: selection_changed: unexpected selection at /text",
			"      2 messages pi could not read (last: a message that is not JSON)",
		]);
	});

	test("a session that knows nothing yet", () => {
		const report: IdeServersReport = {
			...base,
			locks: [
				{
					...usable,
					connection: "connected",
					guard: "not available (the server cannot tell unsaved documents)",
					session: { tools: [], pushes: 0 },
				},
			],
		};
		expect(ideServersStatusLines(report, NOW, "/p").slice(3)).toEqual([
			"    connected; unsaved guard: not available (the server cannot tell unsaved documents)",
			"      server: not known yet; pushes seen: 0",
			"      tools: none",
			"      last request: none yet",
		]);
	});

	test("what an editor wrote reaches the terminal without control characters", () => {
		const report: IdeServersReport = {
			...base,
			dirs: [{ path: "/home/dev/.claude/ide", kind: "claude", why: "~/.claude/ide", verdict: "read\u001b[2J" }],
			locks: [
				{
					...usable,
					ideName: "Evil\u001b]0;owned\u0007\nIDE\u202e",
					folders: ["/p\n  forged line"],
					connection: "connected",
					session: {
						server: { name: "srv\u0007\r", version: "1\u001b[31m" },
						tools: ["a\nb"],
						pushes: 1,
						lastRequest: { atSeconds: NOW, what: "x\u0000y" },
						nonsense: { count: 1, last: "bad\u009b2J" },
					},
				},
			],
		};
		const lines = ideServersStatusLines(report, NOW, "/p");
		for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
		expect(lines[2]).toBe("  /home/dev/.claude/ide/40123.lock (Evil IDE ): pid 5150 holds port 40123");
		expect(lines[3]).toBe("    folders: /p   forged line");
	});

	test("a long lockfile path is cut at its start: the port's name stays", () => {
		const name = `/home/${"d".repeat(200)}/.claude/ide/40123.lock`;
		const [, head] = ideServersStatusLines({ ...base, locks: [{ ...usable, name, ideName: undefined }] }, NOW, "/p");
		expect(head).toBe(`  ...${name.slice(-117)}: pid 5150 holds port 40123`);
	});

	test("long texts are clipped", () => {
		const lines = ideServersStatusLines({ ...base, locks: [{ ...usable, ideName: "N".repeat(100) }] }, NOW, "/p");
		expect(lines[1]).toBe(`  /home/dev/.claude/ide/40123.lock (${"N".repeat(37)}...): pid 5150 holds port 40123`);
	});
});

describe("ideServersNoMatchLine: what /ide says of IDE servers when no editor is in the project", () => {
	test.each<[string, IdeServersReport, string | undefined]>([
		[
			"off",
			{ ...base, phase: "off", mode: "off", source: "the project's .pi/settings.json" },
			'IDE servers: off ("ideServers": false in the project\'s .pi/settings.json)',
		],
		["starting: nothing to say yet", { ...base, phase: "starting" }, undefined],
		["watching", { ...base, locks: [usable, unused] }, "IDE servers: 2 lockfiles (1 usable); none in this project"],
		["no lockfile at all: not a line of its own", { ...base, locks: [] }, undefined],
	])("%s", (_name, report, line) => {
		expect(ideServersNoMatchLine(report)).toBe(line);
	});
});

describe("a lockfile's token never reaches /ide status", () => {
	const TOKEN = "3f9a1c0e-7b2d-4e6f-9a8b-c1d2e3f40516";
	test.each<[string, Parameters<typeof lockReport>[1]]>([
		["not connected", { connection: undefined, elsewhere: undefined, ended: undefined, ssePort: undefined }],
		["ended", { connection: undefined, elsewhere: undefined, ended: "closed", ssePort: 40123 }],
		[
			"the same editor as another lockfile",
			{ connection: undefined, elsewhere: "/x/1.lock", ended: undefined, ssePort: undefined },
		],
	])("%s", (_name, facts) => {
		const entry = lockReport(
			{
				plan: { path: "/home/dev/.claude/ide", kind: "claude", why: "~/.claude/ide" },
				name: "40123.lock",
				port: 40123,
				lockfile: { port: 40123, pid: 9, workspaceFolders: ["/home/dev/proj"], ideName: "Cursor", authToken: TOKEN },
				holder: { pid: 5150, startSeconds: 1 },
				writtenAtSeconds: NOW,
			},
			facts,
		);
		expect(JSON.stringify(entry)).not.toContain(TOKEN);
		const lines = ideServersStatusLines({ ...base, locks: [entry] }, NOW, "/p");
		expect(lines.join("\n")).not.toContain(TOKEN);
		expect(lines[1]).toBe(
			facts.elsewhere
				? "  /home/dev/.claude/ide/40123.lock (Cursor): not used: the same editor as /x/1.lock"
				: `  /home/dev/.claude/ide/40123.lock (Cursor): pid 5150 holds port 40123${facts.ssePort ? "; pi runs in its terminal ($CLAUDE_CODE_SSE_PORT)" : ""}`,
		);
	});
});
