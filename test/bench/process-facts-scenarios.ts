/**
 * Group 15's set-up and measurements: the `ps` + `lsof` backend of the process facts against the `/proc` one,
 * with ten real headless Neovims (Debian's 0.7.2, `--listen`) and the machine filled up to ~300 processes.
 * Spawns are counted by tiny shell wrappers put first on the PATH (they append a line to a file and exec the
 * real tool): a bench device, the product is not touched.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scanForEmacsen } from "../../src/editors/emacs/discovery.ts";
import { scanForNeovims } from "../../src/editors/neovim/discovery.ts";
import type { ProcessFacts } from "../../src/editors/processes/process-facts.ts";
import { systemProcessFacts } from "../../src/editors/processes/system-facts.ts";
import { zedProcesses } from "../../src/editors/zed/proc-scan.ts";
import type { E2eWorkspace } from "../support/e2e-workspace.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";
import { extraProcesses } from "./neovim-scenarios.ts";
import { cpuWindows } from "./rpc-scenarios.ts";

const PI073 = piLines()[0] as PiLine;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const SCOPE = `pi-ide-bench-facts-${process.pid}`;
export const NEOVIMS = 10;
export const PROCESSES = 300;
/** Longer than the `ps` backend's shared listing (50 ms): every scan lists processes anew, as pi's would. */
export const SCAN_GAP_MS = 300;
/** Scans counted with the wrappers on the PATH, apart from the timed ones (the wrapper's `sh` costs time). */
export const COUNTED_SCANS = 5;

export type Backend = "ps" | "proc";
export type ScanKind = "neovim" | "all";

/** How many processes the machine runs now (every user's). */
export function processCount(): number {
	return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
}

