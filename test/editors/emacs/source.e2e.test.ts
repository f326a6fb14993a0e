import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { SourceEvent } from "../../../src/editors/core/editor.ts";
import { emacsStatusLines } from "../../../src/editors/emacs/core/status.ts";
import { EmacsSource } from "../../../src/editors/emacs/source.ts";
import { commOf, descendantsOf } from "../../../src/editors/processes/proc-files.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { GUARD_ASK_MS } from "../../../src/shared/core/timing.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/** The Emacs source on the real `/proc`, real server-dir watches and real Emacsen in tmux, without pi. */
const available = requireEmacs("the Emacs source tests");

describe.skipIf(!available)("the Emacs source with real Emacsen (no pi)", () => {
	const scope = new CleanupScope();
	let root: string;
	let project: string;
	let runtimeDir: string;
	let file: string;
	let procScope: string;
	let connected: string | undefined;
	let events: SourceEvent[] = [];

	beforeEach(() => {
		const dir = tempDir("emacs-source");
		scope.defer(dir.cleanup);
		root = dir.path;
		project = join(root, "proj");
		runtimeDir = join(root, "run");
		mkdirSync(join(project, "src"), { recursive: true });
		mkdirSync(runtimeDir, { mode: 0o700 });
		file = join(project, "src", "main.py");
		writeFileSync(file, "line1\nline2\nline3\n");
		procScope = `emacs-source-${process.pid}-${Math.random().toString(36).slice(2)}`;
		connected = undefined;
		events = [];
	});
	afterEach(() => scope.close());

	async function source(
		options: { env?: { INSIDE_EMACS?: string }; selfPid?: number; on?: boolean } = {},
	): Promise<EmacsSource> {
		const started = new EmacsSource(
			{
				enabled: { on: options.on ?? true, source: "/home/u/.pi/agent/settings.json" },
				uid: process.getuid?.() ?? 0,
				platform: process.platform,
				env: { XDG_RUNTIME_DIR: runtimeDir, TMPDIR: join(root, "tmp"), ...options.env },
				projectDir: () => project,
				connectedKey: () => connected,
				testScope: procScope,
				facts: testProcessFacts(),
				...(options.selfPid !== undefined && { selfPid: options.selfPid }),
			},
			sourceHooks({ event: (event) => events.push(event) }),
		);
		await started.start();
		scope.defer(() => started.close());
		return started;
	}

	async function emacs(options: { cwd?: string; files?: string[]; server?: boolean } = {}): Promise<RealEmacs> {
		const started = await RealEmacs.start({
			cwd: options.cwd ?? project,
			runtimeDir,
			scope: procScope,
			files: options.files ?? [file],
			...(options.server === false && { server: false }),
		});
		scope.defer(() => started.close());
		return started;
	}

	/** The push processes pi's elisp made in that Emacs (each named with pi's prefix). */
	async function piProcesses(started: RealEmacs): Promise<number> {
		const answer = await started.eval(
			`(length (seq-filter (lambda (p) (string-prefix-p "pi-ide-${process.pid}-" (process-name p))) (process-list)))`,
		);
		if (!answer.ok) throw new Error(answer.reason);
		return Number(answer.value.trim());
	}

	const status = (emacsen: EmacsSource) => emacsStatusLines(emacsen.report(), systemClock.nowSeconds(), project);

	test("found at start: listed with its state, its key the pid, pushes live from the project's Emacs", async () => {
		const started = await emacs();
		const emacsen = await source();
		// The file's first Emacs: its first read and install can take seconds on a loaded machine (no latency claim).
		const [editor] = await waitFor(
			"the Emacs listed",
			() => emacsen.editors().length === 1 && emacsen.editors(),
			15_000,
		);
		expect(editor).toMatchObject({ key: `pid:${started.pid}`, origin: "emacs", alive: true });
		expect(editor?.state.active_buffer?.file).toBe(file);
		await waitFor("pushes on", () => emacsen.report().emacsen[0]?.pushing);
		expect(events).toContainEqual({ kind: "app-found", label: `emacs ${started.pid}`, detail: started.socket });
		started.keys("C-n");
		await waitFor("the pushed cursor", () => emacsen.editors()[0]?.state.active_buffer?.cursor?.line === 2);
		expect(status(emacsen).join("\n")).toMatch(/pushes: live \(\d+ received, the last just now\)/);
	});

	test("an Emacs whose server starts later is found through the server dir, without a look by hand", async () => {
		const emacsen = await source();
		expect(emacsen.editors()).toEqual([]);
		const started = await emacs();
		await waitFor("the new Emacs listed", () => emacsen.editors()[0]?.pid === started.pid, 5000);
	});

	test("kill -9: gone within a second, its key no longer listed", async () => {
		const started = await emacs();
		const emacsen = await source();
		await waitFor("listed", () => emacsen.editors().length === 1);
		const before = Date.now();
		started.kill();
		await waitFor("unlisted", () => emacsen.facts(`pid:${started.pid}`)?.listed === false, 1000);
		expect(Date.now() - before).toBeLessThan(1000);
		expect(emacsen.editors()).toEqual([]);
		expect(events).toContainEqual({ kind: "app-gone", label: `emacs ${started.pid}` });
	});

	test("another project's Emacs is read once and does not push, until it is the connected one", async () => {
		const elsewhere = join(root, "elsewhere");
		mkdirSync(elsewhere);
		const other = join(elsewhere, "x.py");
		writeFileSync(other, "x\n");
		const started = await emacs({ cwd: elsewhere, files: [other] });
		const emacsen = await source();
		await waitFor("listed", () => emacsen.editors().length === 1);
		expect(emacsen.report().emacsen[0]?.pushing).toBe(false);
		connected = `pid:${started.pid}`;
		await emacsen.setPaused(false);
		expect(emacsen.report().emacsen[0]?.pushing).toBe(true);
		await emacsen.setPaused(true);
		expect(emacsen.report().emacsen[0]?.pushing).toBe(false);
	});

	test("pi in an Emacs's terminal: that Emacs (an ancestor, INSIDE_EMACS set) is marked and pushes from elsewhere", async () => {
		const elsewhere = join(root, "elsewhere");
		mkdirSync(elsewhere);
		const started = await emacs({ cwd: elsewhere, files: [] });
		const child = await started.eval('(process-id (start-process "pi-ide-test-child" nil "sleep" "60"))');
		if (!child.ok) throw new Error(child.reason);
		const emacsen = await source({ env: { INSIDE_EMACS: "28.2,comint" }, selfPid: Number(child.value.trim()) });
		await waitFor("listed", () => emacsen.editors().length === 1);
		expect(emacsen.editors()[0]?.enclosing).toBe(true);
		expect(emacsen.report()).toMatchObject({ insideEmacs: "28.2,comint", enclosingPid: started.pid });
		await waitFor("pushes from it", () => emacsen.report().emacsen[0]?.pushing);
		// The same Emacs without the variable: not the one pi runs in.
		await emacsen.close();
		const plain = await source({ selfPid: Number(child.value.trim()) });
		await waitFor("listed", () => plain.editors().length === 1);
		expect(plain.editors()[0]?.enclosing).toBeUndefined();
	});

	test("pi in the terminal of an Emacs that runs no server: /ide status says so, with the line that starts one", async () => {
		const started = await emacs({ server: false });
		started.keys("M-:", '(start-process "pi-ide-test-child" nil "sleep" "60")', "Enter");
		const child = await waitFor("its child process", () =>
			descendantsOf(started.pid).find((pid) => commOf(pid) === "sleep\n"),
		);
		const emacsen = await source({ env: { INSIDE_EMACS: "28.2,comint" }, selfPid: child });
		expect(emacsen.report()).toMatchObject({ enclosingPid: started.pid, emacsen: [] });
		expect(status(emacsen)).toContain(
			`  $INSIDE_EMACS: 28.2,comint; pi runs in emacs ${started.pid}, which runs no server: M-x server-start, or (server-start) in the init file`,
		);
	});

	test("an Emacs with no server is named with the line that turns it on; one on TCP is named, not read", async () => {
		const quiet = await emacs({ server: false });
		const tcp = await emacs({ server: false });
		const authDir = join(root, "auth");
		tcp.keys("M-:", `(setq server-use-tcp t server-auth-dir ${JSON.stringify(`${authDir}/`)})`, "Enter");
		tcp.keys("M-x", "server-start", "Enter");
		await waitFor("the TCP server's file", () => {
			try {
				return execFileSync("ls", [authDir], { encoding: "utf8" }).trim() !== "";
			} catch {
				return false;
			}
		});
		const emacsen = await source();
		const lines = status(emacsen).join("\n");
		expect(lines).toContain(`emacs ${quiet.pid}: no server: M-x server-start, or (server-start) in the init file`);
		expect(lines).toMatch(new RegExp(`emacs ${tcp.pid}: uses a TCP server \\(server-use-tcp, port \\d+\\): not read`));
		expect(emacsen.editors()).toEqual([]);
	});

	test("a daemon with no frame is listed, never offered; its emacsclient -t frame makes it an editor at once, its close unmakes it", async () => {
		const daemon = await RealEmacs.startDaemon({ cwd: project, runtimeDir, scope: procScope });
		scope.defer(() => daemon.close());
		const emacsen = await source();
		const key = `pid:${daemon.pid}`;
		expect(emacsen.report()).toMatchObject({ unread: [], emacsen: [{ pid: daemon.pid, frames: 0, pushing: false }] });
		expect(status(emacsen).join("\n")).toContain(
			"0 frame(s); no frame a user sees: listed, not offered (emacsclient -c or -t makes one)",
		);
		expect(emacsen.editors()).toEqual([]);
		// Connected all the same: its death is seen, and a frame's coming is pushed.
		expect(await piProcesses(daemon)).toBe(1);
		expect(emacsen.facts(key)).toMatchObject({ listed: true, alive: true });
		const opened = performance.now();
		daemon.clientFrame();
		// No /ide: the frame made is pushed, and the push decision runs again (the project's cwd: it pushes).
		await waitFor("the daemon an editor", () => emacsen.editors()[0]?.pid === daemon.pid, 5000);
		process.stderr.write(`a daemon's client frame offered after ${(performance.now() - opened).toFixed(0)} ms\n`);
		await waitFor("pushes on", () => emacsen.report().emacsen[0]?.pushing);
		daemon.keys("C-x", "C-c");
		await waitFor("not offered again", () => emacsen.editors().length === 0, 5000);
		await waitFor("pushes off", () => emacsen.report().emacsen[0]?.pushing === false);
		expect(emacsen.report().emacsen[0]).toMatchObject({ frames: 0 });
		expect(await piProcesses(daemon)).toBe(1);
		// A frame again, then one deleted from Lisp (as a package or `server-edit` does): the same both ways.
		daemon.clientFrame();
		await waitFor("an editor again", () => emacsen.editors().length === 1, 5000);
		const deleted = await daemon.eval(
			'(progn (dolist (frame (frame-list)) (unless (equal (terminal-name (frame-terminal frame)) "initial_terminal") (delete-frame frame))) t)',
		);
		expect(deleted).toMatchObject({ ok: true });
		await waitFor("not offered after delete-frame", () => emacsen.editors().length === 0, 5000);
	});

	test("an impostor socket in the server dir, held by another process, is never spoken to", async () => {
		const started = await emacs();
		let connections = 0;
		const server = createServer((connection) => {
			connections++;
			connection.destroy();
		});
		await new Promise<void>((done) => server.listen(join(runtimeDir, "emacs", "server"), done));
		scope.defer(() => new Promise<void>((done) => server.close(() => done())));
		const emacsen = await source();
		await emacsen.lookAgain();
		expect(emacsen.report().emacsen.map((entry) => entry.socket)).toEqual([started.socket]);
		expect(connections).toBe(0);
	});

	test("a socket discovery refuses (its dir open to others) is a failure with its reason; /ide tries again", async () => {
		const started = await emacs();
		chmodSync(join(runtimeDir, "emacs"), 0o755);
		const emacsen = await source();
		expect(emacsen.report().unread).toEqual([
			{
				pid: started.pid,
				daemon: false,
				why: { kind: "failed", socket: started.socket, reason: expect.stringContaining("has mode 0755") },
			},
		]);
		expect(status(emacsen).join("\n")).toContain(`emacs ${started.pid}: ${started.socket}: cannot talk to it:`);
		expect(await piProcesses(started)).toBe(0);
		chmodSync(join(runtimeDir, "emacs"), 0o700);
		await emacsen.lookAgain();
		expect(emacsen.editors()[0]?.pid).toBe(started.pid);
		expect(emacsen.report().unread).toEqual([]);
	});

	test('"emacs": false: off, with where it was said; nothing found, nothing installed', async () => {
		const started = await emacs();
		const emacsen = await source({ on: false });
		expect(emacsen.editors()).toEqual([]);
		expect(status(emacsen)).toEqual(['Emacs: off ("emacs": false in /home/u/.pi/agent/settings.json)']);
		expect(await piProcesses(started)).toBe(0);
	});

	test("a busy Emacs never holds the guard up: given up at the deadline, the pushed state stands", async () => {
		const started = await emacs();
		const emacsen = await source();
		const key = `pid:${started.pid}`;
		await waitFor("pushes on", () => emacsen.report().emacsen[0]?.pushing);
		// A free Emacs answers the guard's ask (no latency claim: a loaded machine may take longer than the budget).
		expect(await emacsen.unsavedNow(key, systemClock.nowMs() + 10_000)).toEqual([]);
		// Busy in Lisp from the marker's writing until the test deletes it (20 s at most): no wall-clock race.
		const marker = join(root, "busy");
		const lisp = JSON.stringify(marker);
		const held = started.eval(
			`(progn (write-region "" nil ${lisp} nil 0) (let ((end (+ (float-time) 20))) (while (and (file-exists-p ${lisp}) (< (float-time) end)))))`,
			30_000,
		);
		let heldAnswered = false;
		void held.then(() => (heldAnswered = true));
		await waitFor("Emacs busy", () => existsSync(marker));
		const deadline = systemClock.nowMs() + GUARD_ASK_MS;
		expect(await emacsen.unsavedNow(key, deadline)).toBeUndefined();
		const lateMs = Math.max(0, systemClock.nowMs() - deadline);
		// Given up while Emacs still ran its command, on a timer of what the deadline left, not the request's 1 s.
		expect(heldAnswered).toBe(false);
		const failure = emacsen.report().emacsen[0]?.lastRequest?.failure ?? "";
		expect(failure).toMatch(/^no answer within \d+ ms$/);
		expect(Number(failure.match(/\d+/)?.[0])).toBeLessThanOrEqual(GUARD_ASK_MS);
		process.stderr.write(`the busy Emacs's ask ended ${lateMs.toFixed(0)} ms past its deadline\n`);
		expect(emacsen.facts(key)?.reading).toMatchObject({ blocked: true, state: { active_buffer: { file } } });
		expect(status(emacsen).join("\n")).toContain("busy: its last request timed out");
		rmSync(marker);
		expect(await held).toMatchObject({ ok: true });
		started.keys("C-n");
		await waitFor("a push again: not busy", () => emacsen.facts(key)?.reading?.blocked !== true);
	});

	test("closed: nothing of pi stays in Emacs", async () => {
		const started = await emacs();
		const emacsen = await source();
		await waitFor("pushes on", () => emacsen.report().emacsen[0]?.pushing);
		expect(await piProcesses(started)).toBe(1);
		await emacsen.close();
		await waitFor("pi's process gone from Emacs", async () => (await piProcesses(started)) === 0, 3000);
	});
});
