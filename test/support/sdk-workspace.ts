import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { FakeEditor } from "./fake-editor.ts";
import { type SdkSession, startSdkSession } from "./sdk-session.ts";
import { tempDir } from "./temp-dir.ts";

/**
 * Per-test temp project, 0700 state dir (exported as PI_IDE_STATE_DIR, which the extension reads) and
 * agent dir for SDK tests; sessions and editors made through it are stopped after each test.
 */
export function useSdkWorkspace(prefix: string) {
	const cleanups: (() => Promise<void> | void)[] = [];
	const ws = {
		project: "",
		stateDir: "",
		agentDir: "",
		/** Runs after the test, in reverse order of registration. */
		defer: (cleanup: () => Promise<void> | void) => cleanups.push(cleanup),
		session: async (): Promise<SdkSession> => {
			const started = await startSdkSession({ cwd: ws.project, agentDir: ws.agentDir });
			cleanups.push(() => started.shutdown());
			return started;
		},
		editor: (): FakeEditor => {
			const fake = FakeEditor.spawn(ws.stateDir);
			cleanups.push(() => fake.kill());
			return fake;
		},
	};
	beforeEach(() => {
		const tmp = tempDir(prefix);
		ws.project = join(tmp.path, "proj");
		ws.stateDir = join(tmp.path, "state");
		ws.agentDir = join(tmp.path, "agent");
		mkdirSync(join(ws.project, "src"), { recursive: true });
		mkdirSync(ws.stateDir, { mode: 0o700 });
		process.env.PI_IDE_STATE_DIR = ws.stateDir;
		cleanups.push(tmp.cleanup);
	});
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
		delete process.env.PI_IDE_STATE_DIR;
	});
	return ws;
}
