import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PROBE_ELISP } from "../../../src/editors/emacs/core/elisp/probe-elisp.ts";
import { RELOAD_ELISP, STATE_ELISP, UNSAVED_ELISP } from "../../../src/editors/emacs/core/elisp/state-elisp.ts";
import { EMACS_SNAPSHOT_CAPS } from "../../../src/editors/emacs/core/snapshot.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { runChunk } from "../../support/emacs-push.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";

const available = requireEmacs("the Emacs one-read chunk tests");

const TEXT = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join("");

describe.skipIf(!available)("pi's one-shot chunks in a real Emacs 28.2: the reload, the state read, lexically", () => {
	const scope = new CleanupScope();
	let emacs: RealEmacs;
	let main: string;
	const lisp = async (expression: string) => {
		const answer = await emacs.eval(`(with-current-buffer "main.txt" ${expression})`);
		if (!answer.ok) throw new Error(answer.reason);
		return answer.value;
	};
	const reload = async (file = main) => runChunk(emacs, RELOAD_ELISP, { file });

	beforeAll(async () => {
		const dir = tempDir("emacs-chunks");
		scope.defer(dir.cleanup);
		mkdirSync(join(dir.path, "proj", ".git"), { recursive: true });
		main = join(dir.path, "proj", "main.txt");
		writeFileSync(main, TEXT);
		emacs = await RealEmacs.start({
			cwd: join(dir.path, "proj"),
			runtimeDir: join(dir.path, "run"),
			scope: `emacs-chunks-${process.pid}`,
			files: [main],
		});
		scope.defer(() => emacs.close());
		// What a user's hooks see while pi's chunks run them: none of the chunks' own variables.
		await emacs.eval(`(progn
		  (setq pi-ide-test-seen nil pi-ide-test-reverts 0)
		  (defun pi-ide-test-look (&rest _)
		    (push (seq-filter #'boundp '(file buffer window args caps memory restriction found count)) pi-ide-test-seen)
		    nil)
		  (add-hook 'after-revert-hook (lambda () (setq pi-ide-test-reverts (1+ pi-ide-test-reverts))))
		  (add-hook 'after-revert-hook #'pi-ide-test-look)
		  (add-hook 'project-find-functions #'pi-ide-test-look)
		  'done)`);
	}, 60_000);
	afterAll(() => scope.close());

	test("the model's write: reverted, point on its text; unchanged with no write since; modified; not loaded", async () => {
		await lisp("(set-window-point (get-buffer-window) (progn (goto-char (point-min)) (forward-line 2) (point)))");
		writeFileSync(main, `inserted\n${readFileSync(main, "utf8")}`);
		expect(await reload()).toEqual({ ok: true, value: { result: "reloaded" } });
		expect(await lisp("(list (line-number-at-pos (window-point (get-buffer-window))) pi-ide-test-reverts)")).toBe(
			"(4 1)\n",
		);
		expect(await reload()).toEqual({ ok: true, value: { result: "unchanged" } });
		expect(await lisp("pi-ide-test-reverts")).toBe("1");
		await lisp(`(insert "y")`);
		expect(await reload()).toEqual({ ok: true, value: { result: "modified" } });
		await lisp("(progn (delete-char -1) (set-buffer-modified-p nil))");
		expect(await reload(join(main, "..", "never-opened.txt"))).toEqual({ ok: true, value: { result: "not-loaded" } });
	});

	test("a narrowed buffer keeps its narrowing over the same text after the revert (which widens)", async () => {
		await lisp(`(progn (goto-char (point-min)) (forward-line 4)
		  (narrow-to-region (point) (progn (forward-line 3) (point))) (goto-char (point-min)) nil)`);
		const shown = "(list (buffer-narrowed-p) (buffer-substring-no-properties (point-min) (point-max)) (point))";
		const before = await lisp(shown);
		expect(before).toContain('"line 4\\nline 5\\nline 6\\n"');
		// The model's line before the restriction, then its change inside it: the restriction follows its text.
		writeFileSync(main, readFileSync(main, "utf8").replace("line 1\n", "line 0\nline 1\n"));
		expect(await reload()).toEqual({ ok: true, value: { result: "reloaded" } });
		expect(await lisp(shown)).toMatch(/^\(t "line 4\\nline 5\\nline 6\\n" \d+\)/);
		writeFileSync(main, readFileSync(main, "utf8").replace("line 5\n", "line 5!\n"));
		expect(await reload()).toEqual({ ok: true, value: { result: "reloaded" } });
		expect(await lisp(shown)).toMatch(/^\(t "line 4\\nline 5!\\nline 6\\n" \d+\)/);
		await lisp("(widen)");
	});

	test("the chunks run lexically: a hook they run sees none of their variables", async () => {
		await emacs.eval("(setq pi-ide-test-seen nil)");
		writeFileSync(main, readFileSync(main, "utf8"));
		expect(await reload()).toMatchObject({ value: { result: "reloaded" } });
		expect(await runChunk(emacs, STATE_ELISP, { caps: EMACS_SNAPSHOT_CAPS })).toMatchObject({
			ok: true,
			value: { file: main },
		});
		expect(await runChunk(emacs, UNSAVED_ELISP, {})).toEqual({ ok: true, value: { unsaved: [] } });
		expect(await runChunk(emacs, PROBE_ELISP, { a: 1 })).toMatchObject({ ok: true, value: { args: { a: 1 } } });
		// The revert's hook and project.el's (the state read's project root) both ran, each seeing nothing.
		expect(await emacs.eval("pi-ide-test-seen")).toMatchObject({ ok: true, value: "(nil nil)\n" });
	});

	test("the state read: an active region has no time and says whether it is whole lines", async () => {
		await lisp(`(progn (goto-char (point-min)) (forward-line 1) (push-mark (point) t t) (forward-line 2)
		  (set-window-point (get-buffer-window) (point)) nil)`);
		const read = await runChunk(emacs, STATE_ELISP, { caps: EMACS_SNAPSHOT_CAPS });
		expect(read).toMatchObject({
			ok: true,
			value: {
				region: {
					start: { line: 2, column: 1 },
					end: { line: 3, column: 6 },
					active: true,
					selected_at: null,
					whole_lines: true,
					text_cut: false,
				},
			},
		});
		await lisp("(deactivate-mark)");
	});

	test("frames a user sees: a child frame (a posframe's) is not one", async () => {
		const frames = async () => {
			const probe = await runChunk(emacs, PROBE_ELISP, {});
			return probe.ok ? (probe.value as { frames: number }).frames : -1;
		};
		expect(await frames()).toBe(1);
		await emacs.eval("(setq pi-ide-test-frame (make-frame))");
		expect(await frames()).toBe(2);
		// A terminal frame cannot be a child; the parameter alone is what the elisp reads.
		await emacs.eval("(set-frame-parameter pi-ide-test-frame 'parent-frame (selected-frame))");
		const parent = await emacs.eval("(frame-parameter pi-ide-test-frame 'parent-frame)");
		if (parent.ok && parent.value !== "nil") {
			expect(await frames()).toBe(1);
			expect(await runChunk(emacs, STATE_ELISP, { caps: EMACS_SNAPSHOT_CAPS })).toMatchObject({ value: { frames: 1 } });
		}
		await emacs.eval("(delete-frame pi-ide-test-frame)");
		expect(await frames()).toBe(1);
	});
});
