import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { IdeController } from "../../src/connection/controller.ts";
import type { DirPlan } from "../../src/editors/state-dir/core/dir-plan.ts";
import { pidOfStateFileKey } from "../../src/editors/state-dir/core/parse.ts";
import type { EditorEvent } from "../../src/events.ts";
import { resolveSettings } from "../../src/settings/core/settings.ts";
import type { Clock } from "../../src/shared/core/clock.ts";
import type { ConnectionMemory } from "../../src/shared/process-memory.ts";
import { offsetClock } from "./clocks.ts";
import { FakeEditor } from "./fake-editor.ts";
import { tempDir } from "./temp-dir.ts";

export interface HarnessOptions {
	/** Make the state dir (0700) up front; default true. */
	createStateDir?: boolean;
	/** Another state dir path under the harness root (the controller creates missing ones). */
	stateDirName?: string;
	/** The project (pi's cwd) under the harness root; default `proj`. */
	projectDirName?: string;
	autoconnect?: boolean;
	/** Time and timers; default the system clock with its wall time moved by `clockOffsetSeconds`. */
	clock?: Clock;
	/** Called with each event-bus payload, as it is recorded. */
	onAnnounce?: (editor: EditorEvent | undefined) => void;
	/** The dirs to read, given the harness root; default the one state dir as `PI_IDE_STATE_DIR` would make it. */
	stateDirs?: (root: string, stateDir: string) => DirPlan[];
}

/**
 * The one way tests drive the controller: the real watcher and core on a real temp dir with real editor
 * processes; what pi would show (widget, notices, events) is recorded instead of rendered. `replaced()` is the
 * next session of the same pi process: same dirs, same connection memory.
 */
export class ControllerHarness {
	readonly widgets: (string | undefined)[] = [];
	readonly notices: string[] = [];
	readonly events: (EditorEvent | undefined)[] = [];
	readonly project: string;
	readonly stateDir: string;
	readonly root: string;
	/** Seconds added to the real clock, for freshness cases that would otherwise need a minute of waiting. */
	clockOffsetSeconds = 0;
	private controllerInstance?: IdeController;
	private readonly editors: FakeEditor[];
	private readonly removeRoot: () => void;
	private readonly followers: ControllerHarness[] = [];

	constructor(
		private readonly options: HarnessOptions = {},
		shared?: { root: string; stateDir: string; memory: ConnectionMemory; editors: FakeEditor[] },
		readonly memory: ConnectionMemory = shared?.memory ?? { suppressed: false },
	) {
		if (shared) {
			this.root = shared.root;
			this.stateDir = shared.stateDir;
			this.editors = shared.editors;
			this.removeRoot = () => {};
		} else {
			const tmp = tempDir("harness");
			this.root = tmp.path;
			this.removeRoot = tmp.cleanup;
			this.stateDir = join(tmp.path, options.stateDirName ?? "state");
			this.editors = [];
			if (options.createStateDir !== false) mkdirSync(this.stateDir, { mode: 0o700, recursive: true });
		}
		this.project = join(this.root, options.projectDirName ?? "proj");
		mkdirSync(join(this.project, "src"), { recursive: true });
	}

	get controller(): IdeController {
		this.controllerInstance ??= new IdeController(
			{
				stateDirs: this.options.stateDirs?.(this.root, this.stateDir) ?? [{ path: this.stateDir, role: "override" }],
				cwd: this.project,
				uid: process.getuid?.() ?? 0,
				memory: this.memory,
				settings: { ...resolveSettings(undefined, undefined), autoconnect: this.options.autoconnect ?? true },
				clock: this.options.clock ?? offsetClock(() => this.clockOffsetSeconds),
			},
			{
				showWidget: (text) => this.widgets.push(text),
				notify: (message) => this.notices.push(message),
				announce: (editor) => {
					this.events.push(editor);
					this.options.onAnnounce?.(editor);
				},
			},
		);
		return this.controllerInstance;
	}

	/** The same pi process after `/new` or `/resume`: a new controller on the same dirs and memory. */
	async replaced(options: HarnessOptions = this.options): Promise<ControllerHarness> {
		await this.controllerInstance?.stop();
		const next = new ControllerHarness(
			options,
			{ root: this.root, stateDir: this.stateDir, memory: this.memory, editors: this.editors },
			this.memory,
		);
		this.followers.push(next);
		return next;
	}

	widget(): string | undefined {
		return this.widgets.at(-1);
	}

	/** A live editor process whose state file goes in this harness's state dir (or another dir). */
	editor(stateDir = this.stateDir): FakeEditor {
		const editor = FakeEditor.spawn(stateDir);
		this.editors.push(editor);
		return editor;
	}

	/** The live editor with this pid, as the controller lists it; throws when it is not live. */
	live(pid: number) {
		const found = this.controller.liveEditors().find((editor) => editor.pid === pid);
		if (!found) throw new Error(`editor ${pid} is not live`);
		return found;
	}

	/** The pid of the connected editor, from the connection memory. */
	connectedPid(): number | undefined {
		const key = this.memory.connected?.key;
		return key === undefined ? undefined : pidOfStateFileKey(key);
	}

	/** The `/ide status` line of one file, without the leading indent. */
	statusOf(fileName: string): string | undefined {
		return this.controller
			.statusText()
			.split("\n")
			.map((line) => line.trim())
			.find((line) => line.startsWith(`${fileName}: `));
	}

	async cleanup(): Promise<void> {
		for (const follower of this.followers) await follower.cleanup();
		await this.controllerInstance?.stop();
		await Promise.all(this.editors.splice(0).map((editor) => editor.kill()));
		this.removeRoot();
	}
}
