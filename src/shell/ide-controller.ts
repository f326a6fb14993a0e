import { autoConnectTarget, bestTier, connectionEnd, promptGoneReason } from "../core/connection-rules.ts";
import type { Editor, EditorReading, StateFileEntry } from "../core/editor.ts";
import type { GoneReason } from "../core/editor-block.ts";
import { connectReason, noticeText } from "../core/notice-texts.ts";
import { scoreTier } from "../core/path-match.ts";
import { editorLabel } from "../core/picker-rows.ts";
import type { SecretFileMatch } from "../core/secret-files.ts";
import type { IdeSettings } from "../core/settings.ts";
import type { EditorState } from "../core/state-schema.ts";
import { formatStatus } from "../core/status-report.ts";
import type { EditorEvent } from "../events.ts";
import { EditorPresenter } from "./editor-presenter.ts";
import { realOrNormal } from "./path-evidence.ts";
import { SecretVerdicts } from "./secret-verdicts.ts";
import { type ConnectionMemory, resourceCount } from "./session-memory.ts";
import type { SettingsFiles } from "./settings-source.ts";
import { type NoticeLevel, StateDir } from "./state-dir.ts";

/** How often the pids we rely on are re-checked: an editor killed with -9 writes nothing more. */
export const LIVENESS_CHECK_MS = 500;
/** The dirs' own trust is re-checked every this many ticks (a thread-pool lstat each), so idle pi stays idle. */
const DIR_RECHECK_EVERY_TICKS = 4;
/** The prompt waits at most this long for a write that is being read right now. */
const PROMPT_FLUSH_TIMEOUT_MS = 250;

export type { NoticeLevel };

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

/** What the controller works from: where editors are read, for which project, with which settings. */
export interface ControllerConfig {
	stateDir: string;
	cwd: string;
	uid: number;
	memory: ConnectionMemory;
	settings: IdeSettings;
	/** Where the settings came from, for `/ide status`. */
	settingsFiles?: SettingsFiles;
	/** The clock, in unix seconds; tests move it to cross the freshness window without waiting. */
	nowSeconds?: () => number;
}

/** Where the controller's results go: pi's widget, pi's event bus, pi's notices. */
export interface ControllerOutputs {
	showWidget: (text: string | undefined) => void;
	announce?: (editor: EditorEvent | undefined) => void;
	notify: (message: string, level: NoticeLevel) => void;
}

/**
 * The connection policy over the editors its sources list: who is connected and why, what the widget shows,
 * what a prompt sees, what `/ide status` says. The sources own dirs, watchers and liveness.
 */
export class IdeController {
	private readonly stateDir: StateDir;
	private readonly presenter: EditorPresenter;
	private readonly secrets: SecretVerdicts;
	private readonly now: () => number;
	private projectDir: string;
	private tick?: NodeJS.Timeout;
	private ticks = 0;
	private reconcileQueued = false;
	private starting?: Promise<void>;
	private stopped = false;
	/** No connection decision before the first scan is complete: half a dir would make a tie look like one editor. */
	private scanned = false;
	/** `key:reason` pairs already told to the user: one notice per editor and reason. */
	private readonly noticedRejections = new Set<string>();

	constructor(
		private readonly config: ControllerConfig,
		private readonly outputs: ControllerOutputs,
	) {
		this.projectDir = config.cwd;
		this.now = config.nowSeconds ?? (() => Date.now() / 1000);
		this.secrets = new SecretVerdicts(config.settings.secretFiles.patterns);
		this.stateDir = new StateDir({
			dir: config.stateDir,
			uid: config.uid,
			create: true,
			nowSeconds: this.now,
			onChange: () => this.queueReconcile(),
			onSettled: (key) => this.noticeRejection(key),
			notify: outputs.notify,
		});
		this.presenter = new EditorPresenter(
			{
				showWidget: outputs.showWidget,
				announce: outputs.announce,
				nowSeconds: this.now,
				isSecret: (editor) => this.secretMatch(editor) !== undefined,
			},
			() => this.connectedEditor(),
		);
	}

	/** Idempotent: pi 0.73 in RPC mode can deliver `session_start` twice. */
	start(): Promise<void> {
		this.starting ??= this.startOnce();
		return this.starting;
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
		this.presenter.stop();
		await this.stateDir.close();
	}

	/** Every valid editor with its liveness and tier right now. */
	private editors(): Editor[] {
		return this.stateDir.editors().map((editor) => ({ ...editor, tier: scoreTier(editor.paths, this.projectDir) }));
	}

	liveEditors(): Editor[] {
		return this.editors().filter((editor) => editor.alive);
	}

	/** The live editors `/ide` offers: the best tier only, or all of them for `/ide all`. */
	pickable(all: boolean): Editor[] {
		const live = this.liveEditors();
		return all ? live : bestTier(live).editors;
	}

	/** The connected editor with a state pi can use now; undefined while its latest write is rejected. */
	connectedEditor(): Editor | undefined {
		const key = this.config.memory.connected?.key;
		return key === undefined ? undefined : this.liveEditors().find((editor) => editor.key === key);
	}

	connect(editor: Editor, why: string): void {
		const label = editorLabel(editor);
		this.config.memory.connected = { key: editor.key, label, why: `${label}: ${why}` };
		this.config.memory.suppressed = false;
		this.presenter.render();
	}

