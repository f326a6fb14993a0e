/**
 * Group 12's scenarios: IDE servers (the Claude Code wire format: lockfile + MCP over a loopback WebSocket) as
 * the fakes of test/support serve them, in the bench process, read by the real pi (RPC, pi 0.73 on the
 * bench's Node) or by the extension in an SDK session in this process. Every pi gets its own lock root
 * (`PI_IDE_TEST_LOCK_ROOT`: never the developer's `~/.claude/ide`) and the bench's /proc scope (the machine's
 * own Neovims stay out).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { FakeIdeServer } from "../support/fake-ide-server.ts";
import { type PiLine, piLines, writeAgentDir } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { startSdkSession } from "../support/sdk-session.ts";
import { tempDir } from "../support/temp-dir.ts";
import { waitFor } from "../support/wait-for.ts";
import { fixture, timedPrompts } from "./in-process-scenarios.ts";
import { cpuWindows, type Implementation, seededRandom, widgetLatency } from "./rpc-scenarios.ts";

const PI073 = piLines()[0] as PiLine;
const SCOPE = `pi-ide-bench-ide-servers-${process.pid}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** The state-file fixture's editor (fixtures.ts editorState): 200 lines, the cursor at line 42, column 10. */
const FILE_LINES = 200;
const FILE_TEXT = `${Array.from({ length: FILE_LINES }, (_, i) => `const line${i + 1} = ${i + 1};`).join("\n")}\n`;
const CURSOR = { line: 41, character: 9 };
/** Past the source's replay window (IDE_SELECTION_REPLAY_MS, 1.5 s): a selection pushed after it is fresh. */
const AFTER_REPLAY_MS = 2500;

type IdeMode = "auto" | false;

/** Why the group cannot be measured here, or undefined when it can. */
export function ideServerSkipReason(): string | undefined {
	return PI073?.node ? undefined : (PI073?.skipReason ?? "pi 0.73 is not runnable here");
}

/** The environment a pi of this group reads its IDE servers by: only the lock root given, no Neovim, no enclosing IDE. */
function ideEnv(lockRoot: string): Record<string, string> {
	return {
		PI_IDE_TEST_LOCK_ROOT: lockRoot,
		CLAUDE_CONFIG_DIR: "",
		PI_IDE_LOCK_DIR: "",
		CLAUDE_CODE_SSE_PORT: "",
		PI_IDE_TEST_PROC_SCOPE: SCOPE,
		NVIM: "",
	};
}

const claudeLockDir = (lockRoot: string) => join(lockRoot, ".claude", "ide");

interface IdeWorkspace {
	ws: E2eWorkspace;
	lockRoot: string;
	/** The project's src/main.ts, FILE_LINES lines. */
	file: string;
	/** A pi in RPC mode in the project, with `"pi-ide": { "ideServers": mode }` in its global settings. */
	start: (mode: IdeMode) => RpcPi;
}

/** One workspace: a project, an empty state dir, a lock root with nothing in it yet; every pi stopped at the end. */
/** A JetBrains-like fake serving `project`, its lockfile in the bench's own lock root. */
function jetbrainsServer(lockRoot: string, project: string): Promise<FakeIdeServer> {
	return FakeIdeServer.start({ flavour: "jetbrains", lockDir: claudeLockDir(lockRoot), workspaceFolders: [project] });
}

async function withIdeWorkspace<T>(work: (bench: IdeWorkspace) => Promise<T>): Promise<T> {
	const ws = await E2eWorkspace.create();
	const lockRoot = join(ws.root, "lock-root");
	mkdirSync(lockRoot, { mode: 0o700 });
	const file = join(ws.project, "src", "main.ts");
	writeFileSync(file, FILE_TEXT);
	const pis: RpcPi[] = [];
	try {
		return await work({
			ws,
			lockRoot,
			file,
			start: (mode) => {
				const agentDir = join(ws.root, `agent-${pis.length}`);
				writeAgentDir(agentDir, ws.server.baseUrl, { "pi-ide": { ideServers: mode } });
				const pi = RpcPi.start(PI073, {
					cwd: ws.project,
					agentDir,
					stateDir: ws.stateDir,
					env: { ...ideEnv(lockRoot), TMPDIR: join(ws.root, "tmp"), XDG_RUNTIME_DIR: "" },
				});
				pis.push(pi);
				return pi;
			},
		});
	} finally {
		for (const pi of pis) await pi.stop();
		await ws.cleanup();
	}
}

