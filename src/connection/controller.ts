import type { ConnectedView, Editor, EditorReading } from "../editors/core/editor.ts";
import { scoreTier } from "../editors/core/tiers.ts";
import { EditorList } from "../editors/merged-sources.ts";
import { realOrNormal } from "../editors/real-paths.ts";
import type { DirPlan } from "../editors/state-dir/core/dir-plan.ts";
import { type NoticeLevel, StateDir } from "../editors/state-dir/state-dir.ts";
import { zedNoMatchLine, zedStatusLines } from "../editors/zed/core/status.ts";
import { ZedSource, type ZedSourceOptions } from "../editors/zed/source.ts";
import type { EditorEvent } from "../events.ts";
import { SecretVerdicts } from "../safety/secret-verdicts.ts";
import type { IdeSettings } from "../settings/core/settings.ts";
import type { SettingsFiles } from "../settings/settings-files.ts";
import { connectReason, noticeText } from "../shared/core/notice-texts.ts";
import { type ConnectionMemory, recentEvents, resourceCount } from "../shared/process-memory.ts";
import { editorLabel } from "../ui/core/picker-rows.ts";
import { appendEvent, eventLine, type IdeEvent } from "./core/event-log.ts";
import { autoConnectTarget, bestTier, connectionEnd, promptGoneReason } from "./core/rules.ts";
import { type DirReport, formatStatus, type StatusEnvironment } from "./core/status-report.ts";
import { EditorPresenter } from "./presenter.ts";

/** How often the pids we rely on are re-checked: an editor killed with -9 writes nothing more. */
export const LIVENESS_CHECK_MS = 500;
/** The prompt waits at most this long for a write that is being read right now. */
const PROMPT_FLUSH_TIMEOUT_MS = 250;

export type { NoticeLevel };

