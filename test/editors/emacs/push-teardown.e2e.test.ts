import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INSTALL_ELISP, SET_PUSHING_ELISP } from "../../../src/editors/emacs/core/elisp/push-elisp.ts";
import { EMACS_SNAPSHOT_CAPS } from "../../../src/editors/emacs/core/snapshot.ts";
import { PushListener } from "../../../src/editors/emacs/push/push-listener.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { freshPrefix, PushedEmacs, runChunk } from "../../support/emacs-push.ts";
import { rawPeer } from "../../support/emacs-raw-peer.ts";
import { startOfProcess } from "../../support/process-facts.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const available = requireEmacs("the Emacs push teardown tests");

/** Everything of one install Emacs still holds: hook entries, timers, processes, advice, symbols. */
const residueOf = (prefix: string) => `(let ((prefix ${JSON.stringify(prefix)}) (found nil))
  (dolist (hook '(post-command-hook before-change-functions after-change-functions window-selection-change-functions
                  window-buffer-change-functions after-save-hook after-revert-hook kill-buffer-hook
                  after-load-functions flycheck-after-syntax-check-hook
                  after-make-frame-functions delete-frame-functions))
    (when (and (boundp hook) (string-match-p (regexp-quote prefix) (format "%S" (default-value hook))))
      (push (symbol-name hook) found)))
  (when (string-match-p (regexp-quote prefix) (format "%S" (list timer-list timer-idle-list)))
    (push "timer" found))
  (dolist (process (process-list))
    (when (string-prefix-p prefix (process-name process)) (push "process" found)))
  (when (string-match-p (regexp-quote prefix)
                        (format "%S" (list (symbol-function 'flymake--handle-report)
                                           (symbol-plist 'flymake--handle-report))))
    (push "advice" found))
  (mapatoms (lambda (symbol) (when (string-prefix-p prefix (symbol-name symbol)) (push "symbol" found))))
  (mapconcat #'identity (delete-dups found) " "))`;

