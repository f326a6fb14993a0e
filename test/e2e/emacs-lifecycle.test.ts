/**
 * What pi leaves in an Emacs and what an Emacs can hold up, through the real pi: pi's elisp removes everything
 * of its own when pi's socket closes (pi exits, or is killed), and a prompt never waits for an Emacs that is
 * busy or in the minibuffer: it uses what Emacs pushed last.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { EmacsE2e, evalOk, evalText, piLeftovers, pushesReceived, waitForNothingOfPi } from "../support/emacs-e2e.ts";
import { writerModel } from "../support/fake-model-server.ts";
import { processFactsLines } from "../support/pi-cli.ts";
import { requireEmacs } from "../support/real-emacs.ts";
import { waitFor } from "../support/wait-for.ts";

const available = requireEmacs("the Emacs lifecycle end-to-end tests");

describe.skipIf(!available).each(processFactsLines())("an Emacs's lifecycle through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const e2e = new EmacsE2e(ws, line, "emacs-life");
	const main = () => join(ws.project, "src", "main.ts");

	test.skipIf(!line.node)(
		"nothing of pi stays in Emacs after pi exits or is SIGKILLed: hooks, advice, timers, processes, symbols",
		async () => {
			const emacs = await e2e.emacs();
			const rpc = e2e.startPi();
			await e2e.live(rpc, "in main.ts");
			// While pi runs, the check sees pi's install: its connection, then (pushes turned on once read) its hooks.
			const kinds = ["process", "post-command-hook", "after-change-functions", "advice", "symbol"];
			await waitFor("pi's install seen by the check", async () => {
				const installed = await piLeftovers(emacs);
				return kinds.every((kind) => installed.some((item) => item.startsWith(`${kind}: pi-ide-`)));
			});
			await rpc.stop();
			await waitForNothingOfPi(emacs);

			const killed = e2e.startPi();
			await e2e.live(killed, "in main.ts");
			expect((await piLeftovers(emacs)).length).toBeGreaterThan(0);
			// A key while pi is alive arms the timer; pi is killed before it fires (10 ms): it must go too.
			emacs.keys("C-n");
			killed.run.child.kill("SIGKILL");
			await killed.run.exited;
			await waitForNothingOfPi(emacs);
			emacs.keys("C-n", "X");
			await waitFor(
				"Emacs took the keys",
				async () => (await evalOk(emacs, "(buffer-modified-p (window-buffer))")) === "t",
			);
			expect(await piLeftovers(emacs)).toEqual([]);
			// Nothing of pi's was said in front of the user either.
			expect(await evalOk(emacs, "(current-message)")).toBe("nil");
			expect(await evalText(emacs, `(with-current-buffer "*Messages*" (buffer-string))`)).not.toMatch(/pi-ide|error/i);

			// A third pi installs again into the same Emacs, and works.
			const third = e2e.startPi();
			await e2e.live(third, "in main.ts");
			emacs.keys("M-<");
			await waitFor("the third pi's pushes", async () => (await pushesReceived(third)) > 0);
		},
	);

	test.skipIf(!line.node)(
		"a busy Emacs (a long loop) does not hold up a prompt or the write guard; it pushes again once free",
		async () => {
			const emacs = await e2e.emacs();
			const rpc = e2e.startPi();
			await e2e.live(rpc, "in main.ts");
			emacs.keys("C-n");
			await waitFor("pushed", async () => (await pushesReceived(rpc)) > 0);
			const pushedBefore = await pushesReceived(rpc);
			// Five seconds of Lisp that reads no input, runs no timer and no process filter.
			const loop = emacs.eval("(let ((end (+ (float-time) 5))) (while (< (float-time) end)) t)", 15_000);
			await waitFor("Emacs busy", async () => !(await emacs.eval("t", 300)).ok);
			let started = Date.now();
			await rpc.prompt("in a prompt?");
			expect(Date.now() - started).toBeLessThan(3000);
			expect(ws.lastContext()).toContain(`File: ${main()}`);
			expect(ws.lastContext()).toContain("Cursor: line 2, column 1");
			started = Date.now();
			ws.server.reply = writerModel("src/main.ts", "from the model\n");
			await rpc.prompt("write src/main.ts");
			expect(Date.now() - started).toBeLessThan(3000);
			// The guard could not ask (Emacs busy): the last pushed list said main.ts was saved, so the write went on.
			expect(readFileSync(main(), "utf8")).toBe("from the model\n");
			expect((await loop).ok).toBe(true);
			// Free again: the next key pushes, and pi no longer calls it busy.
			emacs.keys("C-n");
			await waitFor("pushes again", async () => {
				const status = (await rpc.ideStatus()).join("\n");
				const count = Number(/pushes: live \((\d+) received/.exec(status)?.[1] ?? 0);
				return count > pushedBefore && !status.includes("busy:");
			});
			expect(await evalOk(emacs, "(current-message)")).toBe("nil");
		},
	);

	test.skipIf(!line.node)(
		"an Emacs in the minibuffer (M-x open) does not hold up a prompt; its file stays the one meant",
		async () => {
			const emacs = await e2e.emacs();
			const rpc = e2e.startPi();
			await e2e.live(rpc, "in main.ts");
			emacs.keys("M-x");
			await waitFor("in the minibuffer", async () =>
				(await rpc.ideStatus()).join("\n").includes(", in the minibuffer;"),
			);
			const started = Date.now();
			await rpc.prompt("in a prompt?");
			expect(Date.now() - started).toBeLessThan(3000);
			expect(ws.lastContext()).toContain(`File: ${main()}`);
			expect(rpc.lastWidget()).toBe("in main.ts");
			emacs.keys("C-g");
			await waitFor(
				"out of the minibuffer",
				async () => !(await rpc.ideStatus()).join("\n").includes(", in the minibuffer;"),
			);
			expect(await evalOk(emacs, "(active-minibuffer-window)")).toBe("nil");
		},
	);
});
