/**
 * Group 19's scenarios: pi's questions in the editor. Q1 through the real pi 0.73 (RPC) and a real Neovim 0.7.2 with
 * a UI in tmux: a turn asked with `:Pi`, the test extension's tool asking `confirm`; times are the bench's own
 * `performance.now()`: pi's own dialog request reaching the bench (RPC's `extension_ui_request`, sent the moment the
 * extension asks) and the question flushed to Neovim's UIs (`neovim-screen.ts`). Q2 in-process: the wrap's cost on
 * a dialog of a turn typed into pi (no editor's run), against pi's own function on the same fake dialog.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { QuestionMirror } from "../../src/questions/question-mirror.ts";
import { wrapUi } from "../../src/questions/ui-wrap.ts";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { QUESTION_EXTENSION, questionArmed, questionModel } from "../support/question-e2e.ts";
import { RealNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";
import { NeovimScreen } from "./neovim-screen.ts";

const PI073 = piLines()[0] as PiLine;
const SCOPE = `pi-ide-bench-questions-${process.pid}`;

/** Q1, `samples` times: the extension asks `confirm("Allow qN?")` -> the question drawn in Neovim; `1` answers it. */
export async function questionLatencies(samples: number): Promise<number[]> {
	const ws = await E2eWorkspace.create();
	const tmp = join(ws.root, "tmp");
	mkdirSync(tmp, { recursive: true });
	writeFileSync(join(ws.project, "src", "q.ts"), "const q = 1;\n");
	ws.server.reply = questionModel();
	const nvim = await RealNeovim.start({ cwd: ws.project, args: ["src/q.ts"], tmpDir: tmp, ui: true, scope: SCOPE });
	const screen = await NeovimScreen.attach(nvim.socket);
	const pi = RpcPi.start(PI073, {
		cwd: ws.project,
		agentDir: ws.agentDir,
		stateDir: ws.stateDir,
		extraExtensions: [QUESTION_EXTENSION],
		env: { TMPDIR: tmp, XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: SCOPE },
	});
	try {
		await pi.waitForWidget("in q.ts", 30_000);
		await waitFor("pi's commands in Neovim", async () => (await nvim.lua("return vim.fn.exists(':Pi')")) === 2, 30_000);
		const drawn: number[] = [];
		for (let n = 1; n <= samples; n++) {
			const before = pi.messages.length;
			const shown = screen.whenShows(`Allow q${n}?`);
			void nvim.rpc.request("nvim_input", [`:Pi guard q${n}<CR>`], 5000);
			const asked = await waitFor(
				"pi's confirm",
				() => pi.messages.slice(before).find((message) => message.method === "confirm"),
				15_000,
			);
			// A drawing that never comes fails the bench (a pending promise alone would let node exit quietly).
			const never = new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`q${n} never drawn`)), 15_000));
			drawn.push((await Promise.race([shown, never])) - asked.receivedAt);
			await questionArmed(nvim);
			await nvim.rpc.request("nvim_input", ["1"], 5000);
			await waitFor(
				"agent_end",
				() => pi.messages.slice(before).some((message) => message.type === "agent_end"),
				15_000,
			);
		}
		return drawn;
	} finally {
		await pi.stop();
		screen.close();
		nvim.close();
		await ws.cleanup();
	}
}

/** A dialog that answers at once: what is left is the call's own cost. */
function immediateUi(): ExtensionUIContext {
	const answered = Promise.resolve(true);
	return {
		confirm: () => answered,
		select: async () => undefined,
		input: async () => undefined,
		editor: async () => undefined,
		custom: async () => undefined,
	} as unknown as ExtensionUIContext;
}

/** Microseconds per awaited `confirm` over `calls` calls, the least of `rounds` rounds. */
async function perCallMicros(ui: ExtensionUIContext, calls: number, rounds: number): Promise<number> {
	let best = Number.POSITIVE_INFINITY;
	for (let round = 0; round < rounds; round++) {
		const started = performance.now();
		for (let call = 0; call < calls; call++) await ui.confirm("Allow?", "");
		best = Math.min(best, ((performance.now() - started) * 1000) / calls);
	}
	return best;
}

/**
 * Q2: a turn typed into pi (the run has no editor) through the wrap, against pi's own function twice (their
 * difference: the noise), µs per call.
 */
export async function wrapCost(calls: number): Promise<{ own: number; wrapped: number; ownAgain: number }> {
	const mirror = new QuestionMirror({ on: () => true, runEditors: () => [] });
	const wrappedUi = immediateUi();
	const unwrap = wrapUi(wrappedUi, mirror);
	try {
		const own = await perCallMicros(immediateUi(), calls, 5);
		const wrapped = await perCallMicros(wrappedUi, calls, 5);
		const ownAgain = await perCallMicros(immediateUi(), calls, 5);
		return { own, wrapped, ownAgain };
	} finally {
		unwrap();
	}
}
