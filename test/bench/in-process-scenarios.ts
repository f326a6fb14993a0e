/**
 * Benchmarks inside one process through pi's SDK: the real extension (or the baseline) loaded into a real
 * AgentSession, its handlers called through pi's own extension runner.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getHeapSpaceStatistics } from "node:v8";
import { parseReferences } from "../../src/references/core/parse.ts";
import { FakeEditor } from "../support/fake-editor.ts";
import { editorState } from "../support/fixtures.ts";
import { startSdkSession } from "../support/sdk-session.ts";
import { tempDir } from "../support/temp-dir.ts";
import { FreshEditors } from "./fresh-editors.ts";
import type { Implementation } from "./rpc-scenarios.ts";

const PROMPT_GAP_MS = 20;

const DEAD_PID_BASE = 5_000_000;

interface Fixture {
	project: string;
	agentDir: string;
	editor: FakeEditor;
	cleanup: () => Promise<void>;
}

/** One live editor in the project plus `files - 1` files of dead pids; `settings` as the project's. */
export function fixture(files: number, settings?: object): Fixture {
	const tmp = tempDir("bench");
	const project = join(tmp.path, "proj");
	const stateDir = join(tmp.path, "state");
	mkdirSync(join(project, "src"), { recursive: true });
	mkdirSync(stateDir, { mode: 0o700 });
	const state = (pid: number) =>
		JSON.stringify(
			editorState({ pid, cwd: project, timestamp: Date.now() / 1000, buffer: { file: `${project}/src/main.ts` } }),
		);
	for (let i = 0; i < files - 1; i++)
		writeFileSync(join(stateDir, `${DEAD_PID_BASE + i}.json`), state(DEAD_PID_BASE + i));
	const editor = FakeEditor.spawn(stateDir);
	editor.write(state(editor.pid));
	process.env.PI_IDE_STATE_DIR = stateDir;
	if (settings) {
		mkdirSync(join(project, ".pi"), { recursive: true });
		writeFileSync(join(project, ".pi", "settings.json"), JSON.stringify(settings));
	}
	return {
		project,
		agentDir: join(tmp.path, "agent"),
		editor,
		cleanup: async () => {
			await editor.kill();
			tmp.cleanup();
		},
	};
}

const extensionPath = (impl: Implementation) => impl.extension ?? undefined;

/** 4. Time in before_agent_start per prompt, through pi's extension runner. */
export async function promptCost(impl: Implementation, files: number, prompts: number): Promise<number[]> {
	const fx = fixture(files);
	const pi = await startSdkSession({ cwd: fx.project, agentDir: fx.agentDir, extensionPath: extensionPath(impl) });
	try {
		const runner = pi.session.extensionRunner;
		const emit = () => runner.emitBeforeAgentStart("what is this?", undefined, "system", {} as never);
		const first = await emit();
		if (!JSON.stringify(first ?? {}).includes("src/main.ts"))
			throw new Error(`${impl.name}: no editor block with ${files} files`);
		return await timedPrompts(emit, prompts);
	} finally {
		await pi.shutdown();
		await fx.cleanup();
	}
}

