import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { CleanupScope } from "./cleanup-scope.ts";
import { FakeEditor } from "./fake-editor.ts";
import { type SdkSession, startSdkSession } from "./sdk-session.ts";
import { tempDir } from "./temp-dir.ts";

/**
 * Per-test temp project, 0700 state dir (exported as PI_IDE_STATE_DIR, which the extension reads) and
 * agent dir for SDK tests; sessions and editors made through it are stopped after each test.
 */
export function useSdkWorkspace(prefix: string) {
	const scope = new CleanupScope();
	const ws = {
		project: "",
		stateDir: "",
		agentDir: "",
		/** Runs after the test, in reverse order of registration. */
		defer: (cleanup: () => unknown) => scope.defer(cleanup),
		session: async (): Promise<SdkSession> => {
			const started = await startSdkSession({ cwd: ws.project, agentDir: ws.agentDir });
			scope.defer(() => started.shutdown());
			return started;
		},
		editor: (): FakeEditor => {
			const fake = FakeEditor.spawn(ws.stateDir);
			scope.defer(() => fake.kill());
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
		scope.defer(tmp.cleanup);
	});
	afterEach(async () => {
		delete process.env.PI_IDE_STATE_DIR;
		await scope.close();
	});
	return ws;
}
