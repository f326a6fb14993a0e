import { describe, expect, test } from "vitest";
import {
	type DirReport,
	formatNoMatch,
	formatStatus,
	MAX_STATUS_FILES,
	type StatusInput,
} from "../../../src/connection/core/status-report.ts";
import type { Editor, StateFileEntry } from "../../../src/editors/core/editor.ts";
import { DEFAULT_SECRET_FILE_PATTERNS } from "../../../src/safety/core/secret-files.ts";
import { resolveSettings } from "../../../src/settings/core/settings.ts";
import { editorState, selection } from "../../support/fixtures.ts";

const NOW = 1_800_000_000;
const ENV = { uid: 1000, XDG_RUNTIME_DIR: "/run/user/1000" };
const trustedDir = (path: string, files: DirReport["files"] = []): DirReport => ({
	path,
	role: "protocol",
	verdict: { kind: "trusted" },
	files,
});
const BASE: StatusInput = {
	environment: ENV,
	dirs: [trustedDir("/s")],
	projectDir: "/p",
	autoconnect: true,
	suppressed: false,
	nowSeconds: NOW,
};
/** The header lines before the settings and dirs: title, environment, project, auto-connect, connected. */
const HEADER = 5;

function live(pid: number, overrides: Partial<Editor> = {}): { entry: StateFileEntry; editor: Editor } {
	const editor: Editor = {
		origin: "state-file",
		key: `pid:${pid}`,
		pid,
		state: editorState({ pid, buffer: { selection: selection(1, 2, "x", NOW - 12) } }),
		paths: { cwd: "/home/dev/proj", argvDirs: [] },
		selectionFirstSeenSeconds: NOW,
		writtenAtSeconds: NOW,
		alive: true,
		match: { tier: 0, evidence: "cwd equals the project" },
		...overrides,
	};
	return { entry: { fileName: `${pid}.json`, reading: editor }, editor };
}

