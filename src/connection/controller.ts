import type { Editor, ListedEditor } from "../editors/core/editor.ts";
import type { EditorChannel } from "../editors/diff-channels.ts";
import type { DiskFollowed } from "../editors/editor-asks.ts";
import type { ModelWriteShown, NoticeLevel, SourceHooks } from "../editors/editor-source.ts";
import type { MergedSources } from "../editors/merged-sources.ts";
import { realFile, realOrNormal } from "../editors/real-paths.ts";
import { secretFilePatterns } from "../safety/core/secret-files.ts";
import type { UnsavedBuffer } from "../safety/core/unsaved-buffers.ts";
import { SecretVerdicts } from "../safety/secret-verdicts.ts";
import { type UnsavedListSources, unsavedOfEditor } from "../safety/unsaved-list.ts";
import type { IdeSettings } from "../settings/core/settings.ts";
import { guarded, runInBackground } from "../shared/background.ts";
import { systemClock } from "../shared/clock.ts";
import type { Clock } from "../shared/core/clock.ts";
import { editorLabel } from "../shared/core/display-text.ts";
import { noticeText } from "../shared/core/notice-texts.ts";
import { LIVENESS_CHECK_MS } from "../shared/core/timing.ts";
import { resourceCount } from "../shared/process-memory.ts";
import type { ControllerConfig, ControllerOutputs } from "./controller-config.ts";
import type { IdeEvent } from "./core/event-log.ts";
import {
	autoConnectTarget,
	bestTier,
	type ConnectedView,
	connectionEnd,
	connectionEndNotice,
	connectReason,
	editorMatch,
} from "./core/rules.ts";
import { type DirReport, formatNoMatch } from "./core/status-report.ts";
import { controllerStatusText, dirReports } from "./doctor.ts";
import { EditorSources } from "./editor-sources.ts";
import { recordEvent } from "./event-journal.ts";
import { EditorPresenter } from "./presenter.ts";
import { type PromptViewInputs, promptViewOf } from "./prompt-view.ts";
import { RejectionNotices } from "./rejection-notices.ts";

export type { ControllerConfig, ControllerOutputs, NoticeLevel };

/**
 * The connection policy over the editors its sources list: who is connected and why, what the widget shows,
 * what a prompt sees, what `/ide status` says. The sources own dirs, watchers and liveness.
 */
export class IdeController {
	private readonly all: EditorSources;
	private readonly sources: MergedSources;
	private readonly presenter: EditorPresenter;
	private readonly secrets: SecretVerdicts;
	private readonly clock: Clock;
	private projectDir: string;
	private stopTick?: () => void;
	private reconcileQueued = false;
	private starting?: Promise<void>;
	private stopped = false;
	/** No connection decision before the first scan is complete: half a dir would make a tie look like one editor. */
	private scanned = false;
	private readonly rejections: RejectionNotices;
	/** What a prompt's view and the guard read of the sources. */
	private readonly reads: PromptViewInputs & UnsavedListSources;

