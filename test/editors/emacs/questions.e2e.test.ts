import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { AskingEditor, AskNews } from "../../../src/editors/editor-asks.ts";
import { EmacsSource } from "../../../src/editors/emacs/source.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { echoArea, type RecordingAsks, recordingAsks, runCommand, waitForEcho } from "../../support/emacs-asks.ts";
import { evalOk, evalText, piLeftovers } from "../../support/emacs-e2e.ts";
import {
	idleSeconds,
	idleTimers,
	questionScreen,
	questionShown,
	questionWindow,
} from "../../support/emacs-questions.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { RealEmacs, requireEmacs } from "../../support/real-emacs.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * `*pi question*` from the Emacs source's own elisp, in a real Emacs, without pi: pi's news told as asks/
 * tells them (`tell`), the answers recorded as asks/ receives them.
 */
const available = requireEmacs("the Emacs questions tests");

const SELECTED = "(buffer-name (window-buffer (selected-window)))";
/** What is typed in the minibuffer ("" when none is open). */
const TYPED = `(let ((window (active-minibuffer-window)))
  (if window (with-current-buffer (window-buffer window) (minibuffer-contents-no-properties)) ""))`;
/** A confirm as questions/ tells it: the title and the message under it, Yes and No. */
const confirm = (id: number): AskNews => ({
	kind: "question",
	id,
	title: "Allow deploy?\nThe test tool would run deploy.",
	choices: ["Yes", "No"],
});