/**
 * Pushes the file with the cursor (again, every 200 ms) until the widget shows it: a JetBrains-like server has
 * no tool to ask, and a push before pi's connection is open reaches no one.
 */
async function untilShown(server: FakeIdeServer, pi: RpcPi, file: string): Promise<void> {
	await pi.command({ type: "get_state" }, 40_000);
	await waitFor(
		"the IDE server's file in the widget",
		() => {
			server.setEditor({ file, text: FILE_TEXT, selection: { start: CURSOR, end: CURSOR } }, { push: true });
			return pi.lastWidget() === "in main.ts";
		},
		30_000,
		200,
	);
}

/** Lines 0..`last` selected (0-based, the end inside line `last`), with their text. */
function linesSelection(last: number) {
	const selectedText = FILE_TEXT.split("\n")
		.slice(0, last + 1)
		.join("\n")
		.slice(0, -2);
	const end = { line: last, character: `const line${last + 1} = ${last + 1};`.length - 2 };
	return { selection: { start: { line: 0, character: 0 }, end }, selectedText };
}

/**
 * I1. `selection_changed` pushed by a JetBrains-like server (in this process) to pi's widget showing it, pi 0.73
 * in RPC mode connected by `"ideServers": "auto"`: `pushes` selections 100-250 ms apart, each one line longer than
 * the last (2..60 lines, then again), timed from just before the push to the setWidget record's arrival.
 */
export async function selectionToWidget(pushes: number): Promise<number[]> {
	return withIdeWorkspace(async ({ ws, lockRoot, file, start }) => {
		const server = await jetbrainsServer(lockRoot, ws.project);
		try {
			const pi = start("auto");
			await untilShown(server, pi, file);
			await sleep(AFTER_REPLAY_MS);
			const random = seededRandom(12);
			const latencies: number[] = [];
			for (let lines = 2; latencies.length < pushes; lines = lines >= 60 ? 2 : lines + 1) {
				await sleep(100 + random() * 150);
				const expected = `${lines} lines selected in main.ts`;
				latencies.push(await widgetLatency(pi, expected, () => server.setEditor(linesSelection(lines - 1))));
			}
			return latencies;
		} finally {
			await server.stop();
		}
	});
}

