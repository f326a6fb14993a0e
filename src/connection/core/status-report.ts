import { VSCODE_APPS, vscodeClientOutdated } from "../../editors/core/clients.ts";
import type { Editor, StateFileEntry } from "../../editors/core/editor.ts";
import { selectionFreshness } from "../../editors/core/freshness.ts";
import { DIR_ROLE_TEXT, type DirRole, type DirVerdict } from "../../editors/state-dir/core/dir-plan.ts";
import {
	DEFAULT_SECRET_FILE_PATTERNS,
	type SecretFileMatch,
	secretFilePatterns,
} from "../../safety/core/secret-files.ts";
import type { GuardSetting, IdeSettings } from "../../settings/core/settings.ts";
import { settingsProblemLine } from "../../settings/core/settings-file.ts";
import type { BackgroundFailure } from "../../shared/core/background-failure.ts";
import { editorLabel, formatAgo, show } from "../../shared/core/display-text.ts";
import { SIDE_DIR_LOOK_SECONDS } from "../../shared/core/timing.ts";

/** `/ide status` lists this many files per dir; the rest are counted, so 5 000 stale files stay one screen. */
export const MAX_STATUS_FILES = 40;

/** The variables that decide where pi looks, and whose files it trusts. */
export interface StatusEnvironment {
	uid: number;
	XDG_RUNTIME_DIR?: string;
	TMPDIR?: string;
	PI_IDE_STATE_DIR?: string;
	/** `vscode` when pi runs in a VS Code terminal: a VS Code with no client is worth a hint. */
	TERM_PROGRAM?: string;
}

/** One dir read or looked for: its verdict and what it holds. */
export interface DirReport {
	path: string;
	role: DirRole;
	verdict: DirVerdict;
	watcherError?: string;
	files: readonly {
		entry: StateFileEntry;
		editor?: Editor;
		reusedPid?: number;
		startAsked?: number;
		channelMissing?: string;
		/** This package's VS Code client's inline completions (offered, why not). */
		suggestions?: string;
	}[];
}

export interface StatusInput {
	environment: StatusEnvironment;
	dirs: readonly DirReport[];
	/** Other sources' sections (Zed, Neovim), already worded. */
	sources?: readonly string[];
	projectDir: string;
	autoconnect: boolean;
	suppressed: boolean;
	connected?: { why: string };
	/** The connected editor's latest write was rejected: connected, but nothing is sent. */
	connectedRejection?: string;
	nowSeconds: number;
	/** Watchers and liveness timers open in this pi process (all sessions); one timer while one session runs. */
	resources?: {
		watchers: number;
		timers: number;
		runtimeWatches?: number;
		lockWatches?: number;
		emacsWatches?: number;
	};
	/** This pi process's recent events, oldest first, each starting with its time. */
	events?: readonly string[];
	/** Background work of this pi process that failed (a scan, a read, a callback): recorded, not fatal. */
	background?: readonly BackgroundFailure[];
	settings?: IdeSettings;
	/** Shown as where each setting came from. */
	settingsFiles?: { global: string; project: string };
	/** The connected editor's file is a secret file. */
	connectedSecret?: SecretFileMatch;
}

function guardText(guard: GuardSetting, files: StatusInput["settingsFiles"]): string {
	const where = (source: "global" | "project") => (files ? show(files[source], 200) : `${source} settings`);
	if (guard.source === "default") return "on (default)";
	if (guard.source === "project") return `on (turned on in ${where("project")}; the global settings turn it off)`;
	return `${guard.on ? "on" : "off"} (${where("global")})`;
}

function settingsLines(input: StatusInput): string[] {
	const settings = input.settings;
	if (!settings) return [];
	const { secretFiles } = settings;
	const files = input.settingsFiles;
	const from = [`${DEFAULT_SECRET_FILE_PATTERNS.length} default`];
	if (secretFiles.global.length > 0)
		from.push(`${secretFiles.global.length} from ${files ? show(files.global, 200) : "global settings"}`);
	if (secretFiles.project.length > 0)
		from.push(`${secretFiles.project.length} from ${files ? show(files.project, 200) : "project settings"}`);
	const context = settings.context;
	const contextFrom =
		context.source === "default" ? "default" : files ? show(files[context.source], 200) : `${context.source} settings`;
	const lines = [
		`Context: ${context.mode} (${contextFrom})${context.mode === "explicit" ? ": only code you reference with @file#L..., no ambient editor block" : ""}`,
		`Secret files: ${secretFilePatterns(secretFiles).length} patterns (${from.join(", ")}); their selections are never sent`,
		`Credential redaction in selections: ${guardText(settings.redactSecrets, files)}`,
		`Unsaved-buffer guard (write/edit): ${guardText(settings.guardUnsaved, files)}`,
		...settings.problems.map(settingsProblemLine),
	];
	if (input.connectedSecret) {
		const { path, pattern } = input.connectedSecret;
		lines.push(
			`Connected file is a secret file: ${show(path, 200)} matches "${show(pattern, 80)}"; no selection text is sent`,
		);
	}
	return lines;
}

