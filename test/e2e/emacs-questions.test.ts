/**
 * pi's questions in Emacs through the real pi on both lines: a turn asked with `M-x pi-ask`, a test extension
 * whose tool asks `confirm` (and `select`, `input`), a real `emacs -nw -Q` in tmux driven by keys as typed and
 * read with the test's own expressions. pi's own dialog is RPC's `extension_ui_request`.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { hasBuffer, runCommand, waitForEcho } from "../support/emacs-asks.ts";
import { EmacsE2e, evalText, waitForNothingOfPi } from "../support/emacs-e2e.ts";
import { idleSeconds, questionScreen, questionShown, questionWindow } from "../support/emacs-questions.ts";
import { messageText } from "../support/fake-model-server.ts";
import { PACKAGE_ROOT, processFactsLines } from "../support/pi-cli.ts";
import { QUESTION_EXTENSION, questionModel } from "../support/question-e2e.ts";
import { type RealEmacs, requireEmacs } from "../support/real-emacs.ts";
import type { RpcMessage, RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireEmacs("the Emacs question end-to-end tests");

const SELECTED = "(buffer-name (window-buffer (selected-window)))";
/** What is typed in the minibuffer ("" when none is open). */
const TYPED = `(let ((window (active-minibuffer-window)))
  (if window (with-current-buffer (window-buffer window) (minibuffer-contents-no-properties)) ""))`;

/** The tool results the model was sent, in order: what each question decided. */
const toolResults = (requests: { messages: { role: string; content: unknown }[] }[]) =>
	requests.flatMap((request) =>
		request.messages.filter((message) => message.role === "tool").map((message) => messageText(message)),
	);