/** Sets `name` in the environment for the length of `work` (undefined: removed), as it was after. */
async function withEnv<T>(values: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
	const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
	const set = (all: Record<string, string | undefined>) => {
		for (const [name, value] of Object.entries(all)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	};
	set(values);
	try {
		return await work();
	} finally {
		set(before);
	}
}

/** `prompts` timed before_agent_start calls in an SDK session of `cwd` once its block names src/main.ts. */
async function sdkPromptCost(
	impl: Implementation,
	cwd: string,
	agentDir: string,
	prompts: number,
	ready: () => void = () => {},
): Promise<number[]> {
	const pi = await startSdkSession({ cwd, agentDir, extensionPath: impl.extension ?? undefined });
	try {
		const emit = () =>
			pi.session.extensionRunner.emitBeforeAgentStart("what is this?", undefined, "system", {} as never);
		await waitFor(
			"an editor block",
			async () => {
				ready();
				return JSON.stringify((await emit()) ?? {}).includes("src/main.ts");
			},
			30_000,
			200,
		);
		return await timedPrompts(emit, prompts);
	} finally {
		await pi.shutdown();
	}
}

/**
 * I2. Time in before_agent_start per prompt through pi's extension runner, the connected editor an IDE server of
 * `flavour` in this process (no state file editor: an empty state dir; `"ideServers": "auto"` in the global
 * settings) showing src/main.ts with the cursor at line 42, column 10, as the state file fixture's editor does.
 */
export async function ideServerPromptCost(
	impl: Implementation,
	flavour: "jetbrains" | "vscode",
	prompts: number,
): Promise<{ samples: number[]; asks: number }> {
	const tmp = tempDir("bench-ide");
	const project = join(tmp.path, "proj");
	const stateDir = join(tmp.path, "state");
	const agentDir = join(tmp.path, "agent");
	const lockRoot = join(tmp.path, "lock-root");
	mkdirSync(join(project, "src"), { recursive: true });
	mkdirSync(stateDir, { mode: 0o700 });
	mkdirSync(lockRoot, { mode: 0o700 });
	writeAgentDir(agentDir, "http://127.0.0.1:9", { "pi-ide": { ideServers: "auto" } });
	const file = join(project, "src", "main.ts");
	writeFileSync(file, FILE_TEXT);
	const server = await FakeIdeServer.start({ flavour, lockDir: claudeLockDir(lockRoot), workspaceFolders: [project] });
	// VS Code's is asked at connect (getOpenEditors, getCurrentSelection); JetBrains' pushes after pi connects.
	const show = (push: boolean) =>
		server.setEditor({ file, text: FILE_TEXT, selection: { start: CURSOR, end: CURSOR } }, { push });
	show(false);
	try {
		const samples = await withEnv(
			{ ...ideEnv(lockRoot), PI_IDE_STATE_DIR: stateDir, PI_CODING_AGENT_DIR: agentDir },
			() => sdkPromptCost(impl, project, agentDir, prompts, () => flavour === "jetbrains" && show(true)),
		);
		// What the server was asked for its selection: at connect, then (VS Code) once per prompt, warm-up ones too.
		const asks = server.received.filter(
			({ message }) => message?.method === "tools/call" && message.params?.name === "getCurrentSelection",
		).length;
		return { samples, asks };
	} finally {
		await server.stop();
		tmp.cleanup();
	}
}

/** I2'. The same prompts with the same file from a state file editor, `"ideServers": false`. */
export async function stateFilePromptCost(impl: Implementation, prompts: number): Promise<number[]> {
	const fx = fixture(1, { "pi-ide": { ideServers: false } });
	const lockRoot = join(fx.agentDir, "..", "lock-root");
	mkdirSync(lockRoot, { recursive: true, mode: 0o700 });
	try {
		return await withEnv({ ...ideEnv(lockRoot), PI_CODING_AGENT_DIR: fx.agentDir }, () =>
			sdkPromptCost(impl, fx.project, fx.agentDir, prompts),
		);
	} finally {
		await fx.cleanup();
	}
}

/**
 * I3. CPU time of three pi processes in the same `windows` windows of `seconds`, one JetBrains-like server (in
 * this process, pushing nothing once pi shows its file) in their project: one pi connected to it
 * (`"ideServers": "auto"`), two with `"ideServers": false` (the second: the resolution).
 */
export async function ideServerIdleCpu(
	seconds: number,
	windows: number,
): Promise<{ connected: number[]; off: number[]; offAgain: number[] }> {
	return withIdeWorkspace(async ({ ws, lockRoot, file, start }) => {
		const server = await jetbrainsServer(lockRoot, ws.project);
		try {
			const [connected, off, offAgain] = [start("auto"), start(false), start(false)] as [RpcPi, RpcPi, RpcPi];
			await Promise.all([off, offAgain].map((pi) => pi.command({ type: "get_state" }, 40_000)));
			await untilShown(server, connected, file);
			if (server.openClients !== 1) throw new Error(`${server.openClients} clients of the IDE server, not 1`);
			// Start-up work must be over before the windows open (rpc-scenarios' idleCpu says why 10 s).
			await sleep(10_000);
			const [a, b, c] = await Promise.all([connected, off, offAgain].map((pi) => cpuWindows(pi.pid, seconds, windows)));
			if (server.openClients !== 1) throw new Error("the connected pi lost its IDE server during the windows");
			return { connected: a ?? [], off: b ?? [], offAgain: c ?? [] };
		} finally {
			await server.stop();
		}
	});
}
