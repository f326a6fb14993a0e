/**
 * Asking pi from Emacs through the real pi (RPC) and the offline fake model: `M-x pi-ask` with a region runs in
 * pi, Emacs shows pi working and done, `M-x pi-reply` shows the reply, an ask after pi was killed is not sent,
 * and nothing of pi's stays in Emacs after it exits. The Emacs is a plain `emacs -nw -Q` in tmux, driven by keys.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { hasBuffer, runCommand, waitForEcho } from "../support/emacs-asks.ts";
import { EmacsE2e, evalOk, evalText, waitForNothingOfPi } from "../support/emacs-e2e.ts";
import { messageText } from "../support/fake-model-server.ts";
import { processFactsLines, writeAgentDir } from "../support/pi-cli.ts";
import { type RealEmacs, requireEmacs } from "../support/real-emacs.ts";
import { waitFor } from "../support/wait-for.ts";

const available = requireEmacs("the Emacs asks end-to-end tests");

/**
 * The test's own record of every `pi:` line Emacs showed in its echo area (advice of the test's, not pi's): a
 * `pi: working` replaced by `pi: done` a few ms later is seen all the same.
 */
const RECORD_ECHO = `(progn
  (defvar test-echoed nil)
  (advice-add 'message :after
              (lambda (format-string &rest args)
                (when (and (stringp format-string) args (stringp (car args)) (string-prefix-p "pi:" (car args)))
                  (push (substring-no-properties (car args)) test-echoed)))
              '((name . test-echo)))
  t)`;

const echoed = async (emacs: RealEmacs) =>
	(await evalText(emacs, `(mapconcat #'identity (reverse test-echoed) "\\n")`)).split("\n");

const SELECTED = "(buffer-name (window-buffer (selected-window)))";

describe.skipIf(!available).each(processFactsLines())("asks from Emacs through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const e2e = new EmacsE2e(ws, line, "emacs-asks");
	const main = () => join(ws.project, "src", "main.ts");

	const commandsThere = (emacs: RealEmacs) =>
		waitFor("pi's commands in Emacs", async () => (await evalText(emacs, "(commandp 'pi-ask)")) === "t", 15_000);

	test.skipIf(!line.node)(
		"M-x pi-ask with a region: the model gets the prompt and the region's lines once; working, done and the reply in Emacs",
		async () => {
			// Explicit context: what the model reads of the region is the ask's alone (no ambient block beside it).
			writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { context: "explicit" } });
			const emacs = await e2e.emacs();
			const rpc = e2e.startPi();
			await e2e.live(rpc, "in main.ts");
			await commandsThere(emacs);
			await evalOk(emacs, RECORD_ECHO);
			const before = ws.server.requests.length;
			// Lines 2-3, the region ending at line 4's start.
			emacs.keys("M-<", "C-n", "C-Space", "C-n", "C-n");
			runCommand(emacs, "pi-ask");
			await waitFor("*pi ask* selected", async () => (await evalText(emacs, SELECTED)) === "*pi ask*");
			emacs.keys("-l", "explain @this");
			emacs.keys("C-c", "C-c");
			await waitFor("the model asked", () => ws.server.requests.length > before, 15_000);
			const request = ws.server.requests.at(-1);
			const sent = (request?.messages ?? [])
				.filter((message) => message.role === "user")
				.map(messageText)
				.join("\n");
			expect(sent).toContain(`explain @${main()}#L2-3`);
			expect(sent.split("line2\nline3").length - 1, sent).toBe(1);
			expect(sent).toContain(`The user referenced ${main()} lines 2-3`);
			await waitFor(
				"pi: done in Emacs",
				async () => (await echoed(emacs)).some((text) => text.startsWith("pi: done")),
				15_000,
			);
			const lines = await echoed(emacs);
			const working = lines.findIndex((text) => text.startsWith("pi: working"));
			expect(working).toBeGreaterThanOrEqual(0);
			expect(lines.findIndex((text) => text.startsWith("pi: done"))).toBeGreaterThan(working);
			// Kept out of *Messages*, never a question.
			expect(await evalText(emacs, `(with-current-buffer "*Messages*" (buffer-string))`)).not.toContain("pi: ");
			expect(await evalOk(emacs, "(active-minibuffer-window)")).toBe("nil");

			runCommand(emacs, "pi-reply");
			await waitFor("*pi reply* open", () => hasBuffer(emacs, "*pi reply*"));
			await waitFor(
				"the reply shown",
				async () => (await evalText(emacs, `(with-current-buffer "*pi reply*" (buffer-string))`)) === "ok",
			);
			expect(await evalText(emacs, `(with-current-buffer "*pi reply*" (list buffer-read-only major-mode))`)).toBe(
				"(t text-mode)",
			);
			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toContain("asks: M-x pi-ask, pi-add, pi-stop, pi-reply");
			expect(status).toContain("Asks from editors: on (1 asked, 1 sent");

			await rpc.stop();
			await waitForNothingOfPi(emacs);
			expect(await hasBuffer(emacs, "*pi reply*")).toBe(false);
		},
	);

	test.skipIf(!line.node)("pi-ask after pi was killed: pi: gone, nothing sent; the commands gone with it", async () => {
		const emacs = await e2e.emacs();
		const rpc = e2e.startPi();
		await e2e.live(rpc, "in main.ts");
		await commandsThere(emacs);
		runCommand(emacs, "pi-ask");
		await waitFor("*pi ask* selected", async () => (await evalText(emacs, SELECTED)) === "*pi ask*");
		emacs.keys("-l", "explain @this");
		await waitFor(
			"typed",
			async () => (await evalText(emacs, `(with-current-buffer "*pi ask*" (buffer-string))`)) !== "",
		);
		const before = ws.server.requests.length;
		rpc.run.child.kill("SIGKILL");
		await rpc.run.exited;
		await waitFor("the commands gone", async () => (await evalText(emacs, "(fboundp 'pi-ask)")) === "nil");
		emacs.keys("C-c", "C-c");
		await waitForEcho(emacs, "pi: gone");
		expect(ws.server.requests.length).toBe(before);
		// The words typed stay until the user closes them; then nothing of pi's is left.
		expect(await hasBuffer(emacs, "*pi ask*")).toBe(true);
		emacs.keys("C-c", "C-k");
		await waitForNothingOfPi(emacs);
	});
});