describe.skipIf(!available)("pi's elisp leaves nothing behind in a real Emacs 28.2", () => {
	const scope = new CleanupScope();
	let emacs: RealEmacs;
	let root: string;
	let runtimeDir: string;
	const residue = async (prefix: string) => {
		const answer = await emacs.eval(residueOf(prefix));
		if (!answer.ok) throw new Error(answer.reason);
		return JSON.parse(answer.value) as string;
	};
	const newListener = async () => {
		const listener = await PushListener.open(
			{ XDG_RUNTIME_DIR: runtimeDir },
			process.getuid?.() ?? 0,
			startOfProcess(),
		);
		if (typeof listener === "string") throw new Error(listener);
		scope.defer(() => listener.close());
		return listener;
	};

	beforeAll(async () => {
		const dir = tempDir("emacs-teardown");
		scope.defer(dir.cleanup);
		root = dir.path;
		runtimeDir = join(root, "run");
		mkdirSync(join(root, "proj"));
		const file = join(root, "proj", "a.txt");
		writeFileSync(file, "one\ntwo\n");
		emacs = await RealEmacs.start({
			cwd: join(root, "proj"),
			runtimeDir,
			scope: `emacs-teardown-${process.pid}`,
			files: [file],
		});
		scope.defer(() => emacs.close());
	}, 60_000);
	afterAll(() => scope.close());

	test("pi's close of the connection removes hooks, advice, timer, process and functions", async () => {
		// Flymake is not loaded: the advice waits on the symbol's plist (advice--pending and two more entries).
		const plist = "(list (fboundp 'flymake--handle-report) (symbol-plist 'flymake--handle-report))";
		expect(await emacs.eval(plist)).toMatchObject({ ok: true, value: "(nil nil)\n" });
		const pushed = await PushedEmacs.install(emacs, await newListener());
		await pushed.waitState("the first push", () => true);
		emacs.keys("C-n");
		await pushed.waitState("a key", (s) => s.cursor.line === 2);
		await emacs.eval(`(with-current-buffer "a.txt" (insert "x"))`);
		await pushed.waitState("the change", (s) => s.modified);
		expect((await residue(pushed.prefix)).split(" ").sort()).toEqual(
			[
				"advice",
				"before-change-functions",
				"after-change-functions",
				"after-load-functions",
				"after-make-frame-functions",
				"delete-frame-functions",
				"after-revert-hook",
				"after-save-hook",
				"kill-buffer-hook",
				"post-command-hook",
				"process",
				"symbol",
				"window-buffer-change-functions",
				"window-selection-change-functions",
			].sort(),
		);
		// What a review adds under the same prefix (review/core/emacs-diff-elisp.ts): its close runs, its names go.
		await emacs.eval(`(progn (defvar ${pushed.prefix}review-keys (make-sparse-keymap))
		  (fset '${pushed.prefix}review-close (lambda () (setq pi-ide-test-reviews-closed t))) nil)`);
		const closedAt = performance.now();
		pushed.peer.close();
		await waitFor("nothing of the install left", async () => (await residue(pushed.prefix)) === "");
		process.stderr.write(`teardown after pi's close: ${(performance.now() - closedAt).toFixed(0)} ms\n`);
		expect(await emacs.eval("(bound-and-true-p pi-ide-test-reviews-closed)")).toMatchObject({ value: "t" });
		// advice-remove alone leaves (advice--pending nil function-documentation (advice--make-docstring ...)
		// defalias-fset-function nil) there (checked in 28.2): pi takes off what its advice-add put.
		expect(await emacs.eval(plist)).toMatchObject({ ok: true, value: "(nil nil)\n" });
		await emacs.eval(`(with-current-buffer "a.txt" (delete-char -1) (set-buffer-modified-p nil))`);
		expect(pushed.closedReason).toBeUndefined();
	});

	test("pi's listener closing (pi exits) and pi killed with -9 tear it down too", async () => {
		const listener = await PushListener.open(
			{ XDG_RUNTIME_DIR: runtimeDir },
			process.getuid?.() ?? 0,
			startOfProcess(),
		);
		if (typeof listener === "string") throw new Error(listener);
		const pushed = await PushedEmacs.install(emacs, listener);
		await listener.close();
		await waitFor("nothing left after the listener closed", async () => (await residue(pushed.prefix)) === "");

		const socket = join(root, "child-pi.sock");
		const child = spawn(
			process.execPath,
			[
				"-e",
				`require("net").createServer((s) => s.resume()).listen(${JSON.stringify(socket)}, () => console.log("ready"))`,
			],
			{ stdio: ["ignore", "pipe", "ignore"] },
		);
		scope.defer(() => child.kill("SIGKILL"));
		await new Promise((ready) => child.stdout?.once("data", ready));
		const prefix = freshPrefix();
		const args = { socket, token: "ab12", prefix, push: true, debounce_ms: 10, caps: EMACS_SNAPSHOT_CAPS };
		expect(await runChunk(emacs, INSTALL_ELISP, args)).toEqual({ ok: true, value: { ok: true } });
		expect(await residue(prefix)).toContain("process");
		child.kill("SIGKILL");
		await waitFor("nothing left after pi's SIGKILL", async () => (await residue(prefix)) === "");
	});

	test("installing again with the same prefix replaces the older install: one of everything", async () => {
		const listener = await newListener();
		const first = await PushedEmacs.install(emacs, listener);
		const second = await PushedEmacs.install(emacs, listener, { prefix: first.prefix });
		await waitFor("the first connection closed by Emacs", () => first.closedReason !== undefined);
		const hooks = await emacs.eval(
			`(list (cl-count '${first.prefix}changed post-command-hook) (length (seq-filter (lambda (p) (string-prefix-p ${JSON.stringify(first.prefix)} (process-name p))) (process-list))))`,
		);
		expect(hooks).toMatchObject({ ok: true, value: "(1 1)\n" });
		const from = second.lines.length;
		const firstCount = first.lines.length;
		emacs.keys("C-p");
		await second.waitState("a key pushed to the second", (s) => s.cursor.line === 1, from);
		expect(first.lines.length).toBe(firstCount);
		second.peer.close();
		await waitFor("nothing left", async () => (await residue(second.prefix)) === "");
	});

	test("pushes off and on again: the connection stays, the hooks go and come back", async () => {
		const pushed = await PushedEmacs.install(emacs, await newListener(), { push: false });
		// The frame hooks stay while installed: a frame made or deleted is pushed, pushes on or off.
		const installed = ["after-make-frame-functions", "delete-frame-functions", "process", "symbol"];
		expect((await residue(pushed.prefix)).split(" ").sort()).toEqual(installed);
		emacs.keys("C-n");
		await emacs.eval("(+ 1 1)");
		expect(pushed.lines).toEqual([]);
		expect(await runChunk(emacs, SET_PUSHING_ELISP, { prefix: pushed.prefix, push: true })).toEqual({
			ok: true,
			value: { ok: true },
		});
		await pushed.waitState("a push as pushes start", () => true);
		expect(await runChunk(emacs, SET_PUSHING_ELISP, { prefix: pushed.prefix, push: false })).toEqual({
			ok: true,
			value: { ok: true },
		});
		expect((await residue(pushed.prefix)).split(" ").sort()).toEqual(installed);
		expect(pushed.peer.connected).toBe(true);
		expect(await runChunk(emacs, SET_PUSHING_ELISP, { prefix: "pi-ide-1-999-", push: true })).toEqual({
			ok: true,
			value: { error: "pi's elisp is not installed in this Emacs" },
		});
		pushed.peer.close();
		await waitFor("nothing left", async () => (await residue(pushed.prefix)) === "");
	});

	test("pushes off, a frame made and deleted is pushed; a timer pending at pi's close is cancelled", async () => {
		const pushed = await PushedEmacs.install(emacs, await newListener(), { push: false });
		const made = await emacs.eval("(progn (setq pi-ide-test-frame (make-frame)) (length (frame-list)))");
		expect(made).toMatchObject({ ok: true, value: "2" });
		await pushed.waitState("the frame made", (s) => s.frames === 2);
		// Deleted from a server request, as `emacsclient` closing a frame is: its hook runs while it still exists,
		// and a hook after pi's that waits runs pi's timer there: the frame is counted only once it is gone.
		const waiting = "(lambda (_frame) (sleep-for 0.1))";
		await emacs.eval(`(progn (add-hook 'delete-frame-functions ${waiting} t) (delete-frame pi-ide-test-frame)
		  (remove-hook 'delete-frame-functions ${waiting}))`);
		await pushed.waitState("the frame deleted, not counted", (s) => s.frames === 1);
		expect(pushed.states().map((s) => s.frames)).toEqual([2, 1]);
		// A debounce longer than the test: the frame's push still pending when pi closes the connection.
		const slow = await PushedEmacs.install(emacs, await newListener(), { push: false, debounceMs: 10_000 });
		await emacs.eval("(setq pi-ide-test-frame (make-frame))");
		expect(await residue(slow.prefix)).toContain("timer");
		slow.peer.close();
		await waitFor("nothing left, the timer too", async () => (await residue(slow.prefix)) === "");
		await emacs.eval("(delete-frame pi-ide-test-frame)");
		expect(slow.lines).toEqual([]);
		pushed.peer.close();
		await waitFor("nothing left", async () => (await residue(pushed.prefix)) === "");
	});

	test("hostile arguments stay data: a bad prefix or token is refused, a hostile socket path works", async () => {
		const base = { push: true, debounce_ms: 10, caps: EMACS_SNAPSHOT_CAPS };
		const refused = async (args: Record<string, unknown>, error: string) =>
			expect(await runChunk(emacs, INSTALL_ELISP, { ...base, ...args })).toEqual({ ok: true, value: { error } });
		await refused({ socket: "/x", token: "ab", prefix: 'pi-ide-1-2-") (kill-emacs) ("' }, "pi-ide: a bad prefix");
		await refused({ socket: "/x", token: "ab", prefix: "pi-ide-1-2-\npi-ide-1-2-" }, "pi-ide: a bad prefix");
		await refused({ socket: "/x", token: "ab\n(kill-emacs)", prefix: freshPrefix() }, "pi-ide: a bad token");
		await refused({ socket: "/x", token: "ab", prefix: "PI-IDE-1-2-" }, "pi-ide: a bad prefix");
		await refused({ socket: "/x", token: "AB", prefix: freshPrefix() }, "pi-ide: a bad token");
		await refused({ socket: "relative", token: "ab", prefix: freshPrefix() }, "pi-ide: a bad socket path");
		const nobody = freshPrefix();
		const dead = await runChunk(emacs, INSTALL_ELISP, {
			...base,
			socket: join(root, "nobody.sock"),
			token: "ab",
			prefix: nobody,
		});
		expect(dead).toMatchObject({ ok: true, value: { error: expect.stringContaining("nobody.sock") } });
		expect(await residue(nobody)).toBe("");

		const dir = join(root, 'a b"\n-&&n\\');
		mkdirSync(dir);
		const socket = join(dir, "-eval ü😀");
		const server = await rawPeer(socket, scope);
		const prefix = freshPrefix();
		const args = {
			...base,
			socket,
			token: "c0ffee",
			prefix,
			debounce_ms: "soon",
			caps: { selection_bytes: "all", diagnostics: -1 },
		};
		expect(await runChunk(emacs, INSTALL_ELISP, args)).toEqual({ ok: true, value: { ok: true } });
		await waitFor("the hello and a state", () => server.lines.length >= 2);
		expect(server.lines[0]).toBe("c0ffee");
		expect(JSON.parse(server.lines[1] as string)).toMatchObject({ kind: "state", state: { file: expect.any(String) } });
		for (const connection of server.sockets) connection.destroy();
		await waitFor("nothing left", async () => (await residue(prefix)) === "");
		expect(await emacs.eval("(+ 1 2)")).toMatchObject({ ok: true, value: "3" });
	});
});
