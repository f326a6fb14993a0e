import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EmacsSnapshot } from "../../../src/editors/emacs/core/snapshot.ts";
import { PushListener } from "../../../src/editors/emacs/push/push-listener.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { PushedEmacs } from "../../support/emacs-push.ts";
import { startOfProcess } from "../../support/process-facts.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const available = requireEmacs("the Emacs line-count tests");

const LINES = 3000;

/**
 * The line numbers a push carries are counted on from what the install kept (the last cursor's line, the
 * buffer's newlines, kept exact through each change by its change hooks): after every kind of change, what is
 * pushed must be what Emacs counts from the start.
 */
describe.skipIf(!available)("line numbers counted on from the last push, as a real Emacs 28.2 counts them", () => {
	const scope = new CleanupScope();
	let emacs: RealEmacs;
	let pushed: PushedEmacs;

	beforeAll(async () => {
		const dir = tempDir("emacs-counts");
		scope.defer(dir.cleanup);
		const file = join(dir.path, "lines.txt");
		writeFileSync(file, Array.from({ length: LINES }, (_, i) => `line ${i + 1}\n`).join(""));
		emacs = await RealEmacs.start({
			cwd: dir.path,
			runtimeDir: join(dir.path, "run"),
			scope: `emacs-counts-${process.pid}`,
			files: [file],
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
		await pushed.waitState("the first push", (s) => s.lines_total === LINES);
	}, 60_000);
	afterAll(() => scope.close());

	/** What Emacs counts from the start: every line of the widened buffer, and the cursor's line. */
	const truth = async (): Promise<[number, number]> => {
		const answer = await emacs.eval(`(with-current-buffer "lines.txt"
		  (save-restriction (widen)
		    (format "%d %d" (count-lines (point-min) (point-max)) (line-number-at-pos (window-point (get-buffer-window))))))`);
		if (!answer.ok) throw new Error(answer.reason);
		const [total, line] = (JSON.parse(answer.value) as string).split(" ").map(Number);
		return [total as number, line as number];
	};
	/**
	 * A change made in Lisp (no command runs), then the push that must say what Emacs counts. A change that
	 * leaves the state as it was is not pushed (the same line as the last sent): the last pushed must then match.
	 */
	const step = async (what: string, lisp: string, key?: string) => {
		const from = pushed.lines.length;
		const answer = await emacs.eval(`(with-current-buffer "lines.txt" ${lisp} 'done)`);
		expect(answer, what).toMatchObject({ ok: true });
		if (key) emacs.keys(key);
		const [total, line] = await truth();
		const counted = (s: EmacsSnapshot | undefined) => s?.lines_total === total && s.cursor.line === line;
		const startedMs = performance.now();
		const state = await waitFor(`${what}: ${total} lines, the cursor on line ${line}`, () => {
			const fresh = pushed.states().slice(from).find(counted);
			if (fresh) return fresh;
			const quiet = pushed.lines.length === from && performance.now() - startedMs > 300;
			return quiet && counted(pushed.latest()) && pushed.latest();
		});
		expect([state.lines_total, state.cursor.line]).toEqual([total, line]);
	};

	test("every kind of change, before, at and after the cursor, with and without the change hooks", async () => {
		await step(
			"the cursor moved to line 2000",
			`(set-window-point (get-buffer-window) (progn (goto-char (point-min)) (forward-line 1999) (point)))`,
			"C-l",
		);
		await step("lines added after the cursor", `(save-excursion (goto-char (point-max)) (insert "a\\nb\\nc\\n"))`);
		await step(
			"lines added before it",
			`(save-excursion (goto-char (point-min)) (forward-line 9) (insert "p\\nq\\n"))`,
		);
		await step(
			"lines taken out before it",
			`(save-excursion (goto-char (point-min)) (forward-line 20) (delete-region (point) (progn (forward-line 7) (point))))`,
		);
		await step(
			"a change inside a line before it",
			`(save-excursion (goto-char (point-min)) (forward-line 5) (insert "inside") (upcase-region (point-min) 200))`,
		);
		await step(
			"the cursor's own line start taken out",
			`(let ((bol (save-excursion (goto-char (window-point (get-buffer-window))) (line-beginning-position)))) (delete-region (- bol 3) (+ bol 2)))`,
		);
		await step("text properties only (no character changed)", `(put-text-property (point-min) 500 'face 'bold)`, "C-l");
		await step(
			"a change with the hooks inhibited: counted again",
			`(let ((inhibit-modification-hooks t)) (save-excursion (goto-char 100) (insert "h\\ni\\nj\\n")))`,
			"C-l",
		);
		await step(
			"another hook's change inside ours: counted again",
			`(let ((nested (lambda (&rest _) (save-excursion (goto-char (point-max)) (insert "\\n\\n")))))
			   (add-hook 'after-change-functions nested nil t)
			   (unwind-protect (save-excursion (goto-char 50) (insert "z"))
			     (remove-hook 'after-change-functions nested t)))`,
		);
		await step(
			"undone",
			`(progn (undo-boundary) (save-excursion (goto-char 300) (insert "u\\nv\\n")) (undo-boundary) (primitive-undo 1 buffer-undo-list))`,
		);
		await step(
			"the last newline taken out: the last line has none",
			`(save-excursion (goto-char (point-max)) (delete-char -1))`,
		);
		await step(
			"a change inside a narrowing: counted in the whole buffer",
			`(progn (narrow-to-region 1000 5000) (save-excursion (goto-char 1200) (insert "n\\nn\\n")))`,
		);
		await step(
			"widened again, the cursor at the end",
			`(progn (widen) (set-window-point (get-buffer-window) (point-max)))`,
			"C-l",
		);
		await step("everything replaced", `(progn (erase-buffer) (insert "one\\ntwo\\nthree"))`);
	}, 60_000);
});
