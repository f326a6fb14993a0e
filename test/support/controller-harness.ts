import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { IdeController } from "../../src/connection/controller.ts";
import { pidOfKey } from "../../src/editors/core/editor-key.ts";
import type { DirPlan } from "../../src/editors/state-dir/core/dir-plan.ts";
import type { EditorEvent } from "../../src/events.ts";
import { resolveSettings } from "../../src/settings/core/settings.ts";
import type { Clock } from "../../src/shared/core/clock.ts";
import type { ConnectionMemory } from "../../src/shared/process-memory.ts";
import { CleanupScope } from "./cleanup-scope.ts";
import { offsetClock } from "./clocks.ts";
import { FakeEditor } from "./fake-editor.ts";
import { testProcessFacts } from "./process-facts.ts";
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
	/** Shared with the harnesses of later sessions (`replaced`): one cleanup closes them all. */
	private readonly scope: CleanupScope;

	constructor(
		private readonly options: HarnessOptions = {},
		shared?: { root: string; stateDir: string; memory: ConnectionMemory; scope: CleanupScope },
		readonly memory: ConnectionMemory = shared?.memory ?? { suppressed: false },
	) {
		if (shared) {
			this.root = shared.root;
			this.stateDir = shared.stateDir;
			this.scope = shared.scope;
		} else {
			const tmp = tempDir("harness");
			this.scope = new CleanupScope();
			this.scope.defer(tmp.cleanup);
			this.root = tmp.path;
			this.stateDir = join(tmp.path, options.stateDirName ?? "state");
			if (options.createStateDir !== false) mkdirSync(this.stateDir, { mode: 0o700, recursive: true });
		}
		this.project = join(this.root, options.projectDirName ?? "proj");
		mkdirSync(join(this.project, "src"), { recursive: true });
	}

	get controller(): IdeController {
		if (this.controllerInstance) return this.controllerInstance;
		this.controllerInstance = new IdeController(
			{
				stateDirs: this.options.stateDirs?.(this.root, this.stateDir) ?? [{ path: this.stateDir, role: "override" }],
				cwd: this.project,
				uid: process.getuid?.() ?? 0,
				facts: testProcessFacts(),
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
		const started = this.controllerInstance;
		this.scope.defer(() => started.stop());
		return started;
	}

	/** The same pi process after `/new` or `/resume`: a new controller on the same dirs and memory. */
	async replaced(options: HarnessOptions = this.options): Promise<ControllerHarness> {
		await this.controllerInstance?.stop();
		return new ControllerHarness(
			options,
			{ root: this.root, stateDir: this.stateDir, memory: this.memory, scope: this.scope },
			this.memory,
		);
	}

	widget(): string | undefined {
		return this.widgets.at(-1);
	}

	/** A live editor process whose state file goes in this harness's state dir (or another dir). */
	editor(stateDir = this.stateDir): FakeEditor {
		const editor = FakeEditor.spawn(stateDir);
		this.scope.defer(() => editor.kill());
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
		return key === undefined ? undefined : pidOfKey(key);
	}

	/** The `/ide status` line of one file, without the leading indent. */
	statusOf(fileName: string): string | undefined {
		return this.controller
			.statusText()
			.split("\n")
			.map((line) => line.trim())
			.find((line) => line.startsWith(`${fileName}: `));
	}

	/** Stops every controller of this harness and its later sessions, kills the editors, removes the dir. */
	cleanup(): Promise<void> {
		return this.scope.close();
	}
}
