import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { PushListener } from "../../../src/editors/emacs/push/push-listener.ts";
import { EmacsSession, type ServedEmacs } from "../../../src/editors/emacs/session.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { GUARD_ASK_MS } from "../../../src/shared/core/timing.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { processOfEmacs, startOfProcess } from "../../support/process-facts.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/** One Emacs session against a real Emacs 28.2 in tmux (pi's elisp installed over its server), without a source. */
const available = requireEmacs("the Emacs session tests");
const uid = process.getuid?.() ?? 0;

/**
 * Emacs busy for `seconds` from the moment it says so (`busyMarker` written), not from when the test sent the
 * loop: under load the request may reach Emacs late.
 */
const busyMarker = join(tmpdir(), `pi-ide-busy-${process.pid}.marker`);
function busyEmacs(started: RealEmacs, seconds: number) {
	rmSync(busyMarker, { force: true });
	const loop = `(let ((end (+ (float-time) ${seconds}))) (while (< (float-time) end)))`;
	return started.eval(`(progn (write-region "" nil ${JSON.stringify(busyMarker)}) ${loop})`, 10_000);
}

describe.skipIf(!available)("one Emacs session (real Emacs 28.2 in tmux)", () => {
	const scope = new CleanupScope();
	let root: string;
	let project: string;
	let runtimeDir: string;
	let file: string;
	let listener: PushListener;
	let installs = 0;

	beforeEach(async () => {
		const dir = tempDir("emacs-session");
		scope.defer(dir.cleanup);
		root = dir.path;
		project = join(root, "proj");
		runtimeDir = join(root, "run");
		mkdirSync(join(project, "src"), { recursive: true });
		execFileSync("git", ["init", "-q", project]);
		file = join(project, "src", "main.py");
		writeFileSync(file, "line1\nline2\nline3\n");
		const opened = await PushListener.open({ XDG_RUNTIME_DIR: runtimeDir }, uid, startOfProcess());
		if (typeof opened === "string") throw new Error(opened);
		listener = opened;
		scope.defer(() => listener.close());
	});
	afterEach(() => scope.close());

	async function emacs(options: { cwd?: string; files?: string[] } = {}): Promise<RealEmacs> {
		const started = await RealEmacs.start({
			cwd: options.cwd ?? project,
			runtimeDir,
			scope: `emacs-session-${process.pid}`,
			files: options.files ?? [file],
		});
		scope.defer(() => started.close());
		return started;
	}

	function session(found: ServedEmacs, events: { changes: number; closed: number } = { changes: 0, closed: 0 }) {
		const opened = new EmacsSession(found, {
			clock: systemClock,
			listener,
			processOf: processOfEmacs(),
			prefix: `pi-ide-${process.pid}-${++installs}-`,
			changed: () => events.changes++,
			closed: () => events.closed++,
		});
		scope.defer(() => opened.close());
		return opened;
	}

	const served = (started: RealEmacs): ServedEmacs => ({
		pid: started.pid,
		startSeconds: 1,
		daemon: false,
		socket: started.socket,
		refused: [],
	});

	/** pi's install in that Emacs, as Emacs itself says: its push process and its symbols. */
	async function piLeft(started: RealEmacs, prefix: string): Promise<string> {
		const answer = await started.eval(
			`(list (length (seq-filter (lambda (p) (string-prefix-p ${JSON.stringify(prefix)} (process-name p))) (process-list))) (let ((n 0)) (mapatoms (lambda (s) (when (and (string-prefix-p ${JSON.stringify(prefix)} (symbol-name s)) (or (fboundp s) (boundp s))) (setq n (1+ n))))) n))`,
		);
		if (!answer.ok) throw new Error(answer.reason);
		return answer.value.trim();
	}

	test("opened: probed, installed with pushes off, read once; cwd from /proc, the project root as evidence", async () => {
		const started = await emacs();
		const one = session(served(started));
		expect(await one.open()).toBe("open");
		const reading = one.reading();
		expect(reading).toMatchObject({ origin: "emacs", pid: started.pid, unsavedFiles: [] });
		expect(reading?.state).toMatchObject({ app: "emacs", cwd: project, active_buffer: { file, language: "python" } });
		expect(reading?.paths.projectRoots).toEqual([project]);
		expect(one.report()).toMatchObject({
			pid: started.pid,
			socket: started.socket,
			version: "28.2",
			frames: 1,
			pushing: false,
			busy: false,
			pushes: { count: 0 },
			file,
			lastRequest: { what: "state" },
		});
		expect(one.hasUi).toBe(true);
	});

	test("pushes on: a key moves the cursor in pi; off: no more pushes, the connection stays", async () => {
		const started = await emacs();
		const events = { changes: 0, closed: 0 };
		const one = session(served(started), events);
		await one.open();
		await one.setPushing(true);
		expect(one.isPushing).toBe(true);
		started.keys("C-n");
		await waitFor("the pushed cursor", () => one.reading()?.state.active_buffer?.cursor?.line === 2);
		expect(one.report().pushes.count).toBeGreaterThan(0);
		await one.setPushing(false);
		const count = one.report().pushes.count;
		started.keys("C-n");
		await new Promise((done) => setTimeout(done, 300));
		expect(one.report().pushes.count).toBe(count);
		expect(one.isOpen).toBe(true);
		expect(events.closed).toBe(0);
	});

	/** Whether keys in Emacs still push: a key, then a while for the push that would follow. */
	async function pushesAfterKey(started: RealEmacs, one: EmacsSession): Promise<boolean> {
		const count = one.report().pushes.count;
		started.keys("C-n");
		await new Promise((done) => setTimeout(done, 300));
		return one.report().pushes.count !== count;
	}

	test("pushes on answered too late (Emacs turned them on after pi gave up), then off: it stops", async () => {
		const started = await emacs();
		const prefix = `pi-ide-${process.pid}-${installs + 1}-`;
		const one = session(served(started));
		await one.open();
		// Emacs reads the request and runs it, but only after pi's timeout: a request Emacs never read (pi's
		// connection closed while a command ran) is not run at all by 28.2, so the delay is put in the request.
		await started.eval(
			`(advice-add (intern ${JSON.stringify(`${prefix}set-pushing`)}) :before (lambda (&rest _) (let ((end (+ (float-time) 1.3))) (while (< (float-time) end)))) '((name . pi-ide-test-slow)))`,
		);
		await one.setPushing(true);
		expect(one.isPushing).toBe(false);
		expect(one.report().lastRequest).toMatchObject({
			what: "pushes on",
			failure: expect.stringContaining("no answer"),
		});
		await started.eval(`(advice-remove (intern ${JSON.stringify(`${prefix}set-pushing`)}) 'pi-ide-test-slow)`);
		await waitFor("a push from the late on", () => pushesAfterKey(started, one), 3000);
		await one.setPushing(false);
		expect(one.report().lastRequest).toMatchObject({ what: "pushes off" });
		expect(one.report().lastRequest?.failure).toBeUndefined();
		expect(await pushesAfterKey(started, one)).toBe(false);
		expect(one.isOpen).toBe(true);
	});

	test("hooks turned on behind pi's back while it wants none (a late on after the off): off asked again", async () => {
		const started = await emacs();
		const prefix = `pi-ide-${process.pid}-${installs + 1}-`;
		const one = session(served(started));
		await one.open();
		// As a busy Emacs runs a timed-out "on" after the "off" that followed it.
		await started.eval(`(funcall (intern ${JSON.stringify(`${prefix}set-pushing`)}) t)`);
		started.keys("C-n");
		await waitFor("off asked", () => one.report().lastRequest?.what === "pushes off");
		await waitFor("no more pushes", async () => !(await pushesAfterKey(started, one)), 3000);
		expect(one.isPushing).toBe(false);
	});

	test("the unsaved list asked now covers a hidden buffer; a busy Emacs is given up at the deadline", async () => {
		const other = join(project, "src", "other.py");
		writeFileSync(other, "x\n");
		const started = await emacs({ files: [other, file] });
		const one = session(served(started));
		await one.open();
		await started.eval(`(with-current-buffer (find-buffer-visiting ${JSON.stringify(other)}) (insert "y"))`);
		expect(await one.unsavedNow(systemClock.nowMs() + GUARD_ASK_MS)).toEqual([other]);
		const held = busyEmacs(started, 3);
		await waitFor("Emacs busy", () => existsSync(busyMarker), 10_000, 10);
		const deadline = systemClock.nowMs() + GUARD_ASK_MS;
		expect(await one.unsavedNow(deadline)).toBeUndefined();
		// Given up at the deadline, not when Emacs answers (2.8 s later at the least): a bound no load crosses.
		expect(systemClock.nowMs() - deadline).toBeLessThan(1000);
		expect(one.isBlocked).toBe(true);
		expect(one.report().lastRequest).toMatchObject({
			what: "unsaved list",
			failure: expect.stringContaining("no answer"),
		});
		// What it said before stands; once it answers again it is not busy.
		expect(one.reading()?.state.active_buffer?.file).toBe(file);
		await held;
		expect(await one.unsavedNow(systemClock.nowMs() + 2000)).toEqual([other]);
		expect(one.isBlocked).toBe(false);
	});

	test("the model's write shown: reverted when unmodified, left alone when modified, nothing when not loaded", async () => {
		const started = await emacs();
		const one = session(served(started));
		await one.open();
		writeFileSync(file, "line1\nchanged\nline3\n");
		expect(await one.reload(file)).toBe("reloaded");
		const text = await started.eval(
			`(with-current-buffer (find-buffer-visiting ${JSON.stringify(file)}) (buffer-string))`,
		);
		expect(text.ok && text.value).toContain("changed");
		await started.eval(`(with-current-buffer (find-buffer-visiting ${JSON.stringify(file)}) (insert "mine"))`);
		expect(await one.reload(file)).toBe("modified");
		expect(await one.reload(join(project, "nowhere.ts"))).toBe("not-loaded");
	});

	test("the model's write while Emacs is busy: reverted once Emacs is heard from again", async () => {
		const started = await emacs();
		const one = session(served(started));
		await one.open();
		await one.setPushing(true);
		const held = busyEmacs(started, 1.5);
		await waitFor("Emacs busy", () => existsSync(busyMarker), 10_000, 10);
		writeFileSync(file, "line1\nwritten while busy\nline3\n");
		expect(await one.reload(file)).toBe("busy");
		await held;
		const bufferText = async () => {
			const text = await started.eval(
				`(with-current-buffer (find-buffer-visiting ${JSON.stringify(file)}) (buffer-string))`,
			);
			return text.ok ? text.value : "";
		};
		expect(await bufferText()).not.toContain("written while busy");
		// A key: Emacs pushes, and the revert it missed is asked again.
		started.keys("C-n");
		await waitFor("the buffer reverted", async () => (await bufferText()).includes("written while busy"), 3000);
	});

	test("the review's channel: runs a chunk, hears its lines, is told when the connection ends", async () => {
		const started = await emacs();
		const one = session(served(started));
		await one.open();
		const channel = one.diffChannel(false);
		if (!channel) throw new Error("no channel");
		expect(channel.prefix).toMatch(/^pi-ide-\d+-\d+-$/);
		const echo = `(lambda (pi-ide-args) (base64-encode-string (encode-coding-string (concat "{\\"echo\\":" (decode-coding-string (base64-decode-string pi-ide-args) 'utf-8 t) "}") 'utf-8 t) t))`;
		expect(await channel.run("echo", echo, { a: 1 })).toEqual({ ok: true, value: { echo: { a: 1 } } });
		const heard: unknown[] = [];
		const unsubscribe = channel.onReviewMessage((message) => heard.push(message));
		await started.eval(
			`(funcall (intern ${JSON.stringify(`${channel.prefix}send`)}) '(("kind" . "review") ("id" . "abc123") ("event" . "shown")))`,
		);
		await waitFor("the review line", () => heard.length === 1);
		expect(heard[0]).toEqual({ kind: "review", id: "abc123", event: "shown" });
		unsubscribe();
		const closed = channel.whenClosed();
		await one.close();
		expect(await closed).toBe("pi closed the connection");
		expect(one.diffChannel(false)).toBeUndefined();
	});

	test("closed by pi: nothing of pi stays in Emacs; kill -9: the session is told at once", async () => {
		const started = await emacs();
		const prefix = `pi-ide-${process.pid}-${installs + 1}-`;
		const one = session(served(started));
		await one.open();
		await one.setPushing(true);
		expect(await piLeft(started, prefix)).not.toBe("(0 0)");
		await one.close();
		await waitFor("pi's elisp gone", async () => (await piLeft(started, prefix)) === "(0 0)", 3000);

		const events = { changes: 0, closed: 0 };
		const again = session(served(started), events);
		await again.open();
		const before = Date.now();
		started.kill();
		await waitFor("told it closed", () => events.closed === 1, 1000);
		expect(Date.now() - before).toBeLessThan(1000);
		expect(again.isOpen).toBe(false);
		expect(again.report().problem).toBe("Emacs closed the connection");
	});

	test("a socket answering as another pid is a failure with its reason; nothing is installed there", async () => {
		const dir = join(root, "fake");
		mkdirSync(dir, { mode: 0o700 });
		const path = join(dir, "server");
		// The request read (resumed), so the connection ends once pi's side closes it.
		const server = createServer((connection) => connection.resume().end('-emacs-pid 1\n-print "x"\n'));
		await new Promise<void>((listening) => server.listen(path, listening));
		scope.defer(() => new Promise((closed) => server.close(closed)));
		const one = session({ pid: 4242, startSeconds: 1, daemon: false, socket: path, refused: [] });
		expect(await one.open()).toBe("failed");
		expect(one.report().problem).toBe("the server answered as pid 1, not 4242");
		expect(one.isOpen).toBe(false);
	});

	test("a daemon with no frame a user sees: connected and read, no UI; a client frame gives it one, live", async () => {
		const daemon = await RealEmacs.startDaemon({ cwd: project, runtimeDir, scope: `emacs-session-${process.pid}` });
		scope.defer(() => daemon.close());
		const prefix = `pi-ide-${process.pid}-${installs + 1}-`;
		const one = session({ pid: daemon.pid, startSeconds: 1, daemon: true, socket: daemon.socket, refused: [] });
		expect(await one.open()).toBe("open");
		expect(one.report()).toMatchObject({ daemon: true, frames: 0, pushing: false });
		expect(one.hasUi).toBe(false);
		expect(await piLeft(daemon, prefix)).toMatch(/^\(1 [1-9]\d*\)$/);
		daemon.clientFrame();
		await waitFor("its frame pushed", () => one.hasUi, 5000);
		expect(one.report()).toMatchObject({ frames: 1, pushing: false });
		expect(one.report().pushes.count).toBeGreaterThan(0);
		await one.close();
		await waitFor("nothing of pi left", async () => (await piLeft(daemon, prefix)) === "(0 0)", 3000);
	});
});
