/**
 * Group 17's scenarios: Neovim's ghost text through the real pi 0.73 (RPC) with a real Neovim 0.7.2 with a UI in
 * tmux, the offline fake model held a fixed time per answer. What Neovim draws is read by a UI of the bench's
 * attached beside tmux's (`neovim-screen.ts`): a drawing counts when Neovim flushes it to its UIs. The model stamps
 * just before its answer's last bytes (`performance.now()`, the bench's own process); nothing else is subtracted.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RealNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { globalIdeSettings, isSuggestionRequest } from "../support/suggestion-e2e.ts";
import { waitFor } from "../support/wait-for.ts";
import { NeovimScreen } from "./neovim-screen.ts";
import { seededRandom } from "./rpc-scenarios.ts";

const PI073 = piLines()[0] as PiLine;
const SCOPE = `pi-ide-bench-ghost-${process.pid}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The fake model's fixed latency: headers and every byte of each answer held this long. */
export const GHOST_MODEL_LATENCY_MS = 50;
/** Lines of `const vN = ` in the file: one per sample, each line's end asked about once. */
const LINES = 400;

interface GhostRig {
	ws: E2eWorkspace;
	nvim: RealNeovim;
	screen: NeovimScreen;
	/** pi with these global settings, connected to the Neovim and pushing; the previous one stopped. */
	startPi: (settings: Record<string, unknown>) => Promise<RpcPi>;
}

async function withGhostRig<T>(work: (rig: GhostRig) => Promise<T>): Promise<T> {
	const ws = await E2eWorkspace.create();
	const tmp = join(ws.root, "tmp");
	mkdirSync(tmp, { recursive: true });
	const text = Array.from({ length: LINES }, (_, i) => `const v${i + 1} = `).join("\n");
	writeFileSync(join(ws.project, "src", "ghost.ts"), `${text}\n`);
	ws.server.reply = (request) => (isSuggestionRequest(request) ? "<SUGGESTION>23;</SUGGESTION>" : "ok");
	ws.server.delayMs = GHOST_MODEL_LATENCY_MS;
	const nvim = await RealNeovim.start({ cwd: ws.project, args: ["src/ghost.ts"], tmpDir: tmp, ui: true, scope: SCOPE });
	const screen = await NeovimScreen.attach(nvim.socket);
	let pi: RpcPi | undefined;
	try {
		return await work({
			ws,
			nvim,
			screen,
			startPi: async (settings) => {
				await pi?.stop();
				globalIdeSettings(ws, { suggestionsPerMinute: 1_000_000, ...settings });
				pi = RpcPi.start(PI073, {
					cwd: ws.project,
					agentDir: ws.agentDir,
					stateDir: ws.stateDir,
					env: { TMPDIR: tmp, XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: SCOPE },
				});
				const started = pi;
				await started.waitForWidget("in ghost.ts", 30_000);
				await waitFor("pi's pushes", async () => (await nvim.piGroups()).some((name) => /^pi_ide_\d+$/.test(name)));
				if (settings.suggestions === true)
					await waitFor("the ghost text on", async () =>
						(await started.ideStatus()).join("\n").includes("suggestions: ghost text on"),
					);
				return started;
			},
		});
	} finally {
		await pi?.stop();
		screen.close();
		nvim.close();
		await ws.cleanup();
	}
}

/**
 * G1. The model's last byte -> the ghost text flushed to Neovim's UIs, `samples` times: a digit typed at the end of
 * a fresh line, the pause (300 ms), pi asked, the model answering after its latency, pi's answer drawn by Neovim.
 * What pi adds after the model (reading its answer, the parse, the `nvim_exec_lua` and its mode request) and
 * Neovim's drawing are in it; the model's latency is not.
 */
export async function ghostTextDrawn(samples: number): Promise<number[]> {
	return withGhostRig(async ({ ws, nvim, screen, startPi }) => {
		await startPi({ suggestions: true });
		const drawn: number[] = [];
		for (let n = 1; n <= samples; n++) {
			const line = (n % LINES) + 1;
			await nvim.keys(`<Esc>${line}GA`, "i");
			const index = ws.server.requests.length;
			const shown = screen.whenShows(`const v${line} = 123;`);
			await nvim.keys("1");
			const flushedAt = await shown;
			const [timing, request] = [ws.server.timings[index], ws.server.requests[index]];
			if (!timing?.endedAtMs || !request || !isSuggestionRequest(request))
				throw new Error("the model's answer was not timed");
			drawn.push(flushedAt - timing.endedAtMs);
			await nvim.keys("<Esc>u", "n");
		}
		return drawn;
	});
}

/**
 * G2. A key's cost in Neovim: a character typed in Insert mode (`nvim_input`, as typed) -> flushed to Neovim's UIs,
 * keys 100-250 ms apart (inside the 300 ms pause: nothing is asked), pi connected and pushing, with its ghost text
 * on, and with `"suggestions"` unset before and after it (the second: the noise).
 */
export async function ghostKeystrokes(keys: number): Promise<{ off: number[]; on: number[]; offAgain: number[] }> {
	return withGhostRig(async ({ nvim, screen, startPi }) => {
		const run = async (settings: Record<string, unknown>): Promise<number[]> => {
			await startPi(settings);
			const random = seededRandom(17);
			const latencies: number[] = [];
			let line = 0;
			while (latencies.length < keys) {
				line++;
				await nvim.keys(`<Esc>${line}GA`, "i");
				let typed = "";
				for (let count = 0; count < 40 && latencies.length < keys; count++) {
					await sleep(100 + random() * 150);
					typed += String.fromCharCode(97 + (count % 26));
					const shown = screen.whenShows(`const v${line} = ${typed}`);
					const sentAt = performance.now();
					void nvim.rpc.request("nvim_input", [typed.at(-1)], 5000);
					latencies.push((await shown) - sentAt);
				}
				await nvim.keys("<Esc>", "n");
			}
			await nvim.command("silent! edit! src/ghost.ts");
			return latencies;
		};
		const off = await run({});
		const on = await run({ suggestions: true });
		const offAgain = await run({});
		return { off, on, offAgain };
	});
}
