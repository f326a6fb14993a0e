/**
 * Group 18's scenarios: asks from Neovim through the real pi 0.73 (RPC) and a real Neovim 0.7.2 with a UI in tmux,
 * the offline fake model answering at once. Times are the bench's own `performance.now()`: a command typed into
 * Neovim (`nvim_input`), pi's RPC events as they reach the bench (`agent_start`, `agent_end`), and Neovim's
 * drawing as a UI of the bench's beside tmux's sees it flushed (`neovim-screen.ts`).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { type PiLine, piLines, writeAgentDir } from "../support/pi-cli.ts";
import { RealNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { vscodeHost } from "../support/vscode-host.ts";
import { palette } from "../support/vscode-review-page.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";
import { NeovimScreen } from "./neovim-screen.ts";

const PI073 = piLines()[0] as PiLine;
const SCOPE = `pi-ide-bench-asks-${process.pid}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface AskRig {
	ws: E2eWorkspace;
	nvim: RealNeovim;
	screen: NeovimScreen;
	/** pi with these global settings, its asks registered in the Neovim (or not, when off); the previous one stopped. */
	startPi: (settings: Record<string, unknown>) => Promise<RpcPi>;
}

async function withAskRig<T>(work: (rig: AskRig) => Promise<T>): Promise<T> {
	const ws = await E2eWorkspace.create();
	const tmp = join(ws.root, "tmp");
	mkdirSync(tmp, { recursive: true });
	writeFileSync(join(ws.project, "src", "ask.ts"), "const a = 1;\nconst b = 2;\n");
	ws.server.reply = () => "ok";
	const nvim = await RealNeovim.start({ cwd: ws.project, args: ["src/ask.ts"], tmpDir: tmp, ui: true, scope: SCOPE });
	const screen = await NeovimScreen.attach(nvim.socket);
	let pi: RpcPi | undefined;
	try {
		return await work({
			ws,
			nvim,
			screen,
			startPi: async (settings) => {
				await pi?.stop();
				writeFileSync(join(ws.agentDir, "settings.json"), JSON.stringify({ "pi-ide": settings }));
				pi = RpcPi.start(PI073, {
					cwd: ws.project,
					agentDir: ws.agentDir,
					stateDir: ws.stateDir,
					env: { TMPDIR: tmp, XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: SCOPE },
				});
				await pi.waitForWidget("in ask.ts", 30_000);
				if (settings.asks !== false)
					await waitFor("pi's commands in Neovim", async () => (await nvim.lua("return vim.fn.exists(':Pi')")) === 2);
				return pi;
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
 * A1 and A2, `samples` times each: `:Pi n<CR>` typed into Neovim -> pi's `agent_start` (the run started: the
 * notification, pi's check, the reference reading and redaction, `sendUserMessage`, pi's input hook, its run's
 * start); and pi's `agent_end` -> `pi: done` flushed to Neovim's UIs (the buffers following the disk, the
 * `nvim_exec_lua` with its mode request, Neovim's drawing).
 */
export async function askLatencies(samples: number): Promise<{ started: number[]; done: number[] }> {
	return withAskRig(async ({ nvim, screen, startPi }) => {
		const pi = await startPi({});
		const started: number[] = [];
		const done: number[] = [];
		for (let n = 1; n <= samples; n++) {
			const before = pi.messages.length;
			const marker = `pi: done`;
			await nvim.command("echo ''");
			const drawn = screen.whenShows(marker);
			const typedAt = performance.now();
			void nvim.rpc.request("nvim_input", [`:Pi bench ask ${n}<CR>`], 5000);
			const start = await waitFor("agent_start", () =>
				pi.messages.slice(before).find((message) => message.type === "agent_start"),
			);
			const end = await waitFor("agent_end", () =>
				pi.messages.slice(before).find((message) => message.type === "agent_end"),
			);
			const drawnAt = await drawn;
			started.push(start.receivedAt - typedAt);
			done.push(drawnAt - end.receivedAt);
			await sleep(50);
		}
		return { started, done };
	});
}

/** The CPU time (user + system, ms) the pi process spent over `seconds` of idleness, read from its /proc stat. */
async function idleCpuMs(pid: number, seconds: number): Promise<number> {
	const ticks = () => {
		const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
		return Number(fields[11]) + Number(fields[12]);
	};
	const before = ticks();
	await sleep(seconds * 1000);
	// Linux's USER_HZ is 100 on every distribution's kernel: a tick is 10 ms.
	return (ticks() - before) * 10;
}

/**
 * A3. pi's idle cost: three pis at once, connected to the one Neovim (one pushing), one with asks on (its commands
 * registered there) and two with asks off (their difference: the noise), measured over the same window after all
 * three settled, the least of three windows each (a pi's own one-off work stays out): asks add no timer and no poll.
 */
export async function askIdleCost(
	seconds: number,
	settleSeconds: number,
): Promise<{ off: number; on: number; offAgain: number; windows: number[][] }> {
	return withAskRig(async ({ ws, nvim }) => {
		const tmp = join(ws.root, "tmp");
		const start = (name: string, asks: boolean) => {
			const agentDir = join(ws.root, `agent-${name}`);
			writeAgentDir(agentDir, ws.server.baseUrl, { "pi-ide": { asks } });
			return RpcPi.start(PI073, {
				cwd: ws.project,
				agentDir,
				stateDir: ws.stateDir,
				env: { TMPDIR: tmp, XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: SCOPE },
			});
		};
		const pis = [start("off", false), start("on", true), start("off-again", false)];
		try {
			await Promise.all(pis.map((pi) => pi.waitForWidget("in ask.ts", 30_000)));
			await waitFor("the asking pi's commands", async () => (await nvim.lua("return vim.fn.exists(':Pi')")) === 2);
			await sleep(settleSeconds * 1000);
			// Three windows each, the least kept: a window with a pi's own one-off work in it says nothing of idling.
			const windows: number[][] = [[], [], []];
			for (let window = 0; window < 3; window++) {
				const spent = await Promise.all(pis.map((pi) => idleCpuMs(pi.pid, seconds)));
				for (const [index, ms] of spent.entries()) windows[index]?.push(ms);
			}
			const [off, on, offAgain] = windows.map((each) => Math.min(...each));
			return { off: off as number, on: on as number, offAgain: offAgain as number, windows };
		} finally {
			await Promise.all(pis.map((pi) => pi.stop()));
		}
	});
}

/**
 * A4. "pi: Ask…" in a real VS Code (code-server, chromium) with the shipped client, through the real pi 1.x (RPC):
 * Enter pressed in the input box -> pi's `agent_start` on its RPC output (the client's request over its socket,
 * pi's checks, `sendUserMessage`, the input hook, the run's start), `samples` asks.
 */
export async function vscodeAskLatencies(samples: number): Promise<number[]> {
	const pi1 = piLines()[1] as PiLine;
	const host = vscodeHost();
	const ws = await E2eWorkspace.create();
	writeFileSync(join(ws.project, "src", "ask.ts"), "const a = 1;\nconst b = 2;\n");
	writeAgentDir(ws.agentDir, ws.server.baseUrl);
	ws.server.reply = () => "ok";
	const vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>);
	try {
		await vscode.open("ask.ts");
		await waitFor(
			"asks offered",
			async () => (await vscode.rpc.ideStatus()).some((line) => line.includes("asks: offered")),
			30_000,
		);
		const started: number[] = [];
		for (let n = 1; n <= samples; n++) {
			const before = vscode.rpc.messages.length;
			await palette(vscode.page, "pi: Ask…");
			await vscode.waitForInput("Ask pi");
			await vscode.page.keyboard.type(`bench ask ${n}`);
			const pressedAt = performance.now();
			await vscode.page.keyboard.press("Enter");
			const start = await waitFor("agent_start", () =>
				vscode.rpc.messages.slice(before).find((message) => message.type === "agent_start"),
			);
			started.push(start.receivedAt - pressedAt);
			await waitFor("agent_end", () =>
				vscode.rpc.messages.slice(before).some((message) => message.type === "agent_end"),
			);
			await sleep(200);
		}
		return started;
	} finally {
		await vscode.stop();
		await ws.cleanup();
	}
}
