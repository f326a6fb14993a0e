import { spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { PROBE_ELISP } from "../../../src/editors/emacs/core/elisp/probe-elisp.ts";
import { probeResultOf } from "../../../src/editors/emacs/core/probe.ts";
import { scanForEmacsen } from "../../../src/editors/emacs/discovery.ts";
import { evalInEmacs } from "../../../src/editors/emacs/server-client.ts";
import { commOf } from "../../../src/editors/processes/proc-files.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/** Discovery on the real `/proc` with real Emacsen in tmux, and impostors bound by this test's own process. */
const available = requireEmacs("the Emacs discovery tests");
const uid = process.getuid?.() ?? 0;

describe.skipIf(!available)("finding every Emacs of this user (real Emacs 28.2 in tmux)", () => {
	const scope = new CleanupScope();
	let project: string;
	let runtimeDir: string;
	let procScope: string;

	beforeEach(() => {
		const dir = tempDir("emacs-discovery");
		scope.defer(dir.cleanup);
		project = join(dir.path, "proj");
		runtimeDir = join(dir.path, "run");
		mkdirSync(project);
		writeFileSync(join(project, "main.ts"), "line1\nline2\n");
		procScope = `emacs-discovery-${process.pid}-${Math.random().toString(36).slice(2)}`;
	});
	afterEach(() => scope.close());

	async function emacs(server = true): Promise<RealEmacs> {
		const started = await RealEmacs.start({ cwd: project, runtimeDir, scope: procScope, files: ["main.ts"], server });
		scope.defer(() => started.close());
		return started;
	}

	async function impostorAt(path: string): Promise<Server> {
		const server = createServer((connection) => connection.end('-emacs-pid 1\n-print "impostor"\n'));
		await new Promise<void>((listening) => server.listen(path, listening));
		scope.defer(() => new Promise((closed) => server.close(closed)));
		return server;
	}

	const scan = async () => (await scanForEmacsen(uid, procScope, testProcessFacts())) ?? [];

	test("found with its server's socket, proven through its own fds", async () => {
		const started = await emacs();
		expect(await scan()).toEqual([
			{ pid: started.pid, startSeconds: expect.any(Number), daemon: false, socket: started.socket, refused: [] },
		]);
		// Emacs makes the socket under (default-file-modes) 0700, in a dir it made 0700.
		expect(lstatSync(started.socket).mode & 0o777).toBe(0o700);
		expect(lstatSync(join(runtimeDir, "emacs")).mode & 0o777).toBe(0o700);
	});

	test("an Emacs running no server is found as one with no server", async () => {
		const started = await emacs(false);
		expect(await scan()).toEqual([{ pid: started.pid, startSeconds: expect.any(Number), daemon: false, refused: [] }]);
	});

	test("a socket another process bound at a look-alike path is never taken for Emacs's", async () => {
		const started = await emacs();
		await impostorAt(join(runtimeDir, "emacs", "server"));
		await impostorAt(`${started.socket}-2`);
		const [found] = await scan();
		expect(found?.socket).toBe(started.socket);
		expect(found?.refused).toEqual([]);
	});

	test("an impostor bound at Emacs's own path (its file unlinked first) makes that path refused", async () => {
		const started = await emacs();
		rmSync(started.socket);
		await impostorAt(started.socket);
		const [found] = await scan();
		expect(found?.pid).toBe(started.pid);
		expect(found?.socket).toBeUndefined();
		expect(found?.refused).toEqual([
			{ path: started.socket, reason: "another listening socket was bound to the same path" },
		]);
	});

	test("its socket dir opened to others makes it refused, as Emacs's own server-ensure-safe-dir would", async () => {
		const started = await emacs();
		chmodSync(join(runtimeDir, "emacs"), 0o755);
		const [found] = await scan();
		expect(found?.socket).toBeUndefined();
		expect(found?.refused[0]?.reason).toContain("has mode 0755");
		chmodSync(join(runtimeDir, "emacs"), 0o700);
		expect((await scan())[0]?.socket).toBe(started.socket);
	});

	test("a --batch Emacs (a native-compile worker, a test runner) is not listed", async () => {
		const batch = spawn("emacs", ["--batch", "--eval", "(sleep-for 60)"], {
			env: { ...process.env, PI_IDE_TEST_PROC_SCOPE: procScope },
			stdio: "ignore",
		});
		scope.defer(() => batch.kill("SIGKILL"));
		await waitFor("the batch Emacs running", () => commOf(batch.pid as number) === "emacs\n");
		const started = await emacs(false);
		expect((await scan()).map((found) => found.pid)).toEqual([started.pid]);
	});

	test("a daemon: found and marked, no frame a user sees until emacsclient -t makes one", async () => {
		const daemon = await RealEmacs.startDaemon({ cwd: project, runtimeDir, scope: procScope });
		scope.defer(() => daemon.close());
		expect(await scan()).toEqual([
			{ pid: daemon.pid, startSeconds: expect.any(Number), daemon: true, socket: daemon.socket, refused: [] },
		]);
		const probe = async () => {
			const answer = await evalInEmacs(daemon.socket, PROBE_ELISP, null, {
				clock: systemClock,
				timeoutMs: 5000,
				expectedPid: daemon.pid,
			});
			const result = answer.ok ? probeResultOf(answer.value, daemon.pid) : answer;
			if (!result.ok) throw new Error(result.reason);
			return result.probe;
		};
		expect(await probe()).toMatchObject({ daemon: true, frames: 0 });
		daemon.clientFrame();
		await waitFor("the client frame", async () => (await probe()).frames === 1, 20_000);
	});

	test("after kill -9 the socket file stays, and nothing is found", async () => {
		const started = await emacs();
		started.kill();
		await waitFor("Emacs gone from the scan", async () => (await scan()).length === 0);
		expect(existsSync(started.socket)).toBe(true);
	});
});
