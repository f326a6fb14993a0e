/**
 * Emacs through the real pi, with nothing installed in Emacs: pi finds each Emacs in /proc, talks to the server
 * it runs (`server-start`), and pi's elisp connects back and pushes the editor's state. The Emacsen are plain
 * `emacs -nw -Q` in tmux, driven by keys as typed; their sockets are in the test's runtime dir, seen only by the
 * test's pi (the /proc scope).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { EmacsE2e, evalOk, evalText, pushesReceived } from "../support/emacs-e2e.ts";
import { writerModel } from "../support/fake-model-server.ts";
import { processesLinePattern, processFactsLines } from "../support/pi-cli.ts";
import { requireEmacs } from "../support/real-emacs.ts";
import { waitFor } from "../support/wait-for.ts";

const available = requireEmacs("the Emacs end-to-end tests");

/**
 * A Flymake backend of the test's own (not pi's: its name has no `pi-ide-` prefix), reporting one error on
 * line 2, on in that file's buffer only.
 */
const lintIn = (file: string, text: string) => `(with-current-buffer (find-buffer-visiting ${JSON.stringify(file)})
  (require 'flymake)
  (defun test-lint (report &rest _)
    (funcall report (if (boundp 'test-lint-off) nil
                      (save-excursion
                        (goto-char (point-min))
                        (forward-line 1)
                        (list (flymake-make-diagnostic (current-buffer) (point) (line-end-position)
                                                       :error ${JSON.stringify(text)}))))))
  (setq-local flymake-diagnostic-functions (list #'test-lint))
  (flymake-mode 1)
  (flymake-start)
  t)`;