	disconnect(options: { pauseAutoConnect: boolean }): void {
		this.config.memory.connected = undefined;
		if (options.pauseAutoConnect) this.config.memory.suppressed = true;
		this.presenter.render();
	}

	/** Apply the connection rules to the current facts, then bring widget and expiry timer in line. */
	private reconcile(): void {
		if (this.stopped || !this.scanned) return;
		const memory = this.config.memory;
		const facts = memory.connected && this.stateDir.facts(memory.connected.key);
		if (memory.connected && (!facts || connectionEnd(facts))) {
			this.outputs.notify(noticeText.gone(memory.connected.label), "info");
			memory.connected = undefined;
		}
		if (!memory.connected && this.config.settings.autoconnect && !memory.suppressed && this.stateDir.trust.ok) {
			const target = autoConnectTarget(this.liveEditors());
			if (target) this.connect(target, connectReason.auto(target.tier));
		}
		this.presenter.render();
	}

	/**
	 * What the connected editor shows as a prompt starts: in-memory state, plus a short wait only when a write
	 * of its file is being read right now (the same wait guards the unsaved-buffer check).
	 */
	async connectedView(): Promise<ConnectedView> {
		await this.starting;
		const key = this.config.memory.connected?.key;
		if (key === undefined) return { kind: "gone", reason: "disconnected" };
		if (this.stateDir.isPending(key)) await withDeadline(this.stateDir.flush(key), PROMPT_FLUSH_TIMEOUT_MS);
		const facts = this.stateDir.facts(key);
		const gone = promptGoneReason(facts);
		if (gone === "disconnected") this.reconcile();
		if (gone || !facts?.reading) return { kind: "gone", reason: gone ?? "rejected" };
		return this.viewOf(facts.reading);
	}

	statusText(): string {
		const connected = this.connectedEditor();
		const byPid = new Map(this.editors().map((editor) => [editor.pid, editor]));
		const entries = this.stateDir.entries.map((entry: StateFileEntry) => ({
			entry,
			editor: entry.reading && byPid.get(entry.reading.pid),
		}));
		return formatStatus({
			stateDir: this.stateDir.dir,
			trust: this.stateDir.trust,
			projectDir: this.projectDir,
			autoconnect: this.config.settings.autoconnect,
			settings: this.config.settings,
			settingsFiles: this.config.settingsFiles,
			connectedSecret: connected && this.secretMatch(connected),
			suppressed: this.config.memory.suppressed,
			connected: this.config.memory.connected,
			connectedRejection: this.connectedRejection(),
			entries,
			nowSeconds: this.now(),
			resources: resourceCount(),
			watcherError: this.stateDir.problem,
		});
	}

	private secretMatch(editor: Pick<EditorReading, "state" | "paths">): SecretFileMatch | undefined {
		return this.secrets.of(editor);
	}

	/** Why the state dir is not read, or undefined while it is trusted. */
	get trustProblem(): string | undefined {
		const trust = this.stateDir.trust;
		return trust.ok ? undefined : trust.reason;
	}

	get settings(): IdeSettings {
		return this.config.settings;
	}

	get stateDirPath(): string {
		return this.stateDir.dir;
	}

	get project(): string {
		return this.projectDir;
	}

	private async startOnce(): Promise<void> {
		this.projectDir = await realOrNormal(this.config.cwd);
		await this.stateDir.start();
		this.tick = setInterval(() => this.onTick(), LIVENESS_CHECK_MS);
		this.tick.unref?.();
		resourceCount().timers++;
		this.scanned = true;
		this.reconcile();
	}

	private onTick(): void {
		if (this.stopped) return;
		if (this.stateDir.checkLiveness()) this.reconcile();
		if (++this.ticks % DIR_RECHECK_EVERY_TICKS === 0 || this.stateDir.lost) void this.stateDir.recheck();
	}

	private queueReconcile(): void {
		if (this.reconcileQueued) return;
		this.reconcileQueued = true;
		setImmediate(() => {
			this.reconcileQueued = false;
			this.reconcile();
		});
	}

	/** Why the connected editor's latest write was not used, while it is still running. */
	private connectedRejection(): string | undefined {
		const key = this.config.memory.connected?.key;
		const facts = key === undefined ? undefined : this.stateDir.facts(key);
		return facts && !facts.reading ? facts.rejection : undefined;
	}

	private noticeRejection(key: string): void {
		const connected = this.config.memory.connected;
		const facts = connected?.key === key ? this.stateDir.facts(key) : undefined;
		if (!connected || !facts || connectionEnd(facts) || facts.reading || facts.rejection === undefined) return;
		const noticed = `${key}:${facts.rejection}`;
		if (this.noticedRejections.has(noticed)) return;
		this.noticedRejections.add(noticed);
		this.outputs.notify(noticeText.rejectedWrite(connected.label, facts.rejection), "warning");
	}

	private viewOf(reading: EditorReading): ConnectedView {
		const secret = this.secretMatch(reading);
		return {
			kind: "editor",
			state: reading.state,
			selectionFirstSeenSeconds: reading.selectionFirstSeenSeconds,
			nowSeconds: this.now(),
			...(reading.paths.activeFile !== undefined && { realFile: reading.paths.activeFile }),
			...(secret && { secret }),
		};
	}
}

async function withDeadline(work: Promise<void>, deadlineMs: number): Promise<void> {
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<void>((done) => {
		timer = setTimeout(done, deadlineMs);
	});
	await Promise.race([work, deadline]);
	clearTimeout(timer);
}
