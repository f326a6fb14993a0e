import { describe, expect, test } from "vitest";
import type { Editor, StateFileEntry } from "../../src/core/editor.ts";
import { DEFAULT_SECRET_FILE_PATTERNS } from "../../src/core/secret-files.ts";
import { resolveSettings } from "../../src/core/settings.ts";
import { formatNoMatch, formatStatus, MAX_STATUS_FILES } from "../../src/core/status-report.ts";
import { editorState, selection } from "../support/fixtures.ts";

const NOW = 1_800_000_000;
const BASE = {
	stateDir: "/s",
	trust: { ok: true } as const,
	projectDir: "/p",
	autoconnect: true,
	suppressed: false,
	entries: [],
	nowSeconds: NOW,
};

function live(pid: number, overrides: Partial<Editor> = {}): { entry: StateFileEntry; editor: Editor } {
	const editor: Editor = {
		key: `pid:${pid}`,
		pid,
		state: editorState({ pid, buffer: { selection: selection(1, 2, "x", NOW - 12) } }),
		paths: { cwd: "/home/dev/proj", argvDirs: [] },
		selectionFirstSeenSeconds: NOW,
		alive: true,
		tier: { tier: 0, evidence: "cwd equals the project" },
		...overrides,
	};
	return { entry: { fileName: `${pid}.json`, reading: editor }, editor };
}