function describeEntry(
	{ entry, editor: facts, reusedPid, startAsked, channelMissing, suggestions }: DirReport["files"][number],
	nowSeconds: number,
): { rank: number; text: string } {
	const name = show(entry.fileName, 40);
	if (startAsked !== undefined)
		return { rank: 1, text: `${name}: waiting: when pid ${startAsked} started is being asked of ps (a reused pid?)` };
	if (reusedPid !== undefined)
		return {
			rank: 2,
			text: `${name}: dead: pid ${reusedPid} now belongs to a process started after this file was written`,
		};
	if (!facts && entry.deadPid !== undefined)
		return { rank: 2, text: `${name}: dead: pid ${entry.deadPid} is not running (not read)` };
	if (!facts) return { rank: 1, text: `${name}: rejected: ${show(entry.rejection ?? "unknown reason")}` };
	if (!facts.alive) return { rank: 2, text: `${name}: dead: pid ${facts.pid} is not running` };
	const tier = facts.match.tier === undefined ? "no tier" : `tier ${facts.match.tier}`;
	const buffer = facts.state.active_buffer;
	const file = buffer?.file ? show(buffer.name, 40) : "no named buffer";
	const freshness = selectionFreshness(buffer?.selection, facts.selectionFirstSeenSeconds, nowSeconds);
	const selection =
		freshness.kind === "fresh"
			? `selection fresh (${Math.floor(freshness.ageSeconds)}s old)`
			: freshness.kind === "stale"
				? `selection stale (${Math.floor(freshness.ageSeconds)}s old)`
				: freshness.kind === "unknown"
					? "selection stale (no selected_at)"
					: "no selection";
	const dropped = entry.dropped?.length ? `; ${entry.dropped.map((reason) => show(reason)).join("; ")}` : "";
	// A client without the review channel says so, update hint included; an older one with it says only its age.
	const older = vscodeClientOutdated(facts.state.client) && channelMissing === undefined;
	const client = facts.state.client
		? `, client ${show(facts.state.client, 60)}${older ? " (older than this package's: update with /ide install vscode)" : ""}`
		: "";
	const channel = [channelMissing, suggestions]
		.map((note) => (note === undefined ? "" : `; ${show(note, 300)}`))
		.join("");
	return {
		rank: 0,
		text: `${name}: live ${editorLabel(facts)}, ${tier} (${show(facts.match.evidence)}), cwd ${show(facts.state.cwd, 80)}, ${file}, ${selection}${client}${channel}${dropped}`,
	};
}

function connectedLine(input: StatusInput): string {
	if (!input.connected) return "no";
	const why = show(input.connected.why, 200);
	return input.connectedRejection === undefined
		? why
		: `${why}; sending nothing: its latest write was rejected (${show(input.connectedRejection)})`;
}

const envValue = (name: string, value: string | undefined) =>
	value === undefined ? `${name} not set` : `${name}=${show(value, 120)}`;

function environmentLine({ uid, XDG_RUNTIME_DIR, TMPDIR, PI_IDE_STATE_DIR }: StatusEnvironment): string {
	const vars = [envValue("XDG_RUNTIME_DIR", XDG_RUNTIME_DIR), envValue("TMPDIR", TMPDIR)];
	return `Environment: ${vars.join(", ")}, uid ${uid}, ${envValue("PI_IDE_STATE_DIR", PI_IDE_STATE_DIR)}`;
}

/** `State dir /run/user/1000/pi-ide (the protocol's dir): trusted, 2 state files`. */
export function dirLine(dir: Pick<DirReport, "path" | "role" | "verdict" | "files">): string {
	const head = `State dir ${show(dir.path, 200)} (${DIR_ROLE_TEXT[dir.role]})`;
	const { verdict } = dir;
	if (verdict.kind === "missing") return `${head}: not there; looked for every ${SIDE_DIR_LOOK_SECONDS} s`;
	if (verdict.kind === "untrusted") return `${head}: NOT trusted: ${show(verdict.reason, 200)}`;
	return `${head}: trusted, ${dir.files.length} state ${dir.files.length === 1 ? "file" : "files"}`;
}

