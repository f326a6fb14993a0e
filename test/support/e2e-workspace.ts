import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { CleanupScope } from "./cleanup-scope.ts";
import { FakeEditor } from "./fake-editor.ts";
import { type ChatRequest, type FakeModelServer, messageText, startFakeModelServer } from "./fake-model-server.ts";
import { type PiLine, spawnPi, writeAgentDir } from "./pi-cli.ts";
import { tempDir } from "./temp-dir.ts";

/**
 * Everything one end-to-end test needs, all under one temp dir: a project with a real source file, a
 * 0700 state dir, an agent dir pointing at a fake model server. `cleanup` stops the pi processes the test
 * handed to `stopLater`, then editors and the server.
 */
export class E2eWorkspace {
	readonly project: string;
	readonly stateDir: string;
	readonly agentDir: string;
	private constructor(
		readonly root: string,
		readonly server: FakeModelServer,
		private readonly scope: CleanupScope,
	) {
		this.project = join(root, "proj");
		this.stateDir = join(root, "state");
		this.agentDir = join(root, "agent");
		mkdirSync(join(this.project, "src"), { recursive: true });
		writeFileSync(join(this.project, "src", "main.ts"), "line1\nline2\nline3\nline4\nline5\nline6\n");
		mkdirSync(this.stateDir, { mode: 0o700 });
		writeAgentDir(this.agentDir, server.baseUrl);
	}

	static async create(): Promise<E2eWorkspace> {
		const scope = new CleanupScope();
		const tmp = tempDir("e2e");
		scope.defer(tmp.cleanup);
		const server = await startFakeModelServer();
		scope.defer(() => server.close());
		return new E2eWorkspace(tmp.path, server, scope);
	}

	editor(): FakeEditor {
		const editor = FakeEditor.spawn(this.stateDir);
		this.scope.defer(() => editor.kill());
		return editor;
	}

	/**
	 * `pi -p <prompt>` on this workspace: it must exit 0 and print exactly the model's answer (`ok`); returns
	 * the request pi sent the model.
	 */
	async print(line: PiLine, prompt: string): Promise<ChatRequest> {
		const run = spawnPi(line, {
			cwd: this.project,
			agentDir: this.agentDir,
			stateDir: this.stateDir,
			args: ["-p", prompt],
		});
		const code = await run.exited;
		expect(code, run.stderr()).toBe(0);
		expect(run.stdout()).toBe("ok\n");
		const request = this.server.requests.at(-1);
		if (!request) throw new Error(`pi sent no request; stderr: ${run.stderr()}`);
		return request;
	}

	/** The tool results the model read in its last request, joined: what pi's tools (and a review) told it. */
	toolResults(): string {
		const messages = this.server.requests.at(-1)?.messages ?? [];
		return messages
			.filter((message) => message.role === "tool")
			.map(messageText)
			.join("\n");
	}

	/** What the last prompt added to the model's context: the messages after the model's last answer. */
	lastContext(): string {
		const messages = this.server.requests.at(-1)?.messages ?? [];
		const answered = messages.findLastIndex((message) => message.role === "assistant");
		return messages
			.slice(answered + 1)
			.map(messageText)
			.join("\n");
	}

	/** A pi process (RPC, tmux) the test started: stopped first at cleanup, whatever the test did. */
	stopLater<T extends { stop(): unknown }>(process: T): T {
		this.scope.defer(() => process.stop());
		return process;
	}

	/** Anything else the test opened, closed with the workspace. */
	defer(close: () => unknown): void {
		this.scope.defer(close);
	}

	cleanup(): Promise<void> {
		return this.scope.close();
	}
}

/**
 * A fresh workspace for each test of the calling `describe`, cleaned up after it. The returned object always
 * stands for the current test's workspace.
 */
export function useE2eWorkspace(): E2eWorkspace {
	let current: E2eWorkspace | undefined;
	beforeEach(async () => {
		current = await E2eWorkspace.create();
	});
	afterEach(async () => {
		const done = current;
		current = undefined;
		await done?.cleanup();
	});
	return new Proxy({} as E2eWorkspace, {
		get(_target, property) {
			if (!current) throw new Error("the e2e workspace exists only while a test runs");
			const value = Reflect.get(current, property, current);
			return typeof value === "function" ? value.bind(current) : value;
		},
	});
}