/** What the controller works from: where editors are read, for which project, with which settings. */
export interface ControllerConfig {
	/** The dirs to read, the protocol's (or `PI_IDE_STATE_DIR`) first. */
	stateDirs: readonly DirPlan[];
	cwd: string;
	uid: number;
	/** The environment `/ide status` reports (which variables decided where pi looks). */
	environment?: Omit<StatusEnvironment, "uid">;
	memory: ConnectionMemory;
	settings: IdeSettings;
	/** Where the settings came from, for `/ide status`. */
	settingsFiles?: SettingsFiles;
	/** The clock, in unix seconds; tests move it to cross the freshness window without waiting. */
	nowSeconds?: () => number;
	/** Where Zed's database is looked for, and whether to (no Zed source without it). */
	zed?: Omit<ZedSourceOptions, "nowSeconds" | "onChange" | "onEvent">;
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
	private readonly dirs: StateDir[];
	private readonly zed?: ZedSource;
	private readonly sources: EditorList;
	private readonly presenter: EditorPresenter;
	private readonly secrets: SecretVerdicts;
	private readonly now: () => number;
	private projectDir: string;
	private tick?: NodeJS.Timeout;
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
		// What every source reports back to the controller.
		const hooks = {
			nowSeconds: this.now,
			onChange: () => this.queueReconcile(),
			onEvent: (event: IdeEvent) => this.record(event),
		};
		this.dirs = config.stateDirs.map(
			(plan) =>
				new StateDir({
					...hooks,
					plan,
					uid: config.uid,
					onSettled: (key) => this.noticeRejection(key),
					notify: outputs.notify,
				}),
		);
		this.zed = config.zed && new ZedSource({ ...config.zed, ...hooks });
		this.sources = new EditorList([...this.dirs, ...(this.zed ? [this.zed] : [])]);
		this.presenter = new EditorPresenter(
			{
				showWidget: outputs.showWidget,
				announce: outputs.announce,
				nowSeconds: this.now,
				isSecret: (editor) => this.secrets.of(editor) !== undefined,
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
		await this.sources.close();
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
		this.record({ kind: "connected", label, why });
		this.presenter.render();
	}

	disconnect(options: { pauseAutoConnect: boolean }): void {
		const connected = this.config.memory.connected;
		if (connected) this.record({ kind: "disconnected", label: connected.label, why: "ide-off" });
		this.config.memory.connected = undefined;
		if (options.pauseAutoConnect) this.config.memory.suppressed = true;
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
		await this.sources.settle(key, PROMPT_FLUSH_TIMEOUT_MS);
		const facts = this.sources.facts(key);
		const gone = promptGoneReason(facts);
		if (gone === "disconnected") this.reconcile();
		if (gone || !facts?.reading) return { kind: "gone", reason: gone ?? "rejected" };
		return this.viewOf(facts.reading);
	}

	statusText(): string {
		const connected = this.connectedEditor();
		const key = this.config.memory.connected?.key;
		const facts = key === undefined ? undefined : this.sources.facts(key);
		return formatStatus({
			environment: { ...this.config.environment, uid: this.config.uid },
			dirs: this.dirReports(),
			zed: this.zed ? zedStatusLines(this.zed.report(), this.now(), this.projectDir) : [],
			projectDir: this.projectDir,
			autoconnect: this.config.settings.autoconnect,
			settings: this.config.settings,
			settingsFiles: this.config.settingsFiles,
			connectedSecret: connected && this.secrets.of(connected),
			suppressed: this.config.memory.suppressed,
			connected: this.config.memory.connected,
			connectedRejection: facts && !facts.reading ? facts.rejection : undefined,
			nowSeconds: this.now(),
			resources: resourceCount(),
			events: recentEvents(),
		});
	}

	/** Every dir read or looked for, with its verdict: what `/ide` names when it finds nothing. */
	dirReports(): DirReport[] {
		return this.dirs.map((dir) => ({
			path: dir.dir,
			role: dir.role,
			verdict: dir.verdict,
			watcherError: dir.problem,
			files: dir.files().map(({ entry, editor, reusedPid }) => ({
				entry,
				...(editor && { editor: this.withTier(editor) }),
				...(reusedPid !== undefined && { reusedPid }),
			})),
		}));
	}

	/** Zed's line in what `/ide` says when it finds nothing, when there is a Zed database. */
	zedNoMatchLine(): string | undefined {
		const report = this.zed?.report();
		return report && zedNoMatchLine(report);
	}

	get settings(): IdeSettings {
		return this.config.settings;
	}

	get project(): string {
		return this.projectDir;
	}

	private async startOnce(): Promise<void> {
		this.projectDir = await realOrNormal(this.config.cwd);
		await this.sources.start();
		this.tick = setInterval(() => this.onTick(), LIVENESS_CHECK_MS);
		this.tick.unref?.();
		resourceCount().timers++;
		this.scanned = true;
		this.reconcile();
	}

	private onTick(): void {
		if (this.stopped) return;
		if (this.sources.checkLiveness()) this.reconcile();
		void this.sources.recheck();
	}

	/** Every valid editor with its liveness and tier right now. */
	private editors(): Editor[] {
		return this.sources.editors().map((editor) => this.withTier(editor));
	}

	private withTier(editor: Omit<Editor, "tier">): Editor {
		return { ...editor, tier: scoreTier(editor.paths, this.projectDir) };
	}

	private queueReconcile(): void {
		if (this.reconcileQueued) return;
		this.reconcileQueued = true;
		setImmediate(() => {
			this.reconcileQueued = false;
			this.reconcile();
		});
	}

	/** Apply the connection rules to the current facts, then bring widget and expiry timer in line. */
	private reconcile(): void {
		if (this.stopped || !this.scanned) return;
		const memory = this.config.memory;
		if (memory.connected) {
			const facts = this.sources.facts(memory.connected.key);
			const end = facts ? connectionEnd(facts) : "file-removed";
			if (end) {
				this.outputs.notify(noticeText.gone(memory.connected.label), "info");
				this.record({ kind: "disconnected", label: memory.connected.label, why: end });
				memory.connected = undefined;
			}
		}
		if (!memory.connected && this.config.settings.autoconnect && !memory.suppressed) {
			const target = autoConnectTarget(this.liveEditors());
			if (target) this.connect(target, connectReason.auto(target.tier));
		}
		this.presenter.render();
	}

	private noticeRejection(key: string): void {
		const connected = this.config.memory.connected;
		const facts = connected?.key === key ? this.sources.facts(key) : undefined;
		if (!connected || !facts || connectionEnd(facts) || facts.reading || facts.rejection === undefined) return;
		const noticed = `${key}:${facts.rejection}`;
		if (this.noticedRejections.has(noticed)) return;
		this.noticedRejections.add(noticed);
		this.record({ kind: "rejected", label: connected.label, reason: facts.rejection });
		this.outputs.notify(noticeText.rejectedWrite(connected.label, facts.rejection), "warning");
	}

	private record(event: IdeEvent): void {
		const log = recentEvents();
		const clock = new Date(this.now() * 1000).toTimeString().slice(0, 8);
		log.splice(0, log.length, ...appendEvent(log, eventLine(clock, event)));
	}

	private viewOf(reading: EditorReading): ConnectedView {
		const secret = this.secrets.of(reading);
		return {
			kind: "editor",
			state: reading.state,
			selectionFirstSeenSeconds: reading.selectionFirstSeenSeconds,
			nowSeconds: this.now(),
			...(reading.paths.activeFile !== undefined && { realFile: reading.paths.activeFile }),
			...(secret && { secret }),
			...(reading.unsavedFiles && { unsavedFiles: reading.unsavedFiles }),
		};
	}
}