describe("formatStatus", () => {
	test("the environment, every dir with its verdict, every file with its own, the connection and recent events", () => {
		const text = formatStatus({
			...BASE,
			environment: { uid: 1000, XDG_RUNTIME_DIR: "/run/user/1000", TMPDIR: "/tmp" },
			projectDir: "/home/dev/proj",
			connected: { why: "nvim 1: auto-connected: the only live editor in tier 0 (cwd equals the project)" },
			dirs: [
				trustedDir("/run/user/1000/pi-ide", [
					live(1),
					{ entry: { fileName: "0.json", rejection: "file name is not <pid>.json with a positive integer pid" } },
					{ entry: { fileName: "77.json", deadPid: 77 } },
					live(5, { alive: false }),
					{ ...live(9, { alive: false }), reusedPid: 9 },
					{ ...live(12, { alive: false }), startAsked: 12 },
					live(6, {
						match: { tier: undefined, evidence: "no cwd, file or launch arg in the project" },
						state: editorState({ pid: 6, cwd: "/elsewhere", buffer: { selection: selection(1, 1, "x", NOW - 90) } }),
					}),
				]),
				{ path: "/tmp/pi-ide", role: "side", verdict: { kind: "missing" }, files: [] },
				{
					path: "/tmp/other/pi-ide",
					role: "side",
					verdict: {
						kind: "untrusted",
						reason: "/tmp/other/pi-ide is owned by uid 0, not by you (uid 1000); remove it",
					},
					files: [],
				},
			],
			events: ["12:03:04 connected to nvim 1: auto-connected: the only live editor in tier 0 (cwd equals the project)"],
		});
		expect(text).toBe(
			[
				"pi-ide status",
				"Environment: XDG_RUNTIME_DIR=/run/user/1000, TMPDIR=/tmp, uid 1000, PI_IDE_STATE_DIR not set",
				"Project: /home/dev/proj",
				"Auto-connect: on",
				"Connected: nvim 1: auto-connected: the only live editor in tier 0 (cwd equals the project)",
				"State dir /run/user/1000/pi-ide (the protocol's dir): trusted, 7 state files",
				"  1.json: live nvim 1, tier 0 (cwd equals the project), cwd /home/dev/proj, main.ts, selection fresh (12s old)",
				"  6.json: live nvim 6, no tier (no cwd, file or launch arg in the project), cwd /elsewhere, main.ts, selection stale (90s old)",
				"  0.json: rejected: file name is not <pid>.json with a positive integer pid",
				"  12.json: waiting: when pid 12 started is being asked of ps (a reused pid?)",
				"  5.json: dead: pid 5 is not running",
				"  77.json: dead: pid 77 is not running (not read)",
				"  9.json: dead: pid 9 now belongs to a process started after this file was written",
				"State dir /tmp/pi-ide (side dir, read but never created): not there; looked for every 2 s",
				"State dir /tmp/other/pi-ide (side dir, read but never created): NOT trusted: /tmp/other/pi-ide is owned by uid 0, not by you (uid 1000); remove it",
				"Recent events:",
				"  12:03:04 connected to nvim 1: auto-connected: the only live editor in tier 0 (cwd equals the project)",
			].join("\n"),
		);
	});

	test("PI_IDE_STATE_DIR set: it is named in the environment and is the only dir", () => {
		const text = formatStatus({
			...BASE,
			environment: { uid: 0, PI_IDE_STATE_DIR: "/custom" },
			dirs: [{ path: "/custom", role: "override", verdict: { kind: "trusted" }, files: [] }],
		});
		expect(text.split("\n")).toContain(
			"Environment: XDG_RUNTIME_DIR not set, TMPDIR not set, uid 0, PI_IDE_STATE_DIR=/custom",
		);
		expect(text.split("\n")).toContain(
			"State dir /custom (PI_IDE_STATE_DIR, the only dir read): trusted, 0 state files",
		);
		expect(text.split("\n").at(-1)).toBe("Recent events: none yet");
	});

	test("a malformed optional field left out is said on the file's line", () => {
		const { entry, editor } = live(7);
		const dropped = ["active_buffer.diagnostics left out: active_buffer.diagnostics must be array"];
		const text = formatStatus({ ...BASE, dirs: [trustedDir("/s", [{ entry: { ...entry, dropped }, editor }])] });
		expect(text).toContain("7.json: live nvim 7");
		expect(text).toContain("; active_buffer.diagnostics left out: active_buffer.diagnostics must be array");
		const { entry: withClient, editor: clientEditor } = live(8, {
			state: editorState({ pid: 8, client: "pi-ide-context-vscode/0.3.0" }),
		});
		const clientText = formatStatus({
			...BASE,
			dirs: [trustedDir("/s", [{ entry: withClient, editor: clientEditor }])],
		});
		expect(clientText).toContain(", client pi-ide-context-vscode/0.3.0");
	});

	test.each([
		[{ watchers: 1, timers: 1, runtimeWatches: 0 }, "Open in this process: 1 watcher(s), 1 liveness timer(s)"],
		[
			{ watchers: 1, timers: 1, runtimeWatches: 2 },
			"Open in this process: 1 watcher(s), 1 liveness timer(s), 2 Neovim runtime-dir watch(es)",
		],
		[
			{ watchers: 1, timers: 1, emacsWatches: 2 },
			"Open in this process: 1 watcher(s), 1 liveness timer(s), 2 Emacs server-dir watch(es)",
		],
	])("what is open in this process: %j", (resources, line) => {
		expect(
			formatStatus({ ...BASE, resources })
				.split("\n")
				.at(-1),
		).toBe(line);
	});

	test("background work that failed is said with how often, when last and why, after the events", () => {
		const text = formatStatus({
			...BASE,
			background: [
				{ task: "zed scan", count: 1, lastReason: "Error: /proc went away", lastAtSeconds: BASE.nowSeconds - 5 },
				{ task: "neovim push", count: 3, lastReason: "TypeError: \u001b[2Jx", lastAtSeconds: BASE.nowSeconds - 120 },
			],
		});
		const lines = text.split("\n");
		expect(lines.slice(lines.indexOf("Recent events: none yet") + 1)).toEqual([
			"Background zed scan failed once, last 5s ago: Error: /proc went away (pi-ide goes on; please report it)",
			"Background neovim push failed 3 times, last 2m ago: TypeError: x (pi-ide goes on; please report it)",
		]);
	});

	test("a live editor with no named buffer, and a connected editor whose latest write was rejected", () => {
		const noFile = live(3, {
			state: editorState({ pid: 3, buffer: { file: null, name: "[No File]", cursor: null, lines_total: 0 } }),
		});
		const text = formatStatus({
			...BASE,
			projectDir: "/home/dev/proj",
			connected: { why: "vscode 4: picked with /ide" },
			connectedRejection: "writable by group or others (mode 0666); chmod 600 it",
			dirs: [
				trustedDir("/s", [
					noFile,
					{ entry: { fileName: "4.json", rejection: "writable by group or others (mode 0666); chmod 600 it" } },
				]),
			],
		});
		expect(text.split("\n").slice(HEADER - 1)).toEqual([
			"Connected: vscode 4: picked with /ide; sending nothing: its latest write was rejected (writable by group or others (mode 0666); chmod 600 it)",
			"State dir /s (the protocol's dir): trusted, 2 state files",
			"  3.json: live nvim 3, tier 0 (cwd equals the project), cwd /home/dev/proj, no named buffer, no selection",
			"  4.json: rejected: writable by group or others (mode 0666); chmod 600 it",
			"Recent events: none yet",
		]);
	});

	test("each guard's state and the file that set it", () => {
		const text = formatStatus({
			...BASE,
			settings: resolveSettings(
				{ "pi-ide": { redactSecrets: false, guardUnsaved: false, secretFiles: ["*.secret.json", ".env"] } },
				{ "pi-ide": { guardUnsaved: true, secretFiles: ["prod/*.yaml"] } },
			),
			settingsFiles: { global: "/home/u/.pi/agent/settings.json", project: "/p/.pi/settings.json" },
			connectedSecret: { pattern: ".env", path: "/p/.env" },
		});
		expect(text.split("\n").slice(HEADER, HEADER + 5)).toEqual([
			"Context: auto (default)",
			`Secret files: ${DEFAULT_SECRET_FILE_PATTERNS.length + 2} patterns (${DEFAULT_SECRET_FILE_PATTERNS.length} default, 2 from /home/u/.pi/agent/settings.json, 1 from /p/.pi/settings.json); their selections are never sent`,
			"Credential redaction in selections: off (/home/u/.pi/agent/settings.json)",
			"Unsaved-buffer guard (write/edit): on (turned on in /p/.pi/settings.json; the global settings turn it off)",
			'Connected file is a secret file: /p/.env matches ".env"; no selection text is sent',
		]);
		expect(
			formatStatus({ ...BASE, settings: resolveSettings(undefined, undefined) })
				.split("\n")
				.slice(HEADER + 2, HEADER + 4),
		).toEqual(["Credential redaction in selections: on (default)", "Unsaved-buffer guard (write/edit): on (default)"]);
	});

	test("the context mode and the file that set it", () => {
		const files = { global: "/home/u/.pi/agent/settings.json", project: "/p/.pi/settings.json" };
		const mode = (global: unknown, project: unknown) =>
			formatStatus({ ...BASE, settings: resolveSettings(global, project), settingsFiles: files }).split("\n")[HEADER];
		expect(mode({ "pi-ide": { context: "explicit" } }, undefined)).toBe(
			"Context: explicit (/home/u/.pi/agent/settings.json): only code you reference with @file#L..., no ambient editor block",
		);
		expect(mode(undefined, { "pi-ide": { context: "auto" } })).toBe("Context: auto (/p/.pi/settings.json)");
	});

	test("an untrusted dir says why and how to fix it; paused auto-connect is explained", () => {
		const text = formatStatus({
			...BASE,
			suppressed: true,
			dirs: [
				{
					path: "/tmp/pi-ide",
					role: "protocol",
					verdict: { kind: "untrusted", reason: "/tmp/pi-ide has mode 0777; run: chmod 700 /tmp/pi-ide" },
					files: [],
				},
			],
		});
		expect(text.split("\n").slice(3, 6)).toEqual([
			"Auto-connect: paused by /ide off until you pick with /ide",
			"Connected: no",
			"State dir /tmp/pi-ide (the protocol's dir): NOT trusted: /tmp/pi-ide has mode 0777; run: chmod 700 /tmp/pi-ide",
		]);
	});

	test("thousands of stale files stay one screen", () => {
		const files = Array.from({ length: 5000 }, (_, i) => ({ entry: { fileName: `${i + 10}.json`, deadPid: i + 10 } }));
		const lines = formatStatus({ ...BASE, autoconnect: false, dirs: [trustedDir("/s", files)] }).split("\n");
		expect(lines).toHaveLength(HEADER + 1 + MAX_STATUS_FILES + 1 + 1);
		expect(lines[3]).toBe("Auto-connect: off (settings)");
		expect(lines.at(-2)).toBe(`  ... and ${5000 - MAX_STATUS_FILES} more (${5000 - MAX_STATUS_FILES} dead, 0 other)`);
	});

	test("rejection reasons, paths, variables and events cannot smuggle escapes", () => {
		const text = formatStatus({
			...BASE,
			environment: { uid: 1, XDG_RUNTIME_DIR: "/r\u001b[2J", TMPDIR: "\u202e/t" },
			dirs: [
				trustedDir("/s\u001b[2J", [{ entry: { fileName: "\u001b]0;x\u0007.json", rejection: "bad \u001b[31m" } }]),
			],
			events: ["12:00:00 connected to nvim\u001b[31m 1"],
		});
		expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
	});
});

