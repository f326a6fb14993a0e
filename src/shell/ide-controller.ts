import { mkdir } from "node:fs/promises";
import { autoConnectTarget, bestTier } from "../core/connection-rules.ts";
import { sanitizeForDisplay } from "../core/display-text.ts";
import type { GoneReason } from "../core/editor-block.ts";
import type { EditorFacts, StateEntry } from "../core/editor-entry.ts";
import { absoluteFile, freshSelection } from "../core/editor-view.ts";
import { checkDirTrust, type TrustVerdict } from "../core/file-trust.ts";
import { type EditorPaths, scoreTier } from "../core/path-match.ts";
import { editorLabel } from "../core/picker-rows.ts";
import { type SecretFileMatch, secretFileMatcher } from "../core/secret-files.ts";
import type { IdeSettings } from "../core/settings.ts";
import type { EditorState } from "../core/state-schema.ts";
import { formatStatus } from "../core/status-report.ts";
import { widgetText } from "../core/widget-line.ts";
import { lstatFacts } from "./fs-facts.ts";
import { isProcessAlive } from "./liveness.ts";
import { realOrNormal } from "./path-evidence.ts";
import { resourceCount } from "./resource-count.ts";
import type { ConnectionMemory } from "./session-memory.ts";
import type { SettingsFiles } from "./settings-source.ts";
import { StateWatcher } from "./state-watcher.ts";

/** How often the pids we rely on are re-checked: an editor killed with -9 writes nothing more. */
export const LIVENESS_CHECK_MS = 500;
/**
 * The dir's own trust (chmod, chown, replacement) is re-checked every this many ticks; its removal is an
 * event and is acted on at the next tick. Each check is a thread-pool lstat, so idle pi stays idle.
 */
const DIR_RECHECK_EVERY_TICKS = 4;
/** The prompt waits at most this long for a write that is being read right now. */
const PROMPT_FLUSH_TIMEOUT_MS = 250;

export type NoticeLevel = "info" | "warning" | "error";

/** The connected editor's state for a prompt, or why there is none. */
export type ConnectedView =
	| {
			kind: "editor";
			state: EditorState;
			selectionFirstSeenSeconds: number;
			nowSeconds: number;
			/** Real path of the active file. */
			realFile?: string;
			/** Set when the active file is a secret file: its selection text stays on the machine. */
			secret?: SecretFileMatch;
	  }
	| { kind: "gone"; reason: GoneReason };

const GONE: Record<GoneReason, ConnectedView> = {
	disconnected: { kind: "gone", reason: "disconnected" },
	"no-file": { kind: "gone", reason: "no-file" },
	rejected: { kind: "gone", reason: "rejected" },
};

export interface ConnectedEditorEvent {
	pid: number;
	app: string;
	file: string | undefined;
	timestamp: number;
	widget: string | undefined;
}

export interface ControllerPorts {
	stateDir: string;
	cwd: string;
	uid: number;
	memory: ConnectionMemory;
	settings: IdeSettings;
	/** Where the settings came from, for `/ide status`. */
	settingsFiles?: SettingsFiles;
	showWidget: (text: string | undefined) => void;
	/** Told whenever the connected editor or its state changes (pi's event bus, for other extensions and tests). */
	announce?: (editor: ConnectedEditorEvent | undefined) => void;
	notify: (message: string, level: NoticeLevel) => void;
	/** The clock, in unix seconds; tests move it to cross the freshness window without waiting. */
	nowSeconds?: () => number;
}

/**
 * The imperative shell around the pure rules: owns the watcher and timers, keeps liveness facts, applies
 * the connection rules whenever something changes and hands widget text and notices to pi.
 */
export class IdeController {
	private watcher?: StateWatcher;
	private trust: TrustVerdict = { ok: false, reason: "not started" };
	private projectDir: string;
	private watchedDirIno?: bigint;
	private readonly alive = new Map<number, boolean>();
	private tick?: NodeJS.Timeout;
	private freshnessTimer?: NodeJS.Timeout;
	private reconcileQueued = false;
	private starting?: Promise<void>;
	private stopped = false;
	/** No connection decision before the initial scan is complete: half a dir would make a tie look like one editor. */
	private scanned = false;
	private checkingDir = false;
	private ticks = 0;
	private lastWatcherError?: string;
	private lastAnnounced: { state?: EditorState; widget?: string } = {};
	/** `pid:reason` pairs already told to the user: one notice per editor and reason. */
	private readonly noticedRejections = new Set<string>();
	private readonly now: () => number;
	private readonly secretFile: (paths: readonly (string | undefined)[]) => SecretFileMatch | undefined;
	private readonly secretVerdicts = new WeakMap<EditorPaths, SecretFileMatch | null>();