/** `ps` and `lsof` wrappers in `dir/bin` that append `<tool> <args>` to `dir/spawns.log`, then exec the real one. */
export function countingTools(dir: string): { bin: string; runs: () => string[] } {
	const bin = join(dir, "bin");
	const log = join(dir, "spawns.log");
	mkdirSync(bin, { recursive: true });
	writeFileSync(log, "");
	for (const tool of ["ps", "lsof"]) {
		const real = execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
		const script = `#!/bin/sh\nprintf '%s\\n' "${tool} $*" >> ${quote(log)}\nexec ${quote(real)} "$@"\n`;
		writeFileSync(join(bin, tool), script);
		chmodSync(join(bin, tool), 0o755);
	}
	return { bin, runs: () => readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/** Ten headless Neovims listening on sockets in `ws.root/tmp` (the first in the project), in the bench's scope. */
export async function startNeovims(ws: E2eWorkspace): Promise<{ pids: number[]; stop: () => void }> {
	const tmp = join(ws.root, "tmp");
	mkdirSync(tmp, { recursive: true, mode: 0o700 });
	const { NVIM: _, ...parentEnv } = process.env;
	const children: ChildProcess[] = [];
	const stop = () => {
		for (const child of children) child.kill("SIGKILL");
	};
	try {
		for (let i = 0; i < NEOVIMS; i++) {
			const cwd = i === 0 ? ws.project : join(ws.root, `elsewhere-${i}`);
			mkdirSync(cwd, { recursive: true });
			const socket = join(tmp, `nvim-bench-${i}.sock`);
			const files = i === 0 ? ["src/main.ts"] : [];
			const child = spawn("nvim", ["--headless", "--clean", "--listen", socket, ...files], {
				cwd,
				env: { ...parentEnv, TMPDIR: tmp, PI_IDE_TEST_PROC_SCOPE: SCOPE },
				stdio: "ignore",
			});
			children.push(child);
			await waitFor(`nvim ${child.pid}'s socket`, () => existsSync(socket), 10_000);
		}
	} catch (error) {
		stop();
		throw error;
	}
	return { pids: children.map((child) => child.pid as number), stop };
}

/** `sleep`s until the machine runs `PROCESSES` processes (none when it already does); stopped by the result. */
export function fillProcesses(): { added: number; stop: () => void } {
	const added = Math.max(0, PROCESSES - processCount());
	return { added, stop: extraProcesses(added) };
}

const uid = () => process.getuid?.() ?? 0;

/** Editors a scan found, by kind. */
export interface Found {
	neovim: number;
	emacs: number;
	zed: number;
}

/** One scan as pi's sources make it at start: Neovim alone, or Neovim, Emacs and Zed at once. */
async function scan(kind: ScanKind, facts: ProcessFacts): Promise<Found> {
	if (kind === "neovim")
		return { neovim: (await scanForNeovims(uid(), undefined, facts))?.found.length ?? Number.NaN, emacs: 0, zed: 0 };
	const [neovims, emacsen, zeds] = await Promise.all([
		scanForNeovims(uid(), undefined, facts),
		scanForEmacsen(uid(), undefined, facts),
		zedProcesses(uid(), facts),
	]);
	return {
		neovim: neovims?.found.length ?? Number.NaN,
		emacs: emacsen?.length ?? Number.NaN,
		zed: zeds?.length ?? Number.NaN,
	};
}

export interface ScanFigures {
	/** Milliseconds per scan, by backend. */
	ms: Record<Backend, number[]>;
	/** Tool runs per scan on each backend, counted over `COUNTED_SCANS` more scans with the wrappers. */
	spawnsPerScan: Record<Backend, number>;
	/** What those counted scans ran on the `ps` backend, all of them. */
	psRuns: string[];
	/** Editors the last scan found (the machine's other editors count too: the scan is unscoped, as a user's). */
	found: Record<Backend, Found>;
	processes: number;
}

/**
 * `scans` scans of `kind` on each backend, alternating which goes first, `SCAN_GAP_MS` apart and untimed
 * warm-up first (the `ps` backend's one `lsof -v`); then `COUNTED_SCANS` more each with the counting wrappers.
 */
export async function timedScans(kind: ScanKind, scans: number, countDir: string): Promise<ScanFigures> {
	const facts: Record<Backend, ProcessFacts> = {
		ps: systemProcessFacts({ PI_IDE_PROCESS_FACTS: "ps" }, process.platform, () => performance.now()).facts,
		proc: systemProcessFacts({ PI_IDE_PROCESS_FACTS: "proc" }, process.platform, () => performance.now()).facts,
	};
	const none = { neovim: 0, emacs: 0, zed: 0 };
	const found: Record<Backend, Found> = { ps: none, proc: none };
	const ms: Record<Backend, number[]> = { ps: [], proc: [] };
	for (const backend of ["ps", "proc"] as const) await scan(kind, facts[backend]);
	await sleep(SCAN_GAP_MS);
	const processes = processCount();
	for (let i = 0; i < scans; i++) {
		for (const backend of i % 2 === 0 ? (["ps", "proc"] as const) : (["proc", "ps"] as const)) {
			await sleep(SCAN_GAP_MS);
			const started = performance.now();
			found[backend] = await scan(kind, facts[backend]);
			ms[backend].push(performance.now() - started);
		}
	}
	const tools = countingTools(countDir);
	const path = process.env.PATH;
	process.env.PATH = `${tools.bin}:${path ?? ""}`;
	const spawnsPerScan: Record<Backend, number> = { ps: 0, proc: 0 };
	let psRuns: string[] = [];
	try {
		for (const backend of ["ps", "proc"] as const) {
			const before = tools.runs().length;
			for (let i = 0; i < COUNTED_SCANS; i++) {
				await sleep(SCAN_GAP_MS);
				await scan(kind, facts[backend]);
			}
			const runs = tools.runs().slice(before);
			spawnsPerScan[backend] = runs.length / COUNTED_SCANS;
			if (backend === "ps") psRuns = runs;
		}
	} finally {
		process.env.PATH = path;
	}
	return { ms, spawnsPerScan, psRuns, found, processes };
}

export interface IdleFigures {
	/** CPU ms of the pi process in each window. */
	cpu: number[];
	/** Tool runs from pi's start until the windows opened (the start-up scans, the `/ide status` calls). */
	startSpawns: number;
	/** Tool runs during the windows: what ran while idle. */
	idleRuns: string[];
	/** `/ide status`'s Processes line. */
	processesLine: string;
}

/**
 * The real pi (0.73, RPC) with `PI_IDE_PROCESS_FACTS=backend` and the counting wrappers first on its PATH,
 * the ten Neovims in its scope: once it has read all ten and settled, `windows` windows of `seconds` of idle.
 */
export async function idleWithBackend(
	ws: E2eWorkspace,
	backend: Backend,
	neovims: readonly number[],
	seconds: number,
	windows: number,
): Promise<IdleFigures> {
	const tools = countingTools(join(ws.root, `count-idle-${backend}`));
	const pi = RpcPi.start(PI073, {
		cwd: ws.project,
		agentDir: ws.agentDir,
		stateDir: ws.stateDir,
		env: {
			PATH: `${tools.bin}:${process.env.PATH ?? ""}`,
			PI_IDE_PROCESS_FACTS: backend,
			TMPDIR: join(ws.root, "tmp"),
			XDG_RUNTIME_DIR: "",
			NVIM: "",
			PI_IDE_TEST_PROC_SCOPE: SCOPE,
		},
	});
	try {
		await pi.command({ type: "get_state" }, 120_000);
		const status = await waitFor(
			`pi (${backend}) reading all ${neovims.length} Neovims`,
			async () => {
				const lines = await pi.ideStatus();
				const text = lines.join("\n");
				return neovims.every((pid) => text.includes(`nvim ${pid}:`)) && lines;
			},
			60_000,
			500,
		);
		const processesLine = status.find((line) => line.includes("Processes:"))?.trim() ?? "(no Processes line)";
		// Start-up work (pi's own, the first reads of each Neovim) is over before the windows open.
		await sleep(10_000);
		const startSpawns = tools.runs().length;
		const cpu = await cpuWindows(pi.pid, seconds, windows);
		return { cpu, startSpawns, idleRuns: tools.runs().slice(startSpawns), processesLine };
	} finally {
		await pi.stop();
	}
}
