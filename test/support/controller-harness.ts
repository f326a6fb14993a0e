import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { resolveSettings } from "../../src/core/settings.ts";
import { IdeController } from "../../src/shell/ide-controller.ts";
import type { ConnectionMemory } from "../../src/shell/session-memory.ts";
import { FakeEditor } from "./fake-editor.ts";
import { tempDir } from "./temp-dir.ts";

/**
 * The real watcher + core behind the controller, on a real temp dir with real editor processes; what pi
 * would show (widget, notices) is recorded instead of rendered.
 */
export class ControllerHarness {
	readonly widgets: (string | undefined)[] = [];
	readonly notices: string[] = [];
	readonly memory: ConnectionMemory = { suppressed: false };
	readonly project: string;
	readonly stateDir: string;
	readonly root: string;
	private controllerInstance?: IdeController;
	private readonly editors: FakeEditor[] = [];
	private readonly removeRoot: () => void;
	/** Seconds added to the real clock, for freshness cases that would otherwise need a minute of waiting. */
	clockOffsetSeconds = 0;

	constructor(options: { createStateDir?: boolean } = {}) {
		const tmp = tempDir("harness");
		this.root = tmp.path;
		this.removeRoot = tmp.cleanup;
		this.project = join(tmp.path, "proj");
		this.stateDir = join(tmp.path, "state");
		mkdirSync(join(this.project, "src"), { recursive: true });
		if (options.createStateDir !== false) mkdirSync(this.stateDir, { mode: 0o700 });
	}

	get controller(): IdeController {
		this.controllerInstance ??= new IdeController({
			stateDir: this.stateDir,
			cwd: this.project,
			uid: process.getuid?.() ?? 0,
			memory: this.memory,
			settings: resolveSettings(undefined, undefined),
			showWidget: (text) => this.widgets.push(text),
			notify: (message) => this.notices.push(message),
			nowSeconds: () => Date.now() / 1000 + this.clockOffsetSeconds,
		});
		return this.controllerInstance;
	}

	widget(): string | undefined {
		return this.widgets.at(-1);
	}

	editor(): FakeEditor {
		const editor = FakeEditor.spawn(this.stateDir);
		this.editors.push(editor);
		return editor;
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
		await this.controllerInstance?.stop();
		await Promise.all(this.editors.map((editor) => editor.kill()));
		this.removeRoot();
	}
}