describe("formatStatus", () => {
	test("every verdict with its reason, connection and trust", () => {
		const text = formatStatus({
			stateDir: "/run/user/1000/pi-ide",
			trust: { ok: true },
			projectDir: "/home/dev/proj",
			autoconnect: true,
			suppressed: false,
			connected: { why: "nvim 1: auto-connected: the only live editor in tier 0 (cwd equals the project)" },
			entries: [
				live(1),
				{ entry: { fileName: "0.json", rejection: "file name is not <pid>.json with a positive integer pid" } },
				{ entry: { fileName: "77.json", deadPid: 77 } },
				live(5, { alive: false }),
				live(6, {
					tier: { tier: undefined, evidence: "no cwd, file or launch arg in the project" },
					state: editorState({ pid: 6, cwd: "/elsewhere", buffer: { selection: selection(1, 1, "x", NOW - 90) } }),
				}),
			],
			nowSeconds: NOW,
		});
		expect(text).toBe(
			[
				"State dir: /run/user/1000/pi-ide (trusted)",
				"Project: /home/dev/proj",
				"Auto-connect: on",
				"Connected: nvim 1: auto-connected: the only live editor in tier 0 (cwd equals the project)",
				"State files: 5",
				"  1.json: live nvim 1, tier 0 (cwd equals the project), cwd /home/dev/proj, main.ts, selection fresh (12s old)",
				"  6.json: live nvim 6, no tier (no cwd, file or launch arg in the project), cwd /elsewhere, main.ts, selection stale (90s old)",
				"  0.json: rejected: file name is not <pid>.json with a positive integer pid",
				"  5.json: dead: pid 5 is not running",
				"  77.json: dead: pid 77 is not running (not read)",
			].join("\n"),
		);
	});

	test("a live editor with no named buffer, and a connected editor whose latest write was rejected", () => {
		const noFile = live(3, {
			state: editorState({ pid: 3, buffer: { file: null, name: "[No File]", cursor: null, lines_total: 0 } }),
		});
		const text = formatStatus({
			stateDir: "/s",
			trust: { ok: true },
			projectDir: "/home/dev/proj",
			autoconnect: true,
			suppressed: false,
			connected: { why: "vscode 4: picked with /ide" },
			connectedRejection: "writable by group or others (mode 0666); chmod 600 it",
			entries: [
				noFile,
				{ entry: { fileName: "4.json", rejection: "writable by group or others (mode 0666); chmod 600 it" } },
			],
			nowSeconds: NOW,
		});
		expect(text.split("\n")).toEqual([
			"State dir: /s (trusted)",
			"Project: /home/dev/proj",
			"Auto-connect: on",
			"Connected: vscode 4: picked with /ide; sending nothing: its latest write was rejected (writable by group or others (mode 0666); chmod 600 it)",
			"State files: 2",
			"  3.json: live nvim 3, tier 0 (cwd equals the project), cwd /home/dev/proj, no named buffer, no selection",
			"  4.json: rejected: writable by group or others (mode 0666); chmod 600 it",
		]);
	});

	test("each guard's state and the file that set it", () => {
		const text = formatStatus({
			stateDir: "/s",
			trust: { ok: true },
			projectDir: "/p",
			autoconnect: true,
			suppressed: false,
			entries: [],
			nowSeconds: NOW,
			settings: resolveSettings(
				{ "pi-ide": { redactSecrets: false, guardUnsaved: false, secretFiles: ["*.secret.json", ".env"] } },
				{ "pi-ide": { guardUnsaved: true, secretFiles: ["prod/*.yaml"] } },
			),
			settingsFiles: { global: "/home/u/.pi/agent/settings.json", project: "/p/.pi/settings.json" },
			connectedSecret: { pattern: ".env", path: "/p/.env" },
		});
		expect(text.split("\n").slice(4, 8)).toEqual([
			`Secret files: ${DEFAULT_SECRET_FILE_PATTERNS.length + 2} patterns (${DEFAULT_SECRET_FILE_PATTERNS.length} default, 2 from /home/u/.pi/agent/settings.json, 1 from /p/.pi/settings.json); their selections are never sent`,
			"Credential redaction in selections: off (/home/u/.pi/agent/settings.json)",
			"Unsaved-buffer guard (write/edit): on (turned on in /p/.pi/settings.json; the global settings turn it off)",
			'Connected file is a secret file: /p/.env matches ".env"; no selection text is sent',
		]);
		expect(
			formatStatus({ ...BASE, settings: resolveSettings(undefined, undefined) })
				.split("\n")
				.slice(5, 7),
		).toEqual(["Credential redaction in selections: on (default)", "Unsaved-buffer guard (write/edit): on (default)"]);
	});

	test("an untrusted dir says why and how to fix it; paused auto-connect is explained", () => {
		const text = formatStatus({
			stateDir: "/tmp/pi-ide",
			trust: { ok: false, reason: "/tmp/pi-ide has mode 0777; run: chmod 700 /tmp/pi-ide" },
			projectDir: "/p",
			autoconnect: true,
			suppressed: true,
			entries: [],
			nowSeconds: NOW,
		});
		expect(text.split("\n").slice(0, 4)).toEqual([
			"State dir: /tmp/pi-ide (NOT trusted: /tmp/pi-ide has mode 0777; run: chmod 700 /tmp/pi-ide)",
			"Project: /p",
			"Auto-connect: paused by /ide off until you pick with /ide",
			"Connected: no",
		]);
	});

	test("thousands of stale files stay one screen", () => {
		const entries = Array.from({ length: 5000 }, (_, i) => ({
			entry: { fileName: `${i + 10}.json`, deadPid: i + 10 },
		}));
		const lines = formatStatus({
			stateDir: "/s",
			trust: { ok: true },
			projectDir: "/p",
			autoconnect: false,
			suppressed: false,
			entries,
			nowSeconds: NOW,
		}).split("\n");
		expect(lines).toHaveLength(5 + MAX_STATUS_FILES + 1);
		expect(lines[2]).toBe("Auto-connect: off (settings)");
		expect(lines.at(-1)).toBe(`  ... and ${5000 - MAX_STATUS_FILES} more (${5000 - MAX_STATUS_FILES} dead, 0 other)`);
	});

	test("rejection reasons and paths cannot smuggle escapes", () => {
		const text = formatStatus({
			stateDir: "/s\u001b[2J",
			trust: { ok: true },
			projectDir: "/p",
			autoconnect: true,
			suppressed: false,
			entries: [{ entry: { fileName: "\u001b]0;x\u0007.json", rejection: "bad \u001b[31m" } }],
			nowSeconds: NOW,
		});
		expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
	});
});

describe("formatNoMatch", () => {
	test("names the cwd, the state dir and the editors elsewhere", () => {
		const elsewhere = [live(7, { state: editorState({ pid: 7, cwd: "/other/project" }) }).editor];
		expect(formatNoMatch("/home/dev/proj", "/run/user/1000/pi-ide", elsewhere)).toBe(
			[
				"No editor found for /home/dev/proj (state dir /run/user/1000/pi-ide).",
				"Editors running elsewhere:",
				"  nvim 7 in /other/project",
				"Use /ide all to pick one anyway.",
			].join("\n"),
		);
	});

	test("nothing running at all", () => {
		expect(formatNoMatch("/p", "/s", [])).toBe(
			"No editor found for /p (state dir /s).\nNo editor is running with a protocol v0.2 client.",
		);
	});
});