	constructor(
		private readonly config: ControllerConfig,
		private readonly outputs: ControllerOutputs,
	) {
		this.projectDir = config.cwd;
		this.clock = config.clock ?? systemClock;
		this.secrets = new SecretVerdicts(secretFilePatterns(config.settings.secretFiles));
		this.rejections = new RejectionNotices((label, reason) => {
			this.record({ kind: "rejected", label, reason });
			outputs.notify(noticeText.rejectedWrite(label, reason), "warning");
		});
		const hooks: SourceHooks = {
			clock: this.clock,
			changed: () => this.queueReconcile(),
			event: (event) => this.record(event),
			notify: outputs.notify,
			settled: (key) => this.rejections.settled(key, config.memory.connected, this.sources.facts(key)),
			...(outputs.requests && { requests: outputs.requests }),
			...(outputs.asks && { asks: outputs.asks }),
		};
		this.all = new EditorSources(config, hooks, {
			projectDir: () => this.projectDir,
			connectedKey: () => config.memory.connected?.key,
			mentioned: (key, mention) => {
				if (config.memory.connected?.key === key) outputs.mentioned?.(mention);
			},
		});
		const sources = this.all.merged;
		this.sources = sources;
		this.reads = {
			waitForPendingRead: (key, deadlineMs) => sources.waitForPendingRead(key, deadlineMs),
			unsavedNow: (key, deadlineMs, target) => sources.unsavedNow(key, deadlineMs, target),
			facts: (key) => sources.facts(key),
			secretMatchOf: (reading) => this.secrets.secretMatchOf(reading),
			nowSeconds: () => this.clock.nowSeconds(),
			nowMs: () => this.clock.nowMs(),
		};
		this.presenter = new EditorPresenter(
			{
				showWidget: outputs.showWidget,
				announce: outputs.announce,
				clock: this.clock,
				isSecret: (editor) => this.secrets.secretMatchOf(editor) !== undefined,
				reviewOn: () => config.reviewOn?.() ?? false,
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
		if (this.stopTick) {
			this.stopTick();
			this.stopTick = undefined;
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
		const previous = this.config.memory.connected?.key;
		if (previous !== undefined && previous !== editor.key) this.rejections.forget(previous);
		this.config.memory.connected = { key: editor.key, label, why: `${label}: ${why}` };
		this.config.memory.suppressed = false;
		void runInBackground("connection changed", () => this.all.connectionChanged(false));
		this.record({ kind: "connected", label, why });
		this.presenter.render();
	}

	/** An ask came from that editor: pi connects to it when it was connected elsewhere or paused by `/ide off`. */
	connectAsked(key: string, label: string): boolean {
		if (this.config.memory.connected?.key === key && !this.config.memory.suppressed) return false;
		const editor = this.liveEditors().find((live) => live.key === key);
		if (editor) this.connect(editor, connectReason.asked(label));
		return editor !== undefined;
	}

	/** A run ended: every source's editors follow the disk (asks/ says what stayed in `pi: done`). */
	followDisk(): Promise<DiskFollowed[]> {
		return this.all.followDisk();
	}

	disconnect(options: { pauseAutoConnect: boolean }): void {
		const connected = this.config.memory.connected;
		if (connected) {
			this.record({ kind: "disconnected", label: connected.label, why: "ide-off" });
			this.rejections.forget(connected.key);
		}
		this.config.memory.connected = undefined;
		if (options.pauseAutoConnect) this.config.memory.suppressed = true;
		void runInBackground("disconnected", () => this.all.connectionChanged(true));
		this.presenter.render();
	}

	/** What the connected editor shows as a prompt starts (after a capped wait for a read under way); gone: disconnected. */
	async viewAfterPendingRead(): Promise<ConnectedView> {
		await this.starting;
		const key = this.config.memory.connected?.key;
		if (key === undefined) return { kind: "gone", reason: "disconnected" };
		const view = await promptViewOf(key, this.reads);
		if (view.kind === "gone" && view.reason === "disconnected") this.reconcile();
		return view;
	}

	/** The connected editor's unsaved files on its latest word (safety/unsaved-list.ts); none when nothing is connected. */
	async unsavedAfterPendingRead(target?: string): Promise<UnsavedBuffer[]> {
		await this.starting;
		const key = this.config.memory.connected?.key;
		if (key === undefined) return [];
		return unsavedOfEditor(key, this.reads, target);
	}

	/** Review was turned on or off: the widget and the event say so at once. */
	refreshWidget(): void {
		this.presenter.render();
	}

	/** How the connected editor could show a diff (review/), or why it cannot. */
	connectedChannel(): EditorChannel {
		const editor = this.connectedEditor();
		return editor ? this.all.channelOf(editor) : { kind: "none", reason: "no editor is connected" };
	}

	/** After the model's `write` or `edit` of `path`: the connected Neovim or Emacs shows it (when that is safe). */
	async afterModelWrite(path: string): Promise<ModelWriteShown | undefined> {
		const connected = this.connectedEditor();
		return connected && this.all.reloadAfterWrite(connected, await realFile(path));
	}

	/** The clock the connection's ages and freshness are read on. */
	nowSeconds = (): number => this.clock.nowSeconds();

	statusText(): string {
		const key = this.config.memory.connected?.key;
		const connected = this.connectedEditor();
		return controllerStatusText({
			config: this.config,
			dirs: this.dirReports(),
			sources: this.all.statusSections(this.clock.nowSeconds(), this.projectDir),
			projectDir: this.projectDir,
			connectedSecret: connected && this.secrets.secretMatchOf(connected),
			facts: key === undefined ? undefined : this.sources.facts(key),
			nowSeconds: this.clock.nowSeconds(),
		});
	}

	/** What `/ide` says when it finds nothing for this project: every dir it read, Zed, Neovim, what runs elsewhere. */
	noMatchText(): string {
		return formatNoMatch(this.projectDir, this.dirReports(), this.liveEditors(), this.all.noMatchLines());
	}

	/** Every dir read or looked for, with its verdict and its files' editors matched to the project. */
	private dirReports(): DirReport[] {
		return dirReports(this.all.dirs, (editor) => this.withMatch(editor));
	}

	/** Every source looks again (`/ide`, before it lists editors); the connection rules apply to what it finds. */
	async lookAgain(): Promise<void> {
		await this.sources.lookAgain();
		this.reconcile();
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
		this.stopTick = this.clock.every(LIVENESS_CHECK_MS, () => this.onTick());
		resourceCount().timers++;
		this.scanned = true;
		this.reconcile();
	}

	/** Its interval bounds how fast a killed editor is noticed; on most ticks the liveness checks are all it does. */
	private onTick(): void {
		if (this.stopped) return;
		if (this.sources.checkLiveness()) this.reconcile();
		const recheck = this.sources.recheckDue();
		if (recheck) void runInBackground("recheck", recheck);
	}

	/** Every valid editor with its liveness and tier right now. */
	private editors(): Editor[] {
		return this.sources.editors().map((editor) => this.withMatch(editor));
	}

	private withMatch(editor: ListedEditor): Editor {
		return { ...editor, match: editorMatch(editor, this.projectDir) };
	}

	private queueReconcile(): void {
		if (this.reconcileQueued) return;
		this.reconcileQueued = true;
		setImmediate(
			guarded("reconcile", () => {
				this.reconcileQueued = false;
				this.reconcile();
			}),
		);
	}

	/** Apply the connection rules to the current facts, then bring widget and expiry timer in line. */
	private reconcile(): void {
		if (this.stopped || !this.scanned) return;
		const memory = this.config.memory;
		if (memory.connected) {
			const facts = this.sources.facts(memory.connected.key);
			const end = facts ? connectionEnd(facts) : "file-removed";
			if (end) {
				this.outputs.notify(connectionEndNotice(memory.connected.label, end), "info");
				this.record({ kind: "disconnected", label: memory.connected.label, why: end });
				this.rejections.forget(memory.connected.key);
				memory.connected = undefined;
				void runInBackground("connection ended", () => this.all.connectionChanged(false));
			}
		}
		if (!memory.connected && this.config.settings.autoconnect && !memory.suppressed) {
			const target = autoConnectTarget(this.liveEditors());
			if (target) this.connect(target, connectReason.auto(target.match));
		}
		this.presenter.render();
	}

	private record(event: IdeEvent): void {
		recordEvent(this.clock.nowSeconds(), event);
	}
}