describe.skipIf(!available)("pi's questions in Emacs through the source (no pi)", () => {
	const scope = new CleanupScope();
	let root: string;
	let project: string;
	let runtimeDir: string;
	let file: string;
	let procScope: string;

	beforeEach(() => {
		const dir = tempDir("emacs-questions");
		scope.defer(dir.cleanup);
		root = dir.path;
		project = join(root, "proj");
		runtimeDir = join(root, "run");
		mkdirSync(join(project, "src"), { recursive: true });
		mkdirSync(runtimeDir, { mode: 0o700 });
		file = join(project, "src", "main.py");
		writeFileSync(file, "line1\nline2\nline3\n");
		procScope = `emacs-questions-${process.pid}-${Math.random().toString(36).slice(2)}`;
	});
	afterEach(() => scope.close());

	/** The source of one pi; `inside`: pi runs in that Emacs's terminal (a process of that Emacs is pi's self). */
	async function source(asks: RecordingAsks, inside?: number): Promise<EmacsSource> {
		const started = new EmacsSource(
			{
				enabled: { on: true, source: "/home/u/.pi/agent/settings.json" },
				uid: process.getuid?.() ?? 0,
				platform: process.platform,
				env: {
					XDG_RUNTIME_DIR: runtimeDir,
					TMPDIR: join(root, "tmp"),
					...(inside !== undefined && { INSIDE_EMACS: "28.2,comint" }),
				},
				projectDir: () => project,
				connectedKey: () => undefined,
				testScope: procScope,
				...(inside !== undefined && { selfPid: inside }),
				facts: testProcessFacts(),
			},
			sourceHooks({ asks }),
		);
		await started.start();
		scope.defer(() => started.close());
		return started;
	}

	async function emacs(): Promise<RealEmacs> {
		const started = await RealEmacs.start({ cwd: project, runtimeDir, scope: procScope, files: [file] });
		scope.defer(() => started.close());
		return started;
	}

	/** pi's commands there, and the editor asks/ would tell (handed over with a `pi-stop` typed there). */
	async function asking(started: RealEmacs, asks: RecordingAsks, emacsen: EmacsSource): Promise<AskingEditor> {
		await waitFor(
			"pi's commands installed",
			() => emacsen.report().emacsen[0]?.asks?.state.kind === "installed",
			15_000,
		);
		runCommand(started, "pi-stop");
		const received = await waitFor("the stop received", () => asks.messages.find((m) => m.method === "stop"));
		return received.editor;
	}

	const answers = (asks: RecordingAsks) =>
		asks.messages.filter((message) => message.method === "answer" || message.method === "dismiss");

	test("a confirm: the title and 1 Yes / 2 No in a side window, selected; a digit answers; the window before is selected again", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		const editor = await asking(started, asks, emacsen);
		editor.tell(confirm(7));
		await questionShown(started);
		expect(await questionScreen(started)).toBe("Allow deploy?\nThe test tool would run deploy.\n\n1 Yes\n2 No");
		expect(await evalText(started, `(window-parameter ${questionWindow} 'window-side)`)).toBe("bottom");
		await waitFor("the question selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		expect(
			await evalText(
				started,
				"(with-current-buffer (window-buffer (selected-window)) (line-number-at-pos (window-point)))",
			),
		).toBe("4");
		expect(started.screen()).toContain("1 Yes");
		started.keys("1");
		await waitFor("the answer received", () => answers(asks).length === 1);
		expect(answers(asks)[0]).toMatchObject({ method: "answer", params: { id: 7, choice: 1 } });
		await waitFor("the question gone", async () => (await evalText(started, questionWindow)) === "nil");
		expect(await evalText(started, '(get-buffer "*pi question*")')).toBe("nil");
		expect(await evalText(started, SELECTED)).toBe("main.py");
		// pi's close of a question already answered here changes nothing.
		editor.tell({ kind: "questionClosed", id: 7 });
		expect(await evalText(started, "(active-minibuffer-window)")).toBe("nil");
	});

	test("RET on a choice's line answers it; q closes only this copy (dismiss); C-x k too", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		const editor = await asking(started, asks, emacsen);
		editor.tell(confirm(1));
		await waitFor("the question selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		started.keys("C-n", "Enter");
		await waitFor("the answer received", () => answers(asks).length === 1);
		expect(answers(asks)[0]).toMatchObject({ method: "answer", params: { id: 1, choice: 2 } });
		await waitFor("the question gone", async () => (await evalText(started, questionWindow)) === "nil");

		editor.tell(confirm(2));
		await waitFor("the next selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		started.keys("q");
		await waitFor("the dismiss received", () => answers(asks).length === 2);
		expect(answers(asks)[1]).toMatchObject({ method: "dismiss", params: { id: 2 } });
		await waitFor("the copy gone", async () => (await evalText(started, questionWindow)) === "nil");
		expect(await evalText(started, SELECTED)).toBe("main.py");

		editor.tell(confirm(3));
		await waitFor("the third selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		started.keys("C-x", "k", "Enter");
		await waitFor("the dismiss received", () => answers(asks).length === 3);
		expect(answers(asks)[2]).toMatchObject({ method: "dismiss", params: { id: 3 } });
		expect(await evalText(started, "(length (plist-get pi-ide-asks :questions))")).toBe("0");
	});

	test("closed in pi: the window goes and the selection comes back; the next question replaces none of the user's windows", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		const editor = await asking(started, asks, emacsen);
		const windows = await evalText(started, "(length (window-list))");
		editor.tell(confirm(4));
		await waitFor("the question selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		editor.tell({ kind: "questionClosed", id: 4 });
		await waitFor("the question gone", async () => (await evalText(started, questionWindow)) === "nil");
		expect(await evalText(started, SELECTED)).toBe("main.py");
		expect(await evalText(started, "(length (window-list))")).toBe(windows);
		expect(answers(asks)).toEqual([]);
		// A close of another id leaves the question shown.
		editor.tell(confirm(5));
		await questionShown(started);
		editor.tell({ kind: "questionClosed", id: 4 });
		editor.tell({ kind: "status", text: "pi: working", level: "working" });
		await waitForEcho(started, "pi: working");
		expect(await evalText(started, '(buffer-live-p (get-buffer "*pi question*"))')).toBe("t");
	});

	test("ten choices or more: digits add up to the number; RET answers a number typed", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		const editor = await asking(started, asks, emacsen);
		const choices = Array.from({ length: 12 }, (_, index) => `choice ${index + 1}`);
		editor.tell({ kind: "question", id: 9, title: "Pick one", choices });
		await waitFor("the question selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		expect((await questionScreen(started)).split("\n").slice(2, 4)).toEqual([" 1 choice 1", " 2 choice 2"]);
		started.keys("1", "2");
		await waitFor("12 received", () => answers(asks).length === 1);
		expect(answers(asks)[0]).toMatchObject({ params: { id: 9, choice: 12 } });
		editor.tell({ kind: "question", id: 10, title: "Pick one", choices });
		await waitFor("the next selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		started.keys("1");
		await waitForEcho(started, "pi: 1 (RET answers");
		started.keys("Enter");
		await waitFor("1 received", () => answers(asks).length === 2);
		expect(answers(asks)[1]).toMatchObject({ params: { id: 10, choice: 1 } });
		editor.tell({ kind: "question", id: 11, title: "Pick one", choices });
		await waitFor("the third selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		started.keys("7");
		await waitFor("7 received", () => answers(asks).length === 3);
		expect(answers(asks)[2]).toMatchObject({ params: { id: 11, choice: 7 } });
	});

	test("a half-typed M-x keeps its minibuffer: the question shows unselected, and is selected once the minibuffer is gone", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		const editor = await asking(started, asks, emacsen);
		const timersBefore = await idleTimers(started);
		started.keys("M-x");
		started.keys("-l", "forward-ch");
		await waitFor("typing in the minibuffer", async () => (await evalText(started, TYPED)) === "forward-ch");
		editor.tell(confirm(12));
		await questionShown(started);
		// Idle past the 0.5 s the question waits for, the minibuffer open all along: still the user's.
		expect(await idleTimers(started)).toBe(timersBefore + 1);
		await waitFor("a second idle", async () => (await idleSeconds(started)) > 1);
		expect(await evalText(started, "(minibufferp (window-buffer (selected-window)))")).toBe("t");
		started.keys("-l", "ar");
		await waitFor("the user's typing kept", async () => (await evalText(started, TYPED)) === "forward-char");
		expect(answers(asks)).toEqual([]);
		started.keys("C-g");
		await waitFor(
			"the question selected once the minibuffer is gone",
			async () => (await evalText(started, SELECTED)) === "*pi question*",
		);
		started.keys("2");
		await waitFor("the answer received", () => answers(asks).length === 1);
		expect(answers(asks)[0]).toMatchObject({ params: { id: 12, choice: 2 } });
		expect(await idleTimers(started)).toBe(timersBefore);
	});

	test("a question while the user types waits for their pause: shown at once, selected once Emacs is idle 0.5 s", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		const editor = await asking(started, asks, emacsen);
		// The test's own advice: Emacs never idle, as while keys keep coming.
		await evalOk(started, "(advice-add 'current-idle-time :override #'ignore '((name . test-typing)))");
		await evalOk(started, "(setq test-idle-before (copy-sequence timer-idle-list))");
		editor.tell(confirm(13));
		await questionShown(started);
		// Its timer ran in this idle period (`triggered`) and left the user's window selected.
		const triggered = `(let ((new (seq-difference timer-idle-list test-idle-before #'eq)))
  (and (= (length new) 1) (timer--triggered (car new))))`;
		await waitFor("its idle timer ran once", async () => (await evalText(started, triggered)) === "t");
		expect(await evalText(started, SELECTED)).toBe("main.py");
		await evalOk(started, "(advice-remove 'current-idle-time 'test-typing)");
		// A key ends this idle period; the question is selected 0.5 s into the next.
		started.keys("C-f");
		await waitFor("selected after the pause", async () => (await evalText(started, SELECTED)) === "*pi question*");
		expect(await idleSeconds(started)).toBeGreaterThanOrEqual(0.5);
		started.keys("1");
		await waitFor("the answer received", () => answers(asks).length === 1);
	});

	test("a notice: its text, no choices, never selected; q closes it there; pi's close takes it away", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		const editor = await asking(started, asks, emacsen);
		editor.tell({ kind: "notice", id: 20, text: "pi asks in its terminal: Your name?" });
		await questionShown(started);
		expect(await questionScreen(started)).toBe("pi asks in its terminal: Your name?");
		expect(await evalText(started, SELECTED)).toBe("main.py");
		editor.tell({ kind: "questionClosed", id: 20 });
		await waitFor("the notice gone", async () => (await evalText(started, questionWindow)) === "nil");
		editor.tell({ kind: "notice", id: 21, text: "pi asks in its terminal: Your name?" });
		await questionShown(started);
		await evalOk(started, `(select-window ${questionWindow})`);
		started.keys("1");
		await waitForEcho(started, "pi: answer in pi's terminal");
		started.keys("q");
		await waitFor("the dismiss received", () => answers(asks).length === 1);
		expect(answers(asks)[0]).toMatchObject({ method: "dismiss", params: { id: 21 } });
	});

	test("pi in that Emacs's own terminal: the question shows and the user's window stays selected", async () => {
		const started = await emacs();
		// A process of that Emacs stands for pi in its shell: the Emacs is among its ancestors.
		const child = Number(await evalOk(started, `(process-id (start-process "test-pi-in-shell" nil "sleep" "600"))`));
		scope.defer(() => evalOk(started, `(delete-process "test-pi-in-shell")`).then(() => {}));
		const asks = recordingAsks();
		const emacsen = await source(asks, child);
		const editor = await asking(started, asks, emacsen);
		expect(emacsen.report().enclosingPid).toBe(started.pid);
		editor.tell(confirm(30));
		await questionShown(started);
		await waitFor("a second idle", async () => (await idleSeconds(started)) > 1);
		expect(await evalText(started, SELECTED)).toBe("main.py");
		// Answered from there all the same once the user goes to it.
		await evalOk(started, `(select-window ${questionWindow})`);
		started.keys("1");
		await waitFor("the answer received", () => answers(asks).length === 1);
		expect(answers(asks)[0]).toMatchObject({ params: { id: 30, choice: 1 } });
	});

	test("two pis, a question each: two buffers side by side, each answered to its own pi", async () => {
		const started = await emacs();
		const [first, second] = [recordingAsks(), recordingAsks()];
		const one = await source(first);
		const two = await source(second);
		const installed = (emacsen: EmacsSource) =>
			waitFor("installed", () => emacsen.report().emacsen[0]?.asks?.state.kind === "installed", 15_000);
		await installed(one);
		await installed(two);
		// Each pi's editor, as asks/ would hold it (the list of pis picks which one a pi-stop reaches).
		runCommand(started, "pi-stop");
		await waitFor("the list", async () => (await evalText(started, SELECTED)) === "*pi choose*");
		started.keys("1");
		await waitFor("the first's stop", () => first.messages.length === 1);
		// The test forgets the pick (kept while that pi lives) to reach the other.
		await evalOk(started, "(setq pi-ide-asks (plist-put pi-ide-asks :choice nil))");
		runCommand(started, "pi-stop");
		await waitFor("the list again", async () => (await evalText(started, SELECTED)) === "*pi choose*");
		started.keys("2");
		const editorOf = (asks: RecordingAsks) => waitFor("a stop", () => asks.messages[0]?.editor);
		const [a, b] = [await editorOf(first), await editorOf(second)];
		a.tell({ kind: "question", id: 1, title: "Allow a?", choices: ["Yes", "No"] });
		await waitFor("the first selected", async () => (await evalText(started, SELECTED)) === "*pi question*");
		b.tell({ kind: "question", id: 1, title: "Allow b?", choices: ["Yes", "No"] });
		await waitFor("the second selected", async () => (await evalText(started, SELECTED)) === "*pi question*<2>");
		expect(await evalText(started, `(get-buffer-window "*pi question*")`)).not.toBe("nil");
		started.keys("2");
		await waitFor("b's answer", () => answers(second).length === 1);
		expect(answers(second)[0]).toMatchObject({ method: "answer", params: { id: 1, choice: 2 } });
		// Back to the question selected before it.
		await waitFor("the first selected again", async () => (await evalText(started, SELECTED)) === "*pi question*");
		started.keys("1");
		await waitFor("a's answer", () => answers(first).length === 1);
		expect(answers(first)[0]).toMatchObject({ method: "answer", params: { id: 1, choice: 1 } });
		expect(await evalText(started, SELECTED)).toBe("main.py");
	});

	test("pi goes while a question shows: its buffer, window and timer go with it; nothing of pi is left", async () => {
		const started = await emacs();
		const asks = recordingAsks();
		const emacsen = await source(asks);
		const editor = await asking(started, asks, emacsen);
		const timersBefore = await idleTimers(started);
		started.keys("M-x");
		await waitFor("in the minibuffer", async () => (await evalText(started, "(active-minibuffer-window)")) !== "nil");
		editor.tell(confirm(40));
		await questionShown(started);
		expect(await idleTimers(started)).toBe(timersBefore + 1);
		await emacsen.close();
		await waitFor("nothing of pi left", async () => (await piLeftovers(started)).length === 0);
		expect(await evalText(started, questionWindow)).toBe("nil");
		expect(await idleTimers(started)).toBe(timersBefore);
		// The user's M-x keeps its focus: closing the question selected nothing else.
		expect(await evalText(started, "(minibufferp (window-buffer (selected-window)))")).toBe("t");
		expect(await echoArea(started)).not.toContain("error");
	});
});