describe("formatNoMatch", () => {
	test("names the cwd, every dir read with its verdict, and the editors elsewhere", () => {
		const elsewhere = [live(7, { state: editorState({ pid: 7, cwd: "/other/project" }) }).editor];
		const dirs: DirReport[] = [
			trustedDir("/run/user/1000/pi-ide", [live(7)]),
			{ path: "/tmp/pi-ide", role: "side", verdict: { kind: "missing" }, files: [] },
		];
		expect(formatNoMatch("/home/dev/proj", dirs, elsewhere)).toBe(
			[
				"No editor found for /home/dev/proj.",
				"Looked in:",
				"  State dir /run/user/1000/pi-ide (the protocol's dir): trusted, 1 state file",
				"  State dir /tmp/pi-ide (side dir, read but never created): not there; looked for every 2 s",
				"Editors running elsewhere:",
				"  nvim 7 in /other/project",
				"Use /ide all to pick one anyway.",
			].join("\n"),
		);
	});

	test("nothing running at all", () => {
		expect(formatNoMatch("/p", [trustedDir("/s")], [])).toBe(
			[
				"No editor found for /p.",
				"Looked in:",
				"  State dir /s (the protocol's dir): trusted, 0 state files",
				"No editor is running with a protocol v0.2 client.",
			].join("\n"),
		);
	});
});

