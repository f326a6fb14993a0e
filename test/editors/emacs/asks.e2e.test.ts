import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { EmacsSource } from "../../../src/editors/emacs/source.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import {
	echoArea,
	hasBuffer,
	type RecordingAsks,
	recordingAsks,
	runCommand,
	waitForEcho,
} from "../../support/emacs-asks.ts";
import { evalOk, evalText, piLeftovers } from "../../support/emacs-e2e.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/** `M-x pi-ask` and its siblings from the Emacs source's own elisp, in a real Emacs, without pi: asks/ recorded. */
const available = requireEmacs("the Emacs asks tests");

const SELECTED = "(buffer-name (window-buffer (selected-window)))";

describe.skipIf(!available)("Emacs's asks through the source (no pi)", () => {
	const scope = new CleanupScope();
	let root: string;
	let project: string;
	let runtimeDir: string;
	let file: string;
	let procScope: string;
	let connected: string | undefined;

	beforeEach(() => {
		const dir = tempDir("emacs-asks");
		scope.defer(dir.cleanup);
		root = dir.path;
		project = join(root, "proj");
		runtimeDir = join(root, "run");
		mkdirSync(join(project, "src"), { recursive: true });
		mkdirSync(runtimeDir, { mode: 0o700 });
		file = join(project, "src", "main.py");
		writeFileSync(file, "line1\nline2\nline3\nline4\n");
		procScope = `emacs-asks-${process.pid}-${Math.random().toString(36).slice(2)}`;
		connected = undefined;
	});
	afterEach(() => scope.close());

	/** The source of one pi: `connectedKey` its own (two pis in one test are connected each on its own). */
	async function source(asks: RecordingAsks, connectedKey = () => connected): Promise<EmacsSource> {
		const started = new EmacsSource(
			{
				enabled: { on: true, source: "/home/u/.pi/agent/settings.json" },
				uid: process.getuid?.() ?? 0,
				platform: process.platform,
				env: { XDG_RUNTIME_DIR: runtimeDir, TMPDIR: join(root, "tmp") },
				projectDir: () => project,
				connectedKey,
				testScope: procScope,
				facts: testProcessFacts(),
			},
			sourceHooks({ asks }),
		);
		await started.start();
		scope.defer(() => started.close());
		return started;
	}

	async function emacs(options: { cwd?: string; files?: string[] } = {}): Promise<RealEmacs> {
		const started = await RealEmacs.start({
			cwd: options.cwd ?? project,
			runtimeDir,
			scope: procScope,
			files: options.files ?? [file],
		});
		scope.defer(() => started.close());
		return started;
	}

	/** The selected window shows *pi ask* (the server's own current buffer is not the user's). */
	const inAskBuffer = (started: RealEmacs) =>
		waitFor("*pi ask* selected", async () => (await evalText(started, SELECTED)) === "*pi ask*");

	const installed = (emacsen: EmacsSource, index = 0) =>
		waitFor("pi's commands installed", () => emacsen.report().emacsen[index]?.asks?.state.kind === "installed", 15_000);

	test("M-x pi-ask with a region: the prompt typed in *pi ask*, C-c C-c sends the region's lines once", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		await installed(emacsen);
		expect(
			await evalText(started, "(list (commandp 'pi-ask) (commandp 'pi-add) (commandp 'pi-stop) (commandp 'pi-reply))"),
		).toBe("(t t t t)");
		// Lines 2-3, the region ending at line 4's start.
		started.keys("M-<", "C-n", "C-Space", "C-n", "C-n");
		runCommand(started, "pi-ask");
		await inAskBuffer(started);
		started.keys("-l", "explain @this please");
		started.keys("C-c", "C-c");
		await waitFor("the ask received", () => asks.messages.length === 1);
		expect(asks.messages[0]).toMatchObject({
			editor: { key: `pid:${started.pid}`, label: `Emacs ${started.pid}` },
			method: "ask",
			params: {
				prompt: "explain @this please",
				placeholders: { this: { file, startLine: 2, endLine: 3, text: "line2\nline3\n" } },
			},
		});
		await waitForEcho(started, "pi: sent to pi");
		expect(await hasBuffer(started, "*pi ask*")).toBe(false);
		// pi's news in the echo area, not in *Messages*.
		asks.messages[0]?.editor.tell({ kind: "status", text: "pi: working (fake/model)", level: "working" });
		await waitForEcho(started, "pi: working (fake/model)");
		expect(await evalText(started, `(with-current-buffer "*Messages*" (buffer-string))`)).not.toContain("pi:");
		await emacsen.close();
		await waitFor("nothing of pi left", async () => (await piLeftovers(started)).length === 0);
		expect(await echoArea(started)).toContain("pi: working");
	});

	test("pi-add, pi-stop and pi-reply; the reply view shows pi's text and evaluates none of it", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		await installed(emacsen);
		started.keys("M-<", "C-n", "C-Space", "C-n", "C-e");
		runCommand(started, "pi-add");
		await waitFor("the add received", () => asks.messages.length === 1);
		expect(asks.messages[0]).toMatchObject({ method: "add", params: { file, startLine: 2, endLine: 3 } });
		started.keys("C-g");
		runCommand(started, "pi-stop");
		await waitFor("the stop received", () => asks.messages.length === 2);
		expect(asks.messages[1]).toMatchObject({ method: "stop" });
		runCommand(started, "pi-reply");
		await waitFor("the reply asked", () => asks.messages.length === 3);
		const editor = asks.messages[2]?.editor;
		expect(asks.messages[2]).toMatchObject({ method: "reply" });
		const text = "# Done\n\n-*- mode: emacs-lisp; eval: (setq test-evaluated t) -*-\n(setq test-evaluated t)\n";
		editor?.tell({ kind: "reply", text, streaming: true });
		await waitFor("*pi reply* open", () => hasBuffer(started, "*pi reply*"));
		await waitFor(
			"its text",
			async () => (await evalText(started, `(with-current-buffer "*pi reply*" (buffer-string))`)) === text,
		);
		expect(
			await evalText(
				started,
				`(with-current-buffer "*pi reply*" (list major-mode buffer-read-only (boundp 'test-evaluated) buffer-file-name))`,
			),
		).toBe("(text-mode t nil nil)");
		editor?.tell({ kind: "reply", text: "# Done\n\nAll of it.\n", streaming: false });
		await waitFor(
			"its text replaced",
			async () =>
				(await evalText(started, `(with-current-buffer "*pi reply*" (buffer-string))`)) === "# Done\n\nAll of it.\n",
		);
		await evalOk(started, `(kill-buffer "*pi reply*")`);
		await waitFor("replyClosed received", () => asks.messages.some((message) => message.method === "replyClosed"));
	});

	test("placeholders resolved in Emacs: a selection inside one line with its columns, the buffer, the buffers, Flymake's diagnostics", async () => {
		const other = join(project, "src", "other.py");
		writeFileSync(other, "other\n");
		const started = await emacs({ files: [other, file] });
		const asks = recordingAsks();
		const emacsen = await source(asks);
		await installed(emacsen);
		await evalOk(
			started,
			`(with-current-buffer (find-buffer-visiting ${JSON.stringify(file)})
  (require 'flymake)
  (defun test-lint (report &rest _)
    (funcall report (save-excursion
                      (goto-char (point-min))
                      (forward-line 1)
                      (list (flymake-make-diagnostic (current-buffer) (point) (line-end-position) :error "bad line")))))
  (setq-local flymake-diagnostic-functions (list #'test-lint))
  (flymake-mode 1)
  (flymake-start)
  t)`,
		);
		// Line 3 "line3": from its 2nd character, three characters ("ine").
		started.keys("M-<", "C-n", "C-n", "C-f", "C-Space", "C-f", "C-f", "C-f");
		runCommand(started, "pi-ask");
		await inAskBuffer(started);
		started.keys("-l", "@selection of @buffer among @buffers, see @diagnostics; @thistle stays");
		started.keys("C-c", "C-c");
		await waitFor("the ask received", () => asks.messages.length === 1);
		expect(asks.messages[0]?.params).toEqual({
			prompt: "@selection of @buffer among @buffers, see @diagnostics; @thistle stays",
			placeholders: {
				selection: { file, startLine: 3, endLine: 3, startColumn: 2, endColumn: 4, text: "ine" },
				buffer: { file },
				buffers: [{ file }, { file: other }],
				diagnostics: {
					file,
					items: [
						{
							severity: "error",
							line: 2,
							column: 1,
							end_line: 2,
							end_column: 6,
							message: "bad line",
							source: "test-lint",
						},
					],
				},
			},
		});
	});

	test("an ask over 120 KiB: the region's text is cut, the prompt stands; typed words over 64 KiB are refused in pi's words", async () => {
		const big = join(project, "src", "big.txt");
		writeFileSync(big, `${"0123456789\n".repeat(20_000)}`);
		const started = await emacs({ files: [big] });
		const asks = recordingAsks();
		const emacsen = await source(asks);
		await installed(emacsen);
		await evalOk(started, `(with-current-buffer (window-buffer (selected-window)) (push-mark (point-max) t t) t)`);
		runCommand(started, "pi-ask");
		await inAskBuffer(started);
		const prompt = `"quoted" \\ ${"é".repeat(1000)} @this`;
		await evalOk(started, `(with-current-buffer "*pi ask*" (insert ${JSON.stringify(prompt)}) t)`);
		started.keys("C-c", "C-c");
		await waitFor("the ask received", () => asks.messages.length === 1).catch(async (error) => {
			throw new Error(`${error} ${await echoArea(started)} ${started.screen()}`);
		});
		const params = asks.messages[0]?.params as { prompt: string; placeholders: { this: { text: string } } };
		expect(params.prompt).toBe(prompt);
		const line = JSON.stringify({ kind: "ask", method: "ask", params });
		expect(Buffer.byteLength(line)).toBeLessThanOrEqual(120 * 1024);
		expect(Buffer.byteLength(line)).toBeGreaterThan(119 * 1024);
		expect(params.placeholders.this).toMatchObject({ startLine: 1, endLine: 20_000 });
		expect("0123456789\n".repeat(20_000).startsWith(params.placeholders.this.text)).toBe(true);

		runCommand(started, "pi-ask");
		await inAskBuffer(started);
		await evalOk(started, `(with-current-buffer "*pi ask*" (insert (make-string 70000 ?a)) t)`);
		started.keys("C-c", "C-c");
		await waitForEcho(started, "pi: prompt too long (69 KiB typed; 64 KiB at most)");
		expect(asks.messages).toHaveLength(1);
		expect(await hasBuffer(started, "*pi ask*")).toBe(true);
		started.keys("C-c", "C-k");
		await waitForEcho(started, "pi: nothing sent");
		expect(await hasBuffer(started, "*pi ask*")).toBe(false);
	});

	test("the disk followed at a run's end: an unmodified buffer reverts with no question, a modified one is counted", async () => {
		const [clean, edited, gone] = ["clean.txt", "edited.txt", "gone.txt"].map((name) => join(project, "src", name));
		for (const path of [clean, edited, gone]) writeFileSync(path as string, "as read\n");
		const started = await emacs({ files: [clean, edited, gone] as string[] });
		const asks = recordingAsks();
		const emacsen = await source(asks);
		await installed(emacsen);
		const visiting = (path: string | undefined) => `(find-buffer-visiting ${JSON.stringify(path)})`;
		await evalOk(started, `(with-current-buffer ${visiting(edited)} (insert "typed ") t)`);
		// Nothing changed on disk yet: nothing to do.
		expect(await emacsen.followDisk()).toEqual([{ key: `pid:${started.pid}`, notReloaded: 0 }]);
		// As the model's bash writes them: a time Emacs did not record.
		const later = new Date(Date.now() + 5000);
		for (const path of [clean, edited] as string[]) {
			writeFileSync(path, "changed by bash\n");
			utimesSync(path, later, later);
		}
		rmSync(gone as string);
		const echoBefore = await echoArea(started);
		expect(await emacsen.followDisk()).toEqual([{ key: `pid:${started.pid}`, notReloaded: 2 }]);
		expect(
			await evalText(started, `(with-current-buffer ${visiting(clean)} (list (buffer-string) (buffer-modified-p)))`),
		).toBe("(changed by bash\n nil)");
		expect(await evalText(started, `(with-current-buffer ${visiting(edited)} (buffer-string))`)).toBe(
			"typed as read\n",
		);
		expect(await evalText(started, `(buffer-live-p ${visiting(gone)})`)).toBe("t");
		expect(await echoArea(started)).toBe(echoBefore);
		expect(await evalText(started, `(with-current-buffer "*Messages*" (buffer-string))`)).not.toContain(
			"changed on disk",
		);
	});

	test("a user's own pi-ask is kept: pi-ide-ask then, and /ide status says so; asks off define nothing", async () => {
		const started = await emacs();
		await evalOk(started, `(defun pi-ask () "The user owns it." (interactive) (message "mine"))`);
		const asks = recordingAsks();
		const emacsen = await source(asks);
		await installed(emacsen);
		expect(emacsen.report().emacsen[0]?.asks?.state).toEqual({
			kind: "installed",
			defined: { commands: ["pi-ide-ask", "pi-add", "pi-stop", "pi-reply"], kept: ["pi-ask"] },
		});
		expect(emacsen.statusLines(0, project).join("\n")).toContain(
			"asks: M-x pi-ide-ask, pi-add, pi-stop, pi-reply (your own pi-ask kept)",
		);
		await emacsen.close();
		// The user's own pi-ask is theirs, not a leftover.
		await waitFor("nothing of pi left", async () =>
			(await piLeftovers(started)).every((item) => item === "command: pi-ask"),
		);
		expect(await evalText(started, `(documentation 'pi-ask)`)).toBe("The user owns it.");

		const off = await source(recordingAsks(false));
		await waitFor("read", () => off.report().emacsen[0]?.editor);
		await off.recheck();
		expect(off.statusLines(0, project).join("\n")).toContain("asks: off in pi");
		expect(await evalText(started, "(list (fboundp 'pi-add) (boundp 'pi-ide-asks))")).toBe("(nil nil)");
	});

	test("an Emacs of another project gets no commands until pi is connected to it", async () => {
		const elsewhere = join(root, "elsewhere");
		mkdirSync(elsewhere);
		const other = join(elsewhere, "x.py");
		writeFileSync(other, "x\n");
		const started = await emacs({ cwd: elsewhere, files: [other] });
		const emacsen = await source(recordingAsks());
		await waitFor("read", () => emacsen.report().emacsen[0]?.editor);
		await emacsen.recheck();
		expect(emacsen.report().emacsen[0]?.asks?.state.kind).toBe("outside");
		expect(await evalText(started, "(fboundp 'pi-ask)")).toBe("nil");
		connected = `pid:${started.pid}`;
		await emacsen.setPaused(false);
		await installed(emacsen);
		expect(await evalText(started, "(fboundp 'pi-ask)")).toBe("t");
	});

	test("two pis in one Emacs: one command set; the numbered list, the choice kept; the connected one first; gone with the last", async () => {
		const started = await emacs();
		const [first, second] = [recordingAsks(), recordingAsks()];
		const one = await source(first);
		await installed(one);
		// The second pi is connected elsewhere all along.
		const two = await source(second, () => undefined);
		await installed(two);
		expect(await evalText(started, "(length (plist-get pi-ide-asks :pis))")).toBe("2");
		runCommand(started, "pi-stop");
		await waitFor("the list", async () => (await evalText(started, SELECTED)) === "*pi choose*");
		expect(await evalText(started, `(with-current-buffer "*pi choose*" (buffer-string))`)).toContain(
			`1  pi ${process.pid} in ${project}`,
		);
		started.keys("2");
		await waitFor("the stop received by the second", () => second.messages.length === 1);
		expect(first.messages).toEqual([]);
		expect(await hasBuffer(started, "*pi choose*")).toBe(false);
		// Kept: the next goes there without a list.
		runCommand(started, "pi-stop");
		await waitFor("the second stop", () => second.messages.length === 2);
		// The connected one goes first.
		connected = `pid:${started.pid}`;
		await one.setPaused(false);
		await waitFor(
			"the first told it is connected",
			async () =>
				(await evalText(started, "(mapcar (lambda (entry) (aref entry 3)) (plist-get pi-ide-asks :pis))")) ===
				"(t nil)",
		);
		runCommand(started, "pi-stop");
		await waitFor("the stop received by the first", () => first.messages.length === 1);
		// The first goes: the commands stay for the second.
		await one.close();
		await waitFor(
			"one pi left",
			async () => (await evalText(started, "(length (plist-get pi-ide-asks :pis))")) === "1",
		);
		expect(await evalText(started, "(commandp 'pi-ask)")).toBe("t");
		runCommand(started, "pi-stop");
		await waitFor("the third stop", () => second.messages.length === 3);
		await two.close();
		await waitFor("nothing of pi left", async () => (await piLeftovers(started)).length === 0);
	});

	test("a prompt typed while pi goes: C-c C-c says pi is gone and sends nothing; the words stay until C-c C-k", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		await installed(emacsen);
		runCommand(started, "pi-ask");
		await inAskBuffer(started);
		started.keys("-l", "explain @this");
		await waitFor(
			"typed",
			async () => (await evalText(started, `(with-current-buffer "*pi ask*" (buffer-string))`)) !== "",
		);
		await emacsen.close();
		await waitFor("the commands gone", async () => (await evalText(started, "(fboundp 'pi-ask)")) === "nil");
		started.keys("C-c", "C-c");
		await waitForEcho(started, "pi: gone");
		expect(asks.messages).toEqual([]);
		expect(await hasBuffer(started, "*pi ask*")).toBe(true);
		started.keys("C-c", "C-k");
		await waitFor("*pi ask* closed", async () => !(await hasBuffer(started, "*pi ask*")));
		expect(await piLeftovers(started)).toEqual([]);
	});

	test("a C-g typed while pi's news are shown is the user's: it quits their command, not pi's", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		await installed(emacsen);
		runCommand(started, "pi-stop");
		await waitFor("the stop received", () => asks.messages.length === 1);
		const editor = asks.messages[0]?.editor;
		// The test's own advice holds Emacs inside pi's news for 600 ms, so that the key lands there.
		await evalOk(
			started,
			`(advice-add 'message :before (lambda (&rest args) (when (equal (cadr args) "pi: slow") (let ((end (+ (float-time) 0.6))) (while (< (float-time) end))))) '((name . test-slow)))`,
		);
		const regionActive = () =>
			evalText(started, "(with-current-buffer (window-buffer (selected-window)) (region-active-p))");
		started.keys("C-Space", "C-n");
		await waitFor("a region", async () => (await regionActive()) === "t");
		editor?.tell({ kind: "status", text: "pi: slow", level: "info" });
		await waitFor("Emacs inside pi's news", async () => !(await started.eval("t", 100)).ok);
		// A quit of pi's news would leave the region: the key itself, read by the command loop, deactivates it.
		started.keys("C-g");
		await waitFor("the region gone", async () => (await regionActive()) === "nil");
		started.keys("M-x");
		await waitFor("in the minibuffer", () => started.screen().includes("M-x"));
		editor?.tell({ kind: "status", text: "pi: slow", level: "info" });
		await waitFor("Emacs inside pi's news again", async () => !(await started.eval("t", 100)).ok);
		started.keys("C-g");
		await waitFor("the minibuffer quit", async () => (await evalText(started, "(active-minibuffer-window)")) === "nil");
		await evalOk(started, "(advice-remove 'message 'test-slow)");
	});
});