/** `prompts` timed calls of `emit` after 50 untimed ones (the handler's code warmed up). */
export async function timedPrompts(emit: () => Promise<unknown>, prompts: number): Promise<number[]> {
	for (let i = 0; i < 50; i++) await emit();
	const times: number[] = [];
	for (let i = 0; i < prompts; i++) {
		const started = performance.now();
		await emit();
		times.push(performance.now() - started);
	}
	return times;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** About 64 KiB of ordinary code, different for every `seed`, with no credential in it. */
export function selectionText(seed: number, bytes = 64 * 1024): string {
	const lines: string[] = [];
	let size = 0;
	for (let i = 0; size < bytes - 64; i++) {
		const line = `export const value${seed}_${i} = computeSomething(${i}, "label ${seed}");`;
		lines.push(line);
		size += line.length + 1;
	}
	return lines.join("\n");
}

/**
 * 4b. What a prompt costs on the paths 0.1 did not measure, through pi's extension runner in a real session:
 * - `newSelection`: every prompt carries a new 64 KiB selection (cut, redaction scan, hashing included);
 * - `sentSelection`: the same 64 KiB selection again while the session of `entries` entries already holds it
 *   (the send-once walk over the branch, no text sent);
 * - `duringWrite`: the prompt lands while the connected editor's write is being read (the flush path).
 */
export async function promptPaths(
	impl: Implementation,
	options: { prompts: number; entries: number },
): Promise<{ newSelection: number[]; sentSelection: number[]; duringWrite: number[]; duringWriteSeen: number }> {
	const fx = fixture(1);
	const pi = await startSdkSession({ cwd: fx.project, agentDir: fx.agentDir, extensionPath: extensionPath(impl) });
	const runner = pi.session.extensionRunner;
	const emit = () => runner.emitBeforeAgentStart("what is this?", undefined, "system", {} as never);
	const stateWith = (text: string, cursorLine = 1) =>
		JSON.stringify(
			editorState({
				pid: fx.editor.pid,
				cwd: fx.project,
				timestamp: Date.now() / 1000,
				buffer: {
					file: `${fx.project}/src/main.ts`,
					cursor: { line: cursorLine, column: 1 },
					selection: {
						start: { line: 1, column: 1 },
						end: { line: text.split("\n").length, column: 1 },
						text,
						selected_at: Date.now() / 1000,
					},
				},
			}),
		);
	try {
		const newSelection: number[] = [];
		for (let i = 0; i < options.prompts; i++) {
			const text = selectionText(i);
			fx.editor.write(stateWith(text));
			// Wait until the watcher has the write, without preparing it: the timed emit does that work.
			await sleep(120);
			const started = performance.now();
			const result = await emit();
			newSelection.push(performance.now() - started);
			const content = (result as { messages?: { content?: unknown }[] } | undefined)?.messages?.[0]?.content;
			if (typeof content !== "string" || !content.includes(text.slice(-40))) {
				throw new Error(`${impl.name}: selection ${i} not sent: ${String(content).slice(0, 300)}`);
			}
		}
		// A session of `entries` entries whose last prompt carried the selection now in the editor.
		const kept = selectionText(10_000);
		fx.editor.write(stateWith(kept));
		await sleep(120);
		const manager = pi.session.sessionManager;
		for (let i = 0; manager.getBranch().length < options.entries - 2; i++) {
			manager.appendMessage({
				role: "user",
				content: [{ type: "text", text: `question ${i}` }],
				timestamp: Date.now(),
			} as never);
		}
		await pi.session.prompt("with the selection");
		if (manager.getBranch().length < options.entries) throw new Error("session smaller than asked");
		const sentSelection: number[] = [];
		for (let i = 0; i < options.prompts * 10; i++) {
			// The conversation goes on between prompts, as it does for real: the branch grows every time.
			manager.appendMessage({
				role: "user",
				content: [{ type: "text", text: `more ${i}` }],
				timestamp: Date.now(),
			} as never);
			const started = performance.now();
			await emit();
			sentSelection.push(performance.now() - started);
		}
		const duringWrite: number[] = [];
		let duringWriteSeen = 0;
		for (let i = 0; i < options.prompts; i++) {
			await sleep(150);
			fx.editor.write(stateWith(kept, i + 2));
			// The write's event arrives within a millisecond or two; the prompt lands while it is read.
			await sleep(1);
			const started = performance.now();
			const result = await emit();
			duringWrite.push(performance.now() - started);
			if (JSON.stringify(result ?? {}).includes(`Cursor: line ${i + 2},`)) duringWriteSeen++;
		}
		return { newSelection, sentSelection, duringWrite, duringWriteSeen };
	} finally {
		await pi.shutdown();
		await fx.cleanup();
	}
}

/** 5. session_start until connected (the first prompt would carry the block), with `files` state files. */
export async function startupTime(impl: Implementation, files: number, settings?: object): Promise<number> {
	const fx = fixture(files, settings);
	const pi = await startSdkSession({
		cwd: fx.project,
		agentDir: fx.agentDir,
		extensionPath: extensionPath(impl),
		bind: false,
	});
	try {
		const started = performance.now();
		await pi.session.bindExtensions({});
		const elapsed = performance.now() - started;
		const block = await pi.session.extensionRunner.emitBeforeAgentStart("x", undefined, "system", {} as never);
		if (!JSON.stringify(block ?? {}).includes("src/main.ts"))
			throw new Error(`${impl.name}: not connected after start with ${files} files`);
		return elapsed;
	} finally {
		await pi.shutdown();
		await fx.cleanup();
	}
}

/**
 * V8's heap in use outside its code space. Compiled code grows for a while as V8 optimizes the hot paths
 * (heap snapshots of rounds 1 and 5 showed only `code` and deopt data growing) and is V8's to bound, not data
 * pi-ide keeps: left out, so the slope says what the extension holds per editor.
 */
function heapOutsideCodeBytes(): number {
	const code = getHeapSpaceStatistics().find((space) => space.space_name === "code_space")?.space_used_size ?? 0;
	return process.memoryUsage().heapUsed - code;
}

/**
 * 7b. The leak check RSS cannot give: V8 heap in use (outside its code space) after a forced GC, in a real pi session with the
 * extension, across rounds of `writes` writes and `appearances` editors coming and going, each with a pid
 * never seen before. Needs --expose-gc.
 */
export async function heapAfterGc(
	impl: Implementation,
	writes: number,
	appearances: number,
	rounds: number,
): Promise<{ heapsKiB: number[]; distinctPids: number }> {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error("run with node --expose-gc");
	const fx = fixture(1);
	const comers = new FreshEditors(process.env.PI_IDE_STATE_DIR as string);
	const pi = await startSdkSession({ cwd: fx.project, agentDir: fx.agentDir, extensionPath: extensionPath(impl) });
	const state = (pid: number, name: string, cwd = fx.project) =>
		JSON.stringify(
			editorState({ pid, cwd, timestamp: Date.now() / 1000, buffer: { file: `${fx.project}/src/${name}`, name } }),
		);
	try {
		const heapsKiB: number[] = [];
		let written = 0;
		for (let round = 0; round <= rounds; round++) {
			for (let i = 1; i <= writes; i++) {
				written++;
				fx.editor.write(state(fx.editor.pid, `m${written}.ts`));
				if (i % 50 === 0) await sleep(5);
			}
			await comers.comeAndGo(appearances, (pid, i) => state(pid, `h${i}.ts`, `/elsewhere/${i}`));
			await sleep(1500);
			gc();
			heapsKiB.push(Math.round(heapOutsideCodeBytes() / 1024));
		}
		return { heapsKiB, distinctPids: comers.distinctPids };
	} finally {
		await pi.shutdown();
		await fx.cleanup();
	}
}

/**
 * 4. The prompt path with references: parsing a prompt that has none (the cost every prompt pays), and a
 * prompt naming a new 64 KiB range of a file on disk (read, cut, scanned for credentials, hashed). Prompts
 * come 20 ms apart, as typed prompts never come closer: back to back, each one also paid for the trailing
 * work of the one before (a handle's close, the scanner's leftovers), ~1.5 ms more at p50 on this machine.
 */
export async function referencePaths(
	impl: Implementation,
	prompts: number,
): Promise<{ parseNoReference: number[]; newReference: number[] }> {
	const typical = `please look at the function that totals the orders ${"and explain it step by step ".repeat(12)}`;
	const parseNoReference: number[] = [];
	for (let i = 0; i < prompts * 50; i++) {
		const text = `${typical}${i} mail me@example.com or see @src/main.ts`;
		const started = performance.now();
		if (parseReferences(text).references.length !== 0) throw new Error("a reference where there is none");
		parseNoReference.push(performance.now() - started);
	}
	const fx = fixture(1);
	const pi = await startSdkSession({ cwd: fx.project, agentDir: fx.agentDir, extensionPath: extensionPath(impl) });
	const runner = pi.session.extensionRunner;
	try {
		const newReference: number[] = [];
		for (let i = 0; i < prompts; i++) {
			const text = selectionText(i + 20_000);
			writeFileSync(join(fx.project, "src", `big${i}.ts`), text);
			const lines = text.split("\n").length;
			await sleep(PROMPT_GAP_MS);
			const started = performance.now();
			const result = await runner.emitBeforeAgentStart(
				`explain @src/big${i}.ts#L1-${lines}`,
				undefined,
				"system",
				{} as never,
			);
			newReference.push(performance.now() - started);
			const content = (result as { messages?: { content?: unknown }[] } | undefined)?.messages?.[0]?.content;
			if (typeof content !== "string" || !content.includes(text.slice(-40))) {
				throw new Error(`${impl.name}: reference ${i} not sent: ${String(content).slice(0, 300)}`);
			}
		}
		return { parseNoReference, newReference };
	} finally {
		await pi.shutdown();
		await fx.cleanup();
	}
}