	constructor(private readonly ports: ControllerPorts) {
		this.projectDir = ports.cwd;
		this.now = ports.nowSeconds ?? (() => Date.now() / 1000);
		this.secretFile = secretFileMatcher(ports.settings.secretFiles.patterns);
	}

	/**
	 * The secret-file pattern the editor's active file matches, by its reported path or its real path. The
	 * watcher keeps the same paths object while file and cwd are unchanged (most writes are cursor moves), so
	 * the verdict is worked out once per file, not per write or prompt.
	 */
	secretMatch(editor: Pick<EditorFacts, "state" | "paths">): SecretFileMatch | undefined {
		const known = this.secretVerdicts.get(editor.paths);
		if (known !== undefined) return known ?? undefined;
		const verdict = this.secretFile([absoluteFile(editor.state), editor.paths.activeFile]);
		this.secretVerdicts.set(editor.paths, verdict ?? null);
		return verdict;
	}

	/** Idempotent: pi 0.73 in RPC mode can deliver `session_start` twice. */
	start(): Promise<void> {
		this.starting ??= this.startOnce();
		return this.starting;
	}

	private async startOnce(): Promise<void> {
		this.projectDir = await realOrNormal(this.ports.cwd);
		await this.openStateDir();
		if (!this.trust.ok) this.ports.notify(`pi-ide: not reading editor state: ${this.trust.reason}`, "warning");
		this.tick = setInterval(() => this.onTick(), LIVENESS_CHECK_MS);
		this.tick.unref?.();
		resourceCount().timers++;
		this.scanned = true;
		this.reconcile();
	}

	/** Closes everything start opened; safe to call twice and before start finished. */
	async stop(): Promise<void> {
		if (this.stopped) return;
		this.stopped = true;
		await this.starting?.catch(() => {});
		if (this.tick) {
			clearInterval(this.tick);
			this.tick = undefined;
			resourceCount().timers--;
		}
		clearTimeout(this.freshnessTimer);
		await this.closeWatcher();
	}

