import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SET_PUSHING_ELISP } from "../../../src/editors/emacs/core/elisp/push-elisp.ts";
import { RELOAD_ELISP, STATE_ELISP, UNSAVED_ELISP } from "../../../src/editors/emacs/core/elisp/state-elisp.ts";
import { EMACS_SNAPSHOT_CAPS } from "../../../src/editors/emacs/core/snapshot.ts";
import { PushListener } from "../../../src/editors/emacs/push/push-listener.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { PushedEmacs, runChunk } from "../../support/emacs-push.ts";
import { startOfProcess } from "../../support/process-facts.ts";
import { FLYCHECK_SITE_LISP, RealEmacs, requireEmacs, requireFlycheck } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const available = requireEmacs("the Emacs push tests");

/** `ab😀 world`: the emoji is 1 character, 2 display columns and 4 bytes. */
const TEXT = "hello\nab\u{1F600} world\nthird line\n";

describe.skipIf(!available)("pi's elisp pushing a real Emacs 28.2's state (emacs -nw in tmux)", () => {
	const scope = new CleanupScope();
	let emacs: RealEmacs;
	let pushed: PushedEmacs;
	let proj: string;
	let main: string;
	let hidden: string;
	const lisp = (expression: string) => emacs.eval(expression);
	const since = () => pushed.lines.length;

	beforeAll(async () => {
		const dir = tempDir("emacs-push");
		scope.defer(dir.cleanup);
		proj = join(dir.path, "proj");
		mkdirSync(join(proj, ".git"), { recursive: true });
		mkdirSync(join(proj, "src"));
		main = join(proj, "src", "main.txt");
		hidden = join(proj, "hidden.txt");
		writeFileSync(main, TEXT);
		writeFileSync(hidden, "hidden\n");
		emacs = await RealEmacs.start({
			cwd: proj,
			runtimeDir: join(dir.path, "run"),
			scope: `emacs-push-${process.pid}`,
			files: [main],
		});
		scope.defer(() => emacs.close());
		const listener = await PushListener.open(
			{ XDG_RUNTIME_DIR: join(dir.path, "run") },
			process.getuid?.() ?? 0,
			startOfProcess(),
		);
		if (typeof listener === "string") throw new Error(listener);
		scope.defer(() => listener.close());
		pushed = await PushedEmacs.install(emacs, listener);
	}, 60_000);
	afterAll(() => scope.close());

	test("the first push comes with the install: the visited file, its project, the frame", async () => {
		const state = await pushed.waitState("the first push", () => true, 0);
		expect(state).toMatchObject({
			file: main,
			name: "main.txt",
			mode: "text-mode",
			cursor: { line: 1, column: 1 },
			modified: false,
			lines_total: 3,
			region: null,
			diagnostics: [],
			unsaved: [],
			project_root: `${proj}/`,
			minibuffer: false,
			frames: 1,
		});
	});

	test("a key reaches pi within the budget; the column counts bytes on a multibyte line", async () => {
		const latencies: number[] = [];
		for (const [keys, column] of [
			[["C-n"], 1],
			[["C-f", "C-f", "C-f"], 7],
			[["C-f"], 8],
			[["C-b"], 7],
			[["C-a"], 1],
			[["C-e"], 13],
			[["C-a"], 1],
			[["C-p"], 1],
		] as const) {
			const from = since();
			const line = column === 1 && keys[0] === "C-p" ? 1 : 2;
			const sent = performance.now();
			emacs.keys(...keys);
			const { state, atMs } = await pushed.waitPush(
				`cursor at ${line}:${column}`,
				(s) => s.cursor.column === column && s.cursor.line === line,
				from,
			);
			latencies.push(atMs - sent);
			expect(state.cursor).toEqual({ line, column });
		}
		latencies.sort((a, b) => a - b);
		const median = latencies[Math.floor(latencies.length / 2)] as number;
		process.stderr.write(`key → pushed line: median ${median.toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms\n`);
		expect(median).toBeLessThan(50);
	});

	test("a region is active while use-region-p (no time: pi takes now), then pushed with its last extent, inactive", async () => {
		const activeAt = Date.now() / 1000;
		emacs.keys("C-n", "C-a", "C-f", "C-f", "C-Space", "C-n", "C-e");
		const active = await pushed.waitState(
			"an active region",
			(s) => s.region?.active === true && s.cursor.line === 3,
			0,
		);
		expect(active.region).toMatchObject({
			start: { line: 2, column: 3 },
			end: { line: 3, column: 10 },
			text: "\u{1F600} world\nthird line",
			selected_at: null,
			whole_lines: false,
			text_cut: false,
		});
		const from = since();
		emacs.keys("C-g");
		const ended = await pushed.waitState("the region ended", (s) => s.region?.active === false, from);
		expect(ended.region).toMatchObject({
			start: active.region?.start,
			end: active.region?.end,
			text: active.region?.text,
		});
		expect(ended.region?.selected_at).toBeGreaterThanOrEqual(activeAt);
		expect(ended.region?.selected_at).toBeLessThanOrEqual(Date.now() / 1000 + 1);
		emacs.keys("M-<");
		await pushed.waitState("back at the top", (s) => s.cursor.line === 1, from);
	});

	test("a region ending at column 1 ends on the line before, at its end", async () => {
		const from = since();
		emacs.keys("M-<", "C-Space", "C-n", "C-n");
		const state = await pushed.waitState(
			"two whole lines",
			(s) => s.region?.active === true && s.cursor.line === 3,
			from,
		);
		expect(state.region).toMatchObject({
			start: { line: 1, column: 1 },
			end: { line: 2, column: 12 },
			text: "hello\nab\u{1F600} world",
			whole_lines: true,
		});
		// A tty Emacs discards the input after a C-g (a quit): the next key goes once the quit is seen.
		emacs.keys("C-g");
		await pushed.waitState("no region", (s) => s.region?.active === false, from);
		emacs.keys("M-<");
		await pushed.waitState("back at the top", (s) => s.cursor.line === 1, from);
	});

	test("a change made by Lisp (no command runs) is pushed: lines, modified, the unsaved list", async () => {
		const from = since();
		await lisp(`(with-current-buffer "main.txt" (save-excursion (goto-char (point-max)) (insert "fourth\\n")))`);
		const state = await pushed.waitState("the Lisp change", (s) => s.lines_total === 4, from);
		expect(state).toMatchObject({ file: main, modified: true, unsaved: [main] });
		await lisp(`(with-current-buffer "main.txt" (let ((inhibit-message t)) (save-buffer)))`);
		const saved = await pushed.waitState("the save", (s) => !s.modified, from);
		expect(saved.unsaved).toEqual([]);
		expect(readFileSync(main, "utf8")).toBe(`${TEXT}fourth\n`);
	});

	test("a hidden buffer's unsaved changes are listed while another file is shown", async () => {
		const from = since();
		await lisp(`(with-current-buffer (find-file-noselect ${JSON.stringify(hidden)}) (insert "x"))`);
		const state = await pushed.waitState("the hidden change", (s) => s.unsaved.length === 1, from);
		expect(state).toMatchObject({ file: main, modified: false, unsaved: [hidden] });
		expect(await runChunk(emacs, UNSAVED_ELISP, {})).toEqual({ ok: true, value: { unsaved: [hidden] } });
		await lisp(
			`(with-current-buffer (get-file-buffer ${JSON.stringify(hidden)}) (set-buffer-modified-p nil) (kill-buffer))`,
		);
		const killed = await pushed.waitState("the hidden buffer killed", (s) => s.unsaved.length === 0, from);
		expect(killed.file).toBe(main);
	});

	test("in the minibuffer: said so, and the file is the window the user came from", async () => {
		const from = since();
		emacs.keys("M-x");
		const state = await pushed.waitState("the minibuffer", (s) => s.minibuffer, from);
		expect(state.file).toBe(main);
		const read = await runChunk(emacs, STATE_ELISP, { caps: EMACS_SNAPSHOT_CAPS });
		expect(read).toMatchObject({ ok: true, value: { minibuffer: true, file: main } });
		emacs.keys("C-g");
		await pushed.waitState("out of the minibuffer", (s) => !s.minibuffer, from);
	});

	test("a Flymake diagnostic from a backend defined here reaches pi with no key pressed", async () => {
		const from = since();
		// Line 2 is "ab😀 world": " world" starts at byte column 7 (a, b, 4 bytes of the emoji).
		const answer = await lisp(`(progn
		  (require 'flymake)
		  (defun pi-ide-test-backend (report &rest _)
		    (save-excursion
		      (goto-char (point-min)) (search-forward " world")
		      (funcall report (list (flymake-make-diagnostic (current-buffer) (match-beginning 0) (match-end 0) :error "a bad world")
		                            (flymake-make-diagnostic (current-buffer) 1 3 :warning "hello?")))))
		  (with-current-buffer "main.txt"
		    (add-hook 'flymake-diagnostic-functions #'pi-ide-test-backend nil t)
		    (let ((flymake-start-on-flymake-mode nil)) (flymake-mode 1))
		    (flymake-start))
		  'started)`);
		expect(answer).toMatchObject({ ok: true, value: "started" });
		const state = await pushed.waitState("the diagnostics", (s) => s.diagnostics.length === 2, from);
		expect(state.diagnostics).toEqual([
			{
				severity: "error",
				line: 2,
				column: 7,
				end_line: 2,
				end_column: 13,
				message: "a bad world",
				source: "pi-ide-test-backend",
			},
			{
				severity: "warning",
				line: 1,
				column: 1,
				end_line: 1,
				end_column: 3,
				message: "hello?",
				source: "pi-ide-test-backend",
			},
		]);
		await lisp(`(with-current-buffer "main.txt" (flymake-mode -1))`);
		await waitFor("Flymake off", async () => (await lisp("(bound-and-true-p flymake-mode)")).ok);
	});

	test("the file is the most recently used window visiting a local file: a non-file or TRAMP buffer is passed over", async () => {
		const from = since();
		await lisp(`(progn (split-window) (other-window 1) (switch-to-buffer "*scratch*") 'done)`);
		// The selected window shows *scratch*: the state stays main.txt's (its window was used last of those with a file).
		const read = await runChunk(emacs, STATE_ELISP, { caps: EMACS_SNAPSHOT_CAPS });
		expect(read).toMatchObject({ ok: true, value: { file: main, name: "main.txt", mode: "text-mode" } });
		await lisp(`(progn (delete-other-windows) 'done)`);
		await pushed.waitState("one window: *scratch* alone", (s) => s.file === null, from);
		expect(pushed.latest()).toMatchObject({ file: null, name: "*scratch*", project_root: null });
		await lisp(
			`(with-current-buffer (get-buffer-create "remote") (setq buffer-file-name "/ssh:pi-ide-nohost:/tmp/x.txt") (switch-to-buffer (current-buffer)) 'done)`,
		);
		await pushed.waitState("the remote buffer shown, never its file", (s) => s.name === "remote", from);
		expect(pushed.latest()).toMatchObject({ file: null, name: "remote" });
		await lisp(`(progn (kill-buffer "remote") (switch-to-buffer "main.txt") 'done)`);
		await pushed.waitState("main.txt again", (s) => s.file === main, from);
	});

	test("nothing pi runs writes to the echo area or *Messages*", async () => {
		const messages = `(list (with-current-buffer (messages-buffer) (buffer-size)) (current-message))`;
		const before = await lisp(messages);
		expect(await runChunk(emacs, STATE_ELISP, { caps: EMACS_SNAPSHOT_CAPS })).toMatchObject({ ok: true });
		expect(await runChunk(emacs, UNSAVED_ELISP, {})).toMatchObject({ ok: true });
		writeFileSync(main, readFileSync(main));
		expect(await runChunk(emacs, RELOAD_ELISP, { file: main })).toMatchObject({ value: { result: "reloaded" } });
		expect(await runChunk(emacs, SET_PUSHING_ELISP, { prefix: pushed.prefix, push: false })).toMatchObject({
			ok: true,
		});
		expect(await runChunk(emacs, SET_PUSHING_ELISP, { prefix: pushed.prefix, push: true })).toMatchObject({ ok: true });
		const from = since();
		await lisp(`(with-current-buffer "main.txt" (insert "z"))`);
		await pushed.waitState("the change", (s) => s.modified, from);
		await lisp(`(with-current-buffer "main.txt" (delete-char -1) (set-buffer-modified-p nil))`);
		await pushed.waitState("unmodified", (s) => !s.modified, from);
		expect(await lisp(messages)).toEqual(before);
	});

	const flycheckDir = FLYCHECK_SITE_LISP;
	test.skipIf(!requireFlycheck("the Flycheck push test"))(
		"a Flycheck error from a checker defined here reaches pi at the end of its check",
		async () => {
			const from = since();
			const answer = await lisp(`(progn
			  (dolist (dir (directory-files ${JSON.stringify(flycheckDir)} t "^[a-z]")) (add-to-list 'load-path dir))
			  (require 'flycheck)
			  (flycheck-define-generic-checker 'pi-ide-test-checker "A checker of the test's."
			    :start (lambda (checker callback)
			             (funcall callback 'finished
			                      (list (flycheck-error-new-at 2 4 'warning "fc world" :checker checker))))
			    :modes '(text-mode))
			  (with-current-buffer "main.txt"
			    (setq-local flycheck-checkers '(pi-ide-test-checker))
			    (flycheck-mode 1)
			    (flycheck-buffer))
			  'started)`);
			expect(answer).toMatchObject({ ok: true, value: "started" });
			const state = await pushed.waitState(
				"Flycheck's error",
				(s) => s.diagnostics.some((d) => d.message === "fc world"),
				from,
			);
			// Column 4 counts characters (Flycheck's): the emoji's 4 bytes make it byte column 7.
			expect(state.diagnostics).toContainEqual({
				severity: "warning",
				line: 2,
				column: 7,
				end_line: 2,
				end_column: 7,
				message: "fc world",
				source: "pi-ide-test-checker",
			});
			await lisp(`(with-current-buffer "main.txt" (flycheck-mode -1))`);
		},
	);
});