describe.skipIf(!available).each(processFactsLines())(
	"pi's questions in Emacs through the real $name (RPC)",
	(line) => {
		const ws = useE2eWorkspace();
		const e2e = new EmacsE2e(ws, line, "emacs-questions");

		/** pi with the asking extension, connected to that Emacs, its commands there. */
		async function ready(emacs: RealEmacs, spawn: Parameters<EmacsE2e["startPi"]>[1] = {}, env = {}): Promise<RpcPi> {
			ws.server.reply = questionModel();
			const rpc = e2e.startPi(env, { extraExtensions: [QUESTION_EXTENSION], ...spawn });
			await e2e.live(rpc, "in main.ts");
			await waitFor(
				"pi's commands in Emacs",
				async () => (await evalText(emacs, "(commandp 'pi-ask)")) === "t",
				15_000,
			);
			return rpc;
		}

		/** `M-x pi-ask`, the prompt typed in `*pi ask*`, `C-c C-c`: a turn from Emacs. */
		async function askFromEmacs(emacs: RealEmacs, prompt: string): Promise<void> {
			runCommand(emacs, "pi-ask");
			await waitFor("*pi ask* selected", async () => (await evalText(emacs, SELECTED)) === "*pi ask*");
			emacs.keys("-l", prompt);
			emacs.keys("C-c", "C-c");
			// Sent: the prompt's buffer closes (its echo line may be replaced by pi's at once).
			await waitFor("*pi ask* closed", async () => !(await hasBuffer(emacs, "*pi ask*")));
		}

		const piAsked = (rpc: RpcPi, method = "confirm", count = 1) =>
			waitFor(`pi's ${method} dialog #${count}`, () => rpc.uiRequests(method).at(count - 1), 15_000);
		const decided = (what: string) =>
			waitFor(`the model told "${what}"`, () => toolResults(ws.server.requests).includes(what), 15_000);
		const questionSelected = (emacs: RealEmacs) =>
			waitFor("*pi question* selected", async () => (await evalText(emacs, SELECTED)) === "*pi question*");
		const questionGone = (emacs: RealEmacs, timeoutMs = 1000) =>
			waitFor("*pi question* gone", async () => (await evalText(emacs, questionWindow)) === "nil", timeoutMs, 20);

		test.skipIf(!line.node)(
			"M-x pi-ask guard deploy: the title and 1 Yes / 2 No within 1 s of pi's dialog, selected; 1 allows; never the minibuffer",
			async () => {
				const emacs = await e2e.emacs();
				const rpc = await ready(emacs);
				await askFromEmacs(emacs, "guard deploy");
				const dialog = await piAsked(rpc);
				const shown = await questionShown(emacs, "2 No");
				const drawnMs = Date.now() - dialog.receivedEpochMs;
				expect(drawnMs).toBeLessThan(1000);
				expect(shown).toBe("Allow deploy?\nThe test tool would run deploy.\n\n1 Yes\n2 No");
				await questionSelected(emacs);
				expect(emacs.screen()).toContain("1 Yes");
				expect(await evalText(emacs, "(active-minibuffer-window)")).toBe("nil");
				emacs.keys("1");
				await decided("allowed deploy");
				await questionGone(emacs);
				expect(await evalText(emacs, SELECTED)).toBe("main.ts");
				await waitForEcho(emacs, "pi: done");
				const status = (await rpc.ideStatus()).join("\n");
				expect(status).toContain(
					"pi's questions in the editor: on, for runs an editor asked (1 mirrored, 1 answered there)",
				);
				await rpc.stop();
				await waitForNothingOfPi(emacs);
			},
		);

		test.skipIf(!line.node)("2 denies; q closes only Emacs's copy and pi's dialog decides", async () => {
			const emacs = await e2e.emacs();
			const rpc = await ready(emacs);
			await askFromEmacs(emacs, "guard alpha");
			await piAsked(rpc);
			await questionShown(emacs, "Allow alpha?");
			await questionSelected(emacs);
			emacs.keys("2");
			await decided("denied alpha");
			await questionGone(emacs);
			await waitForEcho(emacs, "pi: done");

			await askFromEmacs(emacs, "guard beta");
			const second = await piAsked(rpc, "confirm", 2);
			await questionShown(emacs, "Allow beta?");
			await questionSelected(emacs);
			emacs.keys("q");
			await questionGone(emacs);
			expect(toolResults(ws.server.requests)).not.toContain("allowed beta");
			rpc.respond(second.id as string, { confirmed: true });
			await decided("allowed beta");
			expect(await questionScreen(emacs)).toBe("");
		});

		test.skipIf(!line.node)(
			"answered in pi first: Emacs's copy gone within 1 s; a turn typed into pi shows nothing in Emacs",
			async () => {
				const emacs = await e2e.emacs();
				const rpc = await ready(emacs);
				await askFromEmacs(emacs, "guard gamma");
				const dialog = await piAsked(rpc);
				await questionShown(emacs, "Allow gamma?");
				rpc.respond(dialog.id as string, { confirmed: false });
				await questionGone(emacs, 1000);
				await decided("denied gamma");
				await waitForEcho(emacs, "pi: done");

				rpc.send({ type: "prompt", message: "guard typed" });
				const typed = await piAsked(rpc, "confirm", 2);
				rpc.respond(typed.id as string, { confirmed: true });
				await decided("allowed typed");
				expect(await evalText(emacs, `(get-buffer "*pi question*")`)).toBe("nil");
				expect(await evalText(emacs, SELECTED)).toBe("main.ts");
			},
		);

		test.skipIf(!line.node)("two questions at once (sibling calls): one after the other, in order", async () => {
			const emacs = await e2e.emacs();
			const rpc = await ready(emacs);
			await askFromEmacs(emacs, "guard one two");
			await piAsked(rpc, "confirm", 2);
			await questionShown(emacs, "Allow one?");
			await questionSelected(emacs);
			expect(await evalText(emacs, "(length (plist-get pi-ide-asks :questions))")).toBe("1");
			emacs.keys("1");
			await questionShown(emacs, "Allow two?");
			await questionSelected(emacs);
			emacs.keys("2");
			await decided("denied two");
			expect(toolResults(ws.server.requests)).toEqual(expect.arrayContaining(["allowed one", "denied two"]));
			await questionGone(emacs);
		});

		test.skipIf(!line.node)(
			"asked while the user types in the minibuffer: shown, not selected, the typing kept; selected once it is gone",
			async () => {
				const emacs = await e2e.emacs();
				const rpc = await ready(emacs);
				ws.server.delayMs = 1500;
				await askFromEmacs(emacs, "guard later");
				emacs.keys("M-x");
				emacs.keys("-l", "forward-ch");
				await waitFor("typing in the minibuffer", async () => (await evalText(emacs, TYPED)) === "forward-ch");
				await piAsked(rpc);
				await questionShown(emacs, "Allow later?");
				await waitFor("a second idle", async () => (await idleSeconds(emacs)) > 1);
				expect(await evalText(emacs, "(minibufferp (window-buffer (selected-window)))")).toBe("t");
				emacs.keys("-l", "ar");
				await waitFor("the typing kept", async () => (await evalText(emacs, TYPED)) === "forward-char");
				emacs.keys("C-g");
				await questionSelected(emacs);
				emacs.keys("1");
				await decided("allowed later");
				await questionGone(emacs);
			},
		);

		test.skipIf(!line.node)(
			"a select's three choices numbered; an input a notice until pi's dialog closes",
			async () => {
				const emacs = await e2e.emacs();
				const rpc = await ready(emacs);
				await askFromEmacs(emacs, "pick");
				await piAsked(rpc, "select");
				expect(await questionShown(emacs, "3 blue")).toBe("Pick a colour\n\n1 red\n2 green\n3 blue");
				await questionSelected(emacs);
				emacs.keys("2");
				await decided("picked green");
				await questionGone(emacs);
				await waitForEcho(emacs, "pi: done");

				await askFromEmacs(emacs, "name me");
				const input = await piAsked(rpc, "input");
				expect(await questionShown(emacs, "Your name?")).toBe("pi asks in its terminal: Your name?");
				// Nothing to answer there: the user's window stays selected.
				expect(await evalText(emacs, SELECTED)).toBe("main.ts");
				rpc.respond(input.id as string, { value: "Ada" });
				await questionGone(emacs);
				await decided("named Ada");
			},
		);

		test.skipIf(!line.node)(
			"pi runs in this Emacs (its child, INSIDE_EMACS): the question shows and the user's window stays selected",
			async () => {
				const emacs = await e2e.emacs();
				const wrapper = [process.execPath, join(PACKAGE_ROOT, "test", "support", "pi-in-emacs.mjs"), emacs.socket];
				const rpc = await ready(emacs, { wrapper }, { INSIDE_EMACS: "28.2,comint" });
				expect((await rpc.ideStatus()).join("\n")).toContain("pi runs in its terminal");
				await askFromEmacs(emacs, "guard inside");
				const dialog: RpcMessage = await piAsked(rpc);
				await questionShown(emacs, "Allow inside?");
				await waitFor("a second idle", async () => (await idleSeconds(emacs)) > 1);
				expect(await evalText(emacs, SELECTED)).toBe("main.ts");
				rpc.respond(dialog.id as string, { confirmed: true });
				await questionGone(emacs);
				await decided("allowed inside");
			},
			PI_START_TIMEOUT_MS + 30_000,
		);
	},
);