	/** Never throws: whatever goes wrong becomes an untrusted dir with a reason, and pi carries on. */
	private async openStateDir(): Promise<void> {
		const dir = this.ports.stateDir;
		try {
			let { facts, ino } = await lstatFacts(dir);
			if (facts.kind === "missing") {
				// Create it so the watcher can start before any editor does.
				await mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => {});
				({ facts, ino } = await lstatFacts(dir));
			}
			this.trust = checkDirTrust(dir, facts, this.ports.uid);
			if (!this.trust.ok || this.stopped) return;
			const watcher = new StateWatcher({
				dir,
				uid: this.ports.uid,
				isAlive: (pid) => this.checkAlive(pid),
				nowSeconds: this.now,
				onChange: () => this.queueReconcile(),
				onSettled: (fileName) => this.noticeRejection(fileName),
				onError: (message) => this.reportWatcherError(message),
			});
			this.watcher = watcher;
			this.watchedDirIno = ino;
			resourceCount().watchers++;
			await watcher.start();
		} catch (error) {
			this.trust = { ok: false, reason: `cannot watch ${dir}: ${String(error)}` };
			await this.closeWatcher();
		}
	}

	/** Shown once per watcher (a vanished dir can make chokidar repeat itself), kept for `/ide status`. */
	private reportWatcherError(message: string): void {
		const first = this.lastWatcherError === undefined;
		this.lastWatcherError = message;
		if (first) this.ports.notify(`pi-ide: ${message}`, "warning");
	}

	private async closeWatcher(): Promise<void> {
		const watcher = this.watcher;
		this.watcher = undefined;
		this.watchedDirIno = undefined;
		this.lastWatcherError = undefined;
		if (!watcher) return;
		resourceCount().watchers--;
		await watcher.close();
	}

	private checkAlive(pid: number): boolean {
		const alive = isProcessAlive(pid);
		this.alive.set(pid, alive);
		return alive;
	}

	/** Liveness of the editors we rely on, and the state dir itself (removed, replaced or chmod-ed while pi runs). */
	private onTick(): void {
		if (this.stopped) return;
		let changed = false;
		// Only pids believed alive: a dead editor's file is looked at again when it is written.
		for (const [pid, alive] of this.alive) {
			if (alive && !this.checkAlive(pid)) changed = true;
		}
		if (changed) this.reconcile();
		if (++this.ticks % DIR_RECHECK_EVERY_TICKS === 0 || this.watcher?.lost) {
			this.forgetVanishedPids();
			void this.recheckStateDir();
		}
	}

	private forgetVanishedPids(): void {
		const entries = this.watcher?.entries;
		if (!entries || this.alive.size <= entries.size) return;
		const known = new Set<number>();
		for (const entry of entries.values()) {
			const pid = entry.valid?.pid ?? entry.deadPid;
			if (pid !== undefined) known.add(pid);
		}
		for (const pid of this.alive.keys()) if (!known.has(pid)) this.alive.delete(pid);
	}

	private async recheckStateDir(): Promise<void> {
		if (this.checkingDir || this.stopped) return;
		this.checkingDir = true;
		try {
			const { facts, ino } = await lstatFacts(this.ports.stateDir);
			const trust = checkDirTrust(this.ports.stateDir, facts, this.ports.uid);
			// Untrusted and still untrusted for the same reason: nothing to redo until something changes.
			const same = trust.ok
				? this.trust.ok && ino === this.watchedDirIno && !this.watcher?.lost
				: !this.trust.ok && trust.reason === this.trust.reason;
			if (same || this.stopped) return;
			await this.closeWatcher();
			if (this.stopped) return;
			const wasTrusted = this.trust.ok;
			await this.openStateDir();
			const now: TrustVerdict = this.trust;
			if (wasTrusted && !now.ok) this.ports.notify(`pi-ide: stopped reading editor state: ${now.reason}`, "warning");
			this.reconcile();
		} catch (error) {
			this.trust = { ok: false, reason: `cannot check ${this.ports.stateDir}: ${String(error)}` };
		} finally {
			this.checkingDir = false;
		}
	}

	private queueReconcile(): void {
		if (this.reconcileQueued) return;
		this.reconcileQueued = true;
		setImmediate(() => {
			this.reconcileQueued = false;
			this.reconcile();
		});
	}

	/** Every valid editor with its liveness and tier right now. */
	editors(): EditorFacts[] {
		const editors: EditorFacts[] = [];
		for (const entry of this.watcher?.entries.values() ?? []) {
			if (!entry.valid) continue;
			editors.push({
				...entry.valid,
				alive: this.alive.get(entry.valid.pid) ?? this.checkAlive(entry.valid.pid),
				tier: scoreTier(entry.valid.paths, this.projectDir),
			});
		}
		return editors;
	}

	liveEditors(): EditorFacts[] {
		return this.editors().filter((editor) => editor.alive);
	}

	/** The live editors `/ide` offers: the best tier only, or all of them for `/ide all`. */
	pickable(all: boolean): EditorFacts[] {
		const live = this.liveEditors();
		return all ? live : bestTier(live).editors;
	}

	/** The connected editor with a state pi can use now; undefined while its latest write is rejected. */
	connectedEditor(): EditorFacts | undefined {
		const pid = this.ports.memory.connected?.pid;
		return pid === undefined ? undefined : this.liveEditors().find((editor) => editor.pid === pid);
	}

	/** Why the connected editor's latest write was not used, while it is still running. */
	connectedRejection(): string | undefined {
		const pid = this.ports.memory.connected?.pid;
		const entry = pid === undefined ? undefined : this.watcher?.entries.get(`${pid}.json`);
		return entry && !entry.valid ? entry.rejection : undefined;
	}

	/**
	 * A connection ends when its editor dies or removes its file. A rejected write does not end it: the
	 * editor is still there, pi just does not know what it shows until its next valid write.
	 */
	private connectionGone(pid: number): boolean {
		const entry = this.watcher?.entries.get(`${pid}.json`);
		return entry === undefined || entry.deadPid !== undefined || !(this.alive.get(pid) ?? this.checkAlive(pid));
	}

	/** Apply the connection rules to the current facts, then bring widget and expiry timer in line. */
	reconcile(): void {
		if (this.stopped || !this.scanned) return;
		const memory = this.ports.memory;
		if (memory.connected && this.connectionGone(memory.connected.pid)) {
			this.ports.notify(`pi-ide: ${memory.connected.label} is gone; disconnected`, "info");
			memory.connected = undefined;
		}
		const live = this.liveEditors();
		if (!memory.connected && this.ports.settings.autoconnect && !memory.suppressed && this.trust.ok) {
			const target = autoConnectTarget(live);
			if (target)
				this.connect(
					target,
					`auto-connected: the only live editor in tier ${target.tier.tier} (${target.tier.evidence})`,
				);
		}
		this.render();
	}

	private noticeRejection(fileName: string): void {
		const connected = this.ports.memory.connected;
		if (!connected || fileName !== `${connected.pid}.json` || this.connectionGone(connected.pid)) return;
		const reason = this.connectedRejection();
		if (reason === undefined) return;
		const key = `${connected.pid}:${reason}`;
		if (this.noticedRejections.has(key)) return;
		this.noticedRejections.add(key);
		this.ports.notify(
			`pi-ide: ${connected.label} wrote a state pi cannot use (${sanitizeForDisplay(reason)}); no editor context until its next valid write`,
			"warning",
		);
	}

	connect(editor: EditorFacts, why: string): void {
		const label = editorLabel(editor);
		this.ports.memory.connected = { pid: editor.pid, label, why: `${label}: ${why}` };
		this.ports.memory.suppressed = false;
		this.render();
	}

	disconnect(suppressAutoconnect: boolean): void {
		this.ports.memory.connected = undefined;
		if (suppressAutoconnect) this.ports.memory.suppressed = true;
		this.render();
	}

	private render(): void {
		clearTimeout(this.freshnessTimer);
		this.freshnessTimer = undefined;
		const editor = this.connectedEditor();
		const now = this.now();
		const widget = editor
			? widgetText(editor.state, editor.selectionFirstSeenSeconds, now, this.secretMatch(editor) !== undefined)
			: undefined;
		this.ports.showWidget(widget);
		this.announceEditor(editor, widget);
		const fresh = editor && freshSelection(editor.state, editor.selectionFirstSeenSeconds, now);
		if (fresh) {
			// Flip the widget at the exact moment the selection turns stale, with no editor write to wake us.
			const delayMs = Math.max(0, (fresh.freshness.staleAtSeconds - now) * 1000) + 1;
			this.freshnessTimer = setTimeout(() => this.render(), delayMs);
			this.freshnessTimer.unref?.();
		}
	}

	private announceEditor(editor: EditorFacts | undefined, widget: string | undefined): void {
		if (editor?.state === this.lastAnnounced.state && widget === this.lastAnnounced.widget) return;
		this.lastAnnounced = { state: editor?.state, widget };
		this.ports.announce?.(
			editor && {
				pid: editor.pid,
				app: sanitizeForDisplay(editor.state.app),
				file: absoluteFile(editor.state),
				timestamp: editor.state.timestamp,
				widget,
			},
		);
	}

	/**
	 * What the connected editor shows as a prompt starts: in-memory state, plus a short wait only when a write
	 * of its file is being read right now (the same wait guards the unsaved-buffer check).
	 */
	async connectedView(): Promise<ConnectedView> {
		await this.starting;
		const pid = this.ports.memory.connected?.pid;
		if (pid === undefined || !this.watcher) return GONE.disconnected;
		const fileName = `${pid}.json`;
		if (this.watcher.isPending(fileName)) {
			let timer: NodeJS.Timeout | undefined;
			const timeout = new Promise<void>((done) => {
				timer = setTimeout(done, PROMPT_FLUSH_TIMEOUT_MS);
			});
			await Promise.race([this.watcher.flush(fileName), timeout]);
			clearTimeout(timer);
		}
		if (!this.checkAlive(pid)) {
			this.reconcile();
			return GONE.disconnected;
		}
		const entry = this.watcher?.entries.get(fileName);
		if (!entry || entry.deadPid !== undefined) return GONE.disconnected;
		if (!entry.valid) return GONE.rejected;
		if (absoluteFile(entry.valid.state) === undefined) return GONE["no-file"];
		const secret = this.secretMatch(entry.valid);
		return {
			kind: "editor",
			state: entry.valid.state,
			selectionFirstSeenSeconds: entry.valid.selectionFirstSeenSeconds,
			nowSeconds: this.now(),
			...(entry.valid.paths.activeFile !== undefined && { realFile: entry.valid.paths.activeFile }),
			...(secret && { secret }),
		};
	}

	statusText(): string {
		const connected = this.connectedEditor();
		const facts = new Map(this.editors().map((editor) => [editor.pid, editor]));
		const entries: { entry: StateEntry; facts?: EditorFacts }[] = [...(this.watcher?.entries.values() ?? [])].map(
			(entry) => ({ entry, facts: entry.valid && facts.get(entry.valid.pid) }),
		);
		return formatStatus({
			stateDir: this.ports.stateDir,
			trust: this.trust,
			projectDir: this.projectDir,
			autoconnect: this.ports.settings.autoconnect,
			settings: this.ports.settings,
			settingsFiles: this.ports.settingsFiles,
			connectedSecret: connected && this.secretMatch(connected),
			suppressed: this.ports.memory.suppressed,
			connected: this.ports.memory.connected,
			connectedRejection: this.connectedRejection(),
			entries,
			nowSeconds: this.now(),
			resources: resourceCount(),
			watcherError: this.lastWatcherError,
		});
	}

	/** Why the state dir is not read, or undefined while it is trusted. */
	get trustProblem(): string | undefined {
		return this.trust.ok ? undefined : this.trust.reason;
	}

	get settings(): IdeSettings {
		return this.ports.settings;
	}

	get stateDirPath(): string {
		return this.ports.stateDir;
	}

	get project(): string {
		return this.projectDir;
	}
}