describe("the VS Code client in /ide status", () => {
	test("pi in a VS Code terminal with no VS Code client's file: run /ide install vscode", () => {
		const hint =
			"VS Code: pi runs in a VS Code terminal, but no VS Code client has written a state file: run /ide install vscode";
		const inVscode = { ...BASE, environment: { ...ENV, TERM_PROGRAM: "vscode" } };
		expect(formatStatus(inVscode).split("\n")).toContain(hint);
		expect(formatStatus(BASE).split("\n")).not.toContain(hint);
		const { entry, editor } = live(9, { state: editorState({ pid: 9, app: "vscode" }) });
		const written = { ...inVscode, dirs: [trustedDir("/s", [{ entry, editor }])] };
		expect(formatStatus(written).split("\n")).not.toContain(hint);
	});

	test.each([
		["pi-ide-context-vscode/0.2.9", true],
		["pi-ide-context-vscode/0.3.0", true],
		["pi-ide-context-vscode/0.4.0", true],
		["pi-ide-context-vscode/0.5.0", true],
		["pi-ide-context-vscode/0.6.0", true],
		["pi-ide-context-vscode/0.7.0", false],
		["pi-ide-context-vscode/1.0.0", false],
		["someone-else/0.0.1", false],
	])("a client %s: update hint %s", (client, outdated) => {
		const { entry, editor } = live(9, { state: editorState({ pid: 9, app: "vscode", client }) });
		const text = formatStatus({ ...BASE, dirs: [trustedDir("/s", [{ entry, editor }])] });
		expect(text.includes("update with /ide install vscode")).toBe(outdated);
	});

	test("a client without the review channel (the state dir's channelMissing): said once, with the update", () => {
		const { entry, editor } = live(9, {
			state: editorState({ pid: 9, app: "vscode", client: "pi-ide-context-vscode/0.3.0" }),
		});
		const channelMissing = "client 0.3.0 has no review channel: update with /ide install vscode";
		const text = formatStatus({ ...BASE, dirs: [trustedDir("/s", [{ entry, editor, channelMissing }])] });
		expect(text).toContain(`, client pi-ide-context-vscode/0.3.0; ${channelMissing}`);
		expect(text.split("update with /ide install vscode")).toHaveLength(2);
	});
});