function dirLines(dir: DirReport, nowSeconds: number): string[] {
	const lines = [dirLine(dir)];
	if (dir.watcherError) lines.push(`  Watcher: ${show(dir.watcherError, 200)}`);
	const described = dir.files
		.map((file) => describeEntry(file, nowSeconds))
		.sort((a, b) => a.rank - b.rank || a.text.localeCompare(b.text));
	for (const row of described.slice(0, MAX_STATUS_FILES)) lines.push(`  ${row.text}`);
	const hidden = described.slice(MAX_STATUS_FILES);
	if (hidden.length > 0) {
		const dead = hidden.filter((row) => row.rank === 2).length;
		lines.push(`  ... and ${hidden.length} more (${dead} dead, ${hidden.length - dead} other)`);
	}
	return lines;
}

/** `/ide status`: the doctor. Where pi looks and why, what each file is, what is connected, what happened. */
export function formatStatus(input: StatusInput): string {
	const lines = [
		"pi-ide status",
		environmentLine(input.environment),
		`Project: ${show(input.projectDir, 200)}`,
		`Auto-connect: ${!input.autoconnect ? "off (settings)" : input.suppressed ? "paused by /ide off until you pick with /ide" : "on"}`,
		`Connected: ${connectedLine(input)}`,
		...settingsLines(input),
		...input.dirs.flatMap((dir) => dirLines(dir, input.nowSeconds)),
		...vscodeHint(input),
		...(input.sources ?? []),
	];
	const events = input.events ?? [];
	lines.push(events.length === 0 ? "Recent events: none yet" : "Recent events:");
	for (const event of events) lines.push(`  ${show(event, 240)}`);
	for (const failure of input.background ?? [])
		lines.push(
			`Background ${show(failure.task, 40)} failed ${failure.count === 1 ? "once" : `${failure.count} times`}, last ${formatAgo(Math.max(0, input.nowSeconds - failure.lastAtSeconds))}: ${show(failure.lastReason, 240)} (pi-ide goes on; please report it)`,
		);
	if (input.resources) {
		lines.push(
			`Open in this process: ${input.resources.watchers} watcher(s), ${input.resources.timers} liveness timer(s)${
				input.resources.runtimeWatches ? `, ${input.resources.runtimeWatches} Neovim runtime-dir watch(es)` : ""
			}${input.resources.lockWatches ? `, ${input.resources.lockWatches} IDE lock-dir watch(es)` : ""}${
				input.resources.emacsWatches ? `, ${input.resources.emacsWatches} Emacs server-dir watch(es)` : ""
			}`,
		);
	}
	return lines.join("\n");
}

/** pi runs in a VS Code terminal, and no VS Code client has written a state file: the fix, in one line. */
function vscodeHint(input: StatusInput): string[] {
	if (input.environment.TERM_PROGRAM !== "vscode") return [];
	const written = input.dirs.some((dir) =>
		dir.files.some(({ editor }) => editor !== undefined && VSCODE_APPS.has(editor.state.app)),
	);
	return written
		? []
		: [
				"VS Code: pi runs in a VS Code terminal, but no VS Code client has written a state file: run /ide install vscode",
			];
}

/** Said when `/ide` finds nothing for this project: every dir it read and what runs elsewhere. */
export function formatNoMatch(
	projectDir: string,
	dirs: readonly Pick<DirReport, "path" | "role" | "verdict" | "files">[],
	elsewhere: readonly Editor[],
	sourceHeadlines: readonly string[] = [],
): string {
	const lines = [`No editor found for ${show(projectDir, 200)}.`, "Looked in:"];
	for (const dir of dirs) lines.push(`  ${dirLine(dir)}`);
	for (const headline of sourceHeadlines) lines.push(`  ${headline}`);
	if (elsewhere.length === 0) {
		lines.push("No editor is running with a protocol v0.2 client.");
	} else {
		lines.push("Editors running elsewhere:");
		for (const editor of elsewhere.slice(0, 10))
			lines.push(`  ${editorLabel(editor)} in ${show(editor.state.cwd, 100)}`);
		if (elsewhere.length > 10) lines.push(`  ... and ${elsewhere.length - 10} more`);
		lines.push("Use /ide all to pick one anyway.");
	}
	return lines.join("\n");
}
