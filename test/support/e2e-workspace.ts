import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeEditor } from "./fake-editor.ts";
import { type FakeModelServer, startFakeModelServer } from "./fake-model-server.ts";
import { writeAgentDir } from "./pi-cli.ts";
import { tempDir } from "./temp-dir.ts";

/**
 * Everything one end-to-end test needs, all under one temp dir: a project with a real source file, a
 * 0700 state dir, an agent dir pointing at a fake model server. `cleanup` stops editors and the server.
 */
export class E2eWorkspace {
	readonly project: string;
	readonly stateDir: string;
	readonly agentDir: string;
	private readonly editors: FakeEditor[] = [];

	private constructor(
		readonly root: string,
		readonly server: FakeModelServer,
		private readonly removeRoot: () => void,
	) {
		this.project = join(root, "proj");
		this.stateDir = join(root, "state");
		this.agentDir = join(root, "agent");
		mkdirSync(join(this.project, "src"), { recursive: true });
		writeFileSync(join(this.project, "src", "main.ts"), "line1\nline2\nline3\nline4\nline5\nline6\n");
		mkdirSync(this.stateDir, { mode: 0o700 });
		writeAgentDir(this.agentDir, server.baseUrl);
	}

	static async create(reply?: Parameters<typeof startFakeModelServer>[0]): Promise<E2eWorkspace> {
		const tmp = tempDir("e2e");
		const server = await startFakeModelServer(reply);
		return new E2eWorkspace(tmp.path, server, tmp.cleanup);
	}

	editor(): FakeEditor {
		const editor = FakeEditor.spawn(this.stateDir);
		this.editors.push(editor);
		return editor;
	}

	async cleanup(): Promise<void> {
		await Promise.all(this.editors.map((editor) => editor.kill()));
		await this.server.close();
		this.removeRoot();
	}
}
