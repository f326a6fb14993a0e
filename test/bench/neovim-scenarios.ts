/**
 * Neovim's rows: real Neovims (Debian's 0.7.2 here) with a UI in tmux, read over their own servers by the
 * real pi (RPC, on the machine's Node) or by the extension in an SDK session. Every Neovim and pi gets the
 * bench's /proc scope: the machine's own Neovims stay out.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { neovimOnPath, RealNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { startSdkSession } from "../support/sdk-session.ts";
import { waitFor } from "../support/wait-for.ts";
import { fixture, timedPrompts } from "./in-process-scenarios.ts";
import { cpuWindows, type Implementation, seededRandom, widgetLatency } from "./rpc-scenarios.ts";

const PI073 = piLines()[0] as PiLine;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const SCOPE = `pi-ide-bench-${process.pid}`;

/** Why the Neovim rows cannot be measured here, or undefined when they can. */
export function neovimSkipReason(): string | undefined {
	return neovimOnPath().skipReason;
}

async function withNeovims<T>(
	neovims: { cwd: "project" | "elsewhere"; count: number },
	work: (ws: E2eWorkspace, nvims: RealNeovim[], start: (settings?: object) => RpcPi) => Promise<T>,
): Promise<T> {
	const ws = await E2eWorkspace.create();
	const tmp = join(ws.root, "tmp");
	const lines = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`).join("\n");
	writeFileSync(join(ws.project, "src", "main.ts"), `${lines}\n`);
	const nvims: RealNeovim[] = [];
	const pis: RpcPi[] = [];
	try {
		for (let i = 0; i < neovims.count; i++) {
			const cwd = neovims.cwd === "project" ? ws.project : join(ws.root, `elsewhere-${i}`);
			mkdirSync(cwd, { recursive: true });
			nvims.push(
				await RealNeovim.start({
					cwd,
					args: neovims.cwd === "project" ? ["src/main.ts"] : [],
					tmpDir: tmp,
					ui: true,
					scope: SCOPE,
				}),
			);
		}
		return await work(ws, nvims, (settings) => {
			if (settings) {
				mkdirSync(join(ws.project, ".pi"), { recursive: true });
				writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify(settings));
			}
			const pi = RpcPi.start(PI073, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: { TMPDIR: tmp, XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: SCOPE },
			});
			pis.push(pi);
			return pi;
		});
	} finally {
		for (const pi of pis) await pi.stop();
		for (const nvim of nvims) nvim.close();
		await ws.cleanup();
	}
}

/**
 * N1. A key in Neovim (`nvim_input`, as typed) to pi's widget showing what it did: visual line mode grows by
 * one line per key, `keys` keys 100-250 ms apart (the push throttle's window is 20 ms).
 */
export async function neovimKeyToWidget(keys: number): Promise<number[]> {
	return withNeovims({ cwd: "project", count: 1 }, async (_ws, [nvim], start) => {
		const pi = start();
		await waitFor("connected to Neovim", () => pi.lastWidget() === "in main.ts", 30_000);
		const random = seededRandom(11);
		const latencies: number[] = [];
		while (latencies.length < keys) {
			await nvim?.keys("<Esc>ggV", "V");
			await waitFor("one line selected", () => pi.lastWidget() === "1 line selected in main.ts", 5000);
			for (let lines = 2; lines <= 60 && latencies.length < keys; lines++) {
				await sleep(100 + random() * 150);
				const expected = `${lines} lines selected in main.ts`;
				latencies.push(await widgetLatency(pi, expected, () => void nvim?.rpc.request("nvim_input", ["j"], 5000)));
			}
		}
		return latencies;
	});
}

/**
 * N2. Time in before_agent_start per prompt through pi's extension runner, the connected editor a Neovim read
 * over its server (pushed state) or, with `"neovim": false`, the same file from a state file.
 */
export async function neovimPromptCost(
	impl: Implementation,
	prompts: number,
): Promise<{ neovim: number[]; stateFile: number[] }> {
	const measure = async (cwd: string, agentDir: string) => {
		const pi = await startSdkSession({ cwd, agentDir, extensionPath: impl.extension ?? undefined });
		try {
			const emit = () =>
				pi.session.extensionRunner.emitBeforeAgentStart("what is this?", undefined, "system", {} as never);
			await waitFor(
				"an editor block",
				async () => JSON.stringify((await emit()) ?? {}).includes("src/main.ts"),
				10_000,
			);
			return await timedPrompts(emit, prompts);
		} finally {
			await pi.shutdown();
		}
	};
	const scope = process.env.PI_IDE_TEST_PROC_SCOPE;
	const tmpdir = process.env.TMPDIR;
	// The Neovim: no state file editor at all (an empty state dir), the source finds it through the scope.
	const neovim = await withNeovims({ cwd: "project", count: 1 }, async (ws) => {
		process.env.PI_IDE_TEST_PROC_SCOPE = SCOPE;
		process.env.TMPDIR = join(ws.root, "tmp");
		process.env.PI_IDE_STATE_DIR = ws.stateDir;
		try {
			return await measure(ws.project, join(ws.root, "sdk-agent"));
		} finally {
			restore("PI_IDE_TEST_PROC_SCOPE", scope);
			restore("TMPDIR", tmpdir);
		}
	});
	const fx = fixture(1, { "pi-ide": { neovim: false } });
	try {
		return { neovim, stateFile: await measure(fx.project, fx.agentDir) };
	} finally {
		await fx.cleanup();
	}
}

function restore(name: string, value: string | undefined): void {
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
}

/**
 * N3. CPU time of the pi process in each of `windows` windows of `seconds`, with three plain Neovims running
 * in other dirs (read once, no pushes), Neovim read or `"neovim": false`.
 */
export async function neovimIdleCpu(seconds: number, windows: number, readNeovim: boolean): Promise<number[]> {
	return withNeovims({ cwd: "elsewhere", count: 3 }, async (_ws, nvims, start) => {
		const pi = start(readNeovim ? undefined : { "pi-ide": { neovim: false } });
		await pi.command({ type: "get_state" }, 30_000);
		if (readNeovim)
			await waitFor(
				"three Neovims read",
				async () => (await pi.ideStatus()).join("\n").includes(`nvim ${nvims[2]?.pid}:`),
				30_000,
			);
		await sleep(10_000);
		return cpuWindows(pi.pid, seconds, windows);
	});
}

/** N4. `count` more processes for the start-up scan to read (plain `sleep`s), stopped by the returned function. */
export function extraProcesses(count: number): () => void {
	const children: ChildProcess[] = [];
	for (let i = 0; i < count; i++) children.push(spawn("sleep", ["600"], { stdio: "ignore" }));
	return () => {
		for (const child of children) child.kill("SIGKILL");
	};
}