describe.skipIf(!available).each(processFactsLines())("Emacs's own server through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const e2e = new EmacsE2e(ws, line, "emacs-e2e");
	const main = () => join(ws.project, "src", "main.ts");

	test.skipIf(!line.node)(
		"a plain emacs -nw in the project connects on its own; region, cursor and a Flymake diagnostic reach the widget and the model; C-x C-c clears",
		async () => {
			const emacs = await e2e.emacs();
			const rpc = e2e.startPi();
			await e2e.live(rpc, "in main.ts");
			// Line 2, the mark set, down one line and to its end: lines 2-3, as typed.
			emacs.keys("M-<", "C-n", "C-Space", "C-n", "C-e");
			await rpc.waitForWidget("2 lines selected in main.ts", 3000);
			expect(await evalOk(emacs, lintIn(main(), "Undefined variable 'x'"))).toBe("t");
			// A prompt uses what Emacs pushed last: wait for the report's push.
			await waitFor("the diagnostic pushed", async () =>
				(await rpc.ideStatus()).join("\n").includes("(1 errors, 0 warnings)"),
			);
			await rpc.prompt("what is selected?");
			const sent = ws.lastContext();
			expect(sent).toContain("App: emacs");
			expect(sent).toContain(`File: ${main()}`);
			expect(sent).toContain("Selection: lines 2-3 (from line 2 column 1 to line 3 column 5)");
			expect(sent).toContain("line2\nline3");
			expect(sent).toContain("Cursor: line 3, column 6");
			expect(sent).toContain("Diagnostics: 1 error, 0 warnings\n- line 2: error: Undefined variable 'x' [test-lint]");
			// Sent once: the next prompt does not repeat it; gone, it says so.
			await rpc.prompt("and again?");
			expect(ws.lastContext()).not.toContain("Undefined variable");
			await evalOk(
				emacs,
				`(with-current-buffer (find-buffer-visiting ${JSON.stringify(main())}) (defvar test-lint-off t) (flymake-start) t)`,
			);
			await waitFor("no diagnostics pushed", async () =>
				(await rpc.ideStatus()).join("\n").includes("(0 errors, 0 warnings)"),
			);
			await rpc.prompt("and now?");
			expect(ws.lastContext()).toContain("Diagnostics: none now");

			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toContain(`Connected: emacs ${emacs.pid}: auto-connected: the only live editor in tier 0`);
			expect(status).toContain(`emacs ${emacs.pid}: ${emacs.socket} (Emacs 28`);
			expect(status).toContain("pushes: live");
			expect(status).toMatch(processesLinePattern(line));
			// Nothing of pi's in the echo area or *Messages*.
			expect(await evalOk(emacs, "(current-message)")).toBe("nil");
			expect(await evalText(emacs, `(with-current-buffer "*Messages*" (buffer-string))`)).not.toMatch(/pi-ide|error/i);

			// C-g quits, and a quit drops the keys typed ahead of it: the region goes first, then C-x C-c.
			emacs.keys("C-g");
			await waitFor(
				"the region gone",
				async () => (await evalOk(emacs, "(with-current-buffer (window-buffer) (region-active-p))")) === "nil",
			);
			emacs.keys("C-x", "C-c");
			await rpc.waitForWidget("(cleared)", 3000);
		},
	);

	test.skipIf(!line.node)(
		"a region stays fresh after C-g for its 60 s, then stale; byte columns on a multibyte line",
		async () => {
			writeFileSync(join(ws.project, "src", "wide.ts"), "aé✓b\nline2\n");
			const emacs = await e2e.emacs({ files: ["src/wide.ts"] });
			const rpc = e2e.startPi();
			await e2e.live(rpc, "in wide.ts");
			// From é to past ✓: 2 and 3 bytes in UTF-8, so the cursor on b is byte column 7.
			emacs.keys("C-a", "C-f", "C-Space", "C-f", "C-f");
			await rpc.waitForWidget("1 line selected in wide.ts", 3000);
			await rpc.prompt("what is selected?");
			let sent = ws.lastContext();
			expect(sent).toContain("Selection: line 1 (from line 1 column 2 to line 1 column 6)");
			expect(sent).toContain("é✓");
			expect(sent).toContain("Cursor: line 1, column 7");

			// Emacs's clock 55 s behind while the region is made and left: it ends 5 s before its 60 s are up.
			// The real pi has no clock to move; Emacs's `float-time`, which the elisp reads, is the test's to set.
			// It stays behind to the end: the region's end is timed whenever its push runs.
			emacs.keys("C-g");
			await waitFor(
				"the region gone",
				async () => (await evalOk(emacs, "(with-current-buffer (window-buffer) (region-active-p))")) === "nil",
			);
			await evalOk(emacs, `(advice-add 'float-time :filter-return (lambda (now) (- now 55)) '((name . test-clock)))`);
			ws.defer(() => emacs.eval(`(advice-remove 'float-time 'test-clock)`).catch(() => {}));
			emacs.keys("M-<", "C-Space", "C-n", "C-e");
			await rpc.waitForWidget("2 lines selected in wide.ts", 3000);
			const before = await pushesReceived(rpc);
			emacs.keys("C-g");
			await waitFor("the region's end pushed", async () => (await pushesReceived(rpc)) > before);
			const sentBefore = rpc.widgetUpdates().length;
			await rpc.prompt("and now?");
			expect(ws.lastContext()).toContain("Selection: lines 1-2 (from line 1 column 1 to line 2 column 5)");
			await waitFor("the widget flips at the region's 60 s", () => rpc.lastWidget() === "in wide.ts", 15_000);
			expect(
				rpc
					.widgetUpdates()
					.slice(sentBefore)
					.map((lines) => lines?.[0]),
			).toEqual(["in wide.ts"]);
			await rpc.prompt("and later?");
			sent = ws.lastContext();
			expect(sent).toContain("Selection: none");
			expect(sent).not.toContain("line2");
		},
	);

	test.skipIf(!line.node)(
		"unsaved edits block the model's write (active and hidden buffers); the model's write of a clean file is shown, point kept",
		async () => {
			writeFileSync(join(ws.project, "src", "other.ts"), "other\n");
			writeFileSync(join(ws.project, "src", "clean.ts"), "clean\nsecond\n");
			const emacs = await e2e.emacs({ files: ["src/other.ts"] });
			const rpc = e2e.startPi();
			await e2e.live(rpc, "in other.ts");
			// other.ts edited then hidden; clean.ts in a window of its own, point on its line 2; main.ts edited.
			emacs.keys("X");
			emacs.keys("C-x", "C-f");
			// The prompt starts in the buffer's dir, src/.
			emacs.keys("-l", "clean.ts");
			emacs.keys("Enter");
			await rpc.waitForWidget("in clean.ts", 3000);
			emacs.keys("C-n", "C-f", "C-f", "C-x", "2", "C-x", "C-f");
			emacs.keys("-l", "main.ts");
			emacs.keys("Enter");
			await rpc.waitForWidget("in main.ts", 3000);
			emacs.keys("Y");
			await waitFor("both edits pushed", async () =>
				(await evalText(emacs, `(mapconcat #'buffer-name (seq-filter #'buffer-modified-p (buffer-list)) ",")`))
					.split(",")
					.includes("other.ts"),
			);
			for (const file of ["src/main.ts", "src/other.ts"]) {
				ws.server.reply = writerModel(file, "from the model\n");
				await rpc.prompt(`write ${file}`);
				expect(readFileSync(join(ws.project, file), "utf8")).not.toBe("from the model\n");
				expect(rpc.notices().at(-1)).toContain("blocked the model's write of");
			}
			ws.server.reply = writerModel("src/clean.ts", "clean\nsecond\nwritten by the model\n");
			await rpc.prompt("write src/clean.ts");
			expect(readFileSync(join(ws.project, "src", "clean.ts"), "utf8")).toBe("clean\nsecond\nwritten by the model\n");
			const clean = JSON.stringify(join(ws.project, "src", "clean.ts"));
			await waitFor(
				"the model's write shown in Emacs",
				async () =>
					(await evalText(emacs, `(with-current-buffer (find-buffer-visiting ${clean}) (buffer-string))`)) ===
					"clean\nsecond\nwritten by the model\n",
				3000,
			);
			// Reverted from disk: unmodified, point where it was in its window (line 2, column 3), main.ts untouched.
			const window = `(get-buffer-window (find-buffer-visiting ${clean}))`;
			expect(
				await evalText(
					emacs,
					`(with-current-buffer (find-buffer-visiting ${clean}) (save-excursion (goto-char (window-point ${window})) (list (buffer-modified-p) (line-number-at-pos) (current-column))))`,
				),
			).toBe("(nil 2 2)");
			expect(
				await evalText(emacs, `(with-current-buffer (find-buffer-visiting ${JSON.stringify(main())}) (buffer-string))`),
			).toBe("Yline1\nline2\nline3\nline4\nline5\nline6\n");
			expect(await evalOk(emacs, "(current-message)")).toBe("nil");
		},
	);

	test.skipIf(!line.node)("kill -9 of Emacs clears the widget within a second", async () => {
		const emacs = await e2e.emacs();
		const rpc = e2e.startPi();
		await e2e.live(rpc, "in main.ts");
		const before = Date.now();
		emacs.kill();
		await rpc.waitForWidget("(cleared)", 1000);
		expect(Date.now() - before).toBeLessThan(1000);
		// Its socket file stays behind; the next look finds no Emacs holding it, and nothing is spoken to.
		await rpc.command({ type: "prompt", message: "/ide" });
		const status = (await rpc.ideStatus()).join("\n");
		expect(status).toContain("Connected: no");
		expect(status).not.toContain(`emacs ${emacs.pid}: ${emacs.socket}`);
	});
});
