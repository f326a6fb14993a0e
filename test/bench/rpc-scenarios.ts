/**
 * Benchmarks through the real pi CLI in RPC mode: one pi process per implementation, fed by real editor
 * processes writing real state files. Arrival times are taken when the RPC record reaches this process.
 */

import { randomInt } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { FakeEditor, StateFileWriter } from "../support/fake-editor.ts";
import { projectState, type StateOverrides, selection } from "../support/fixtures.ts";
import { piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";
import { FreshEditors } from "./fresh-editors.ts";

export interface Implementation {
	name: string;
	/** Extension path for `pi -e`; null runs pi with no extension at all. */
	extension: string | null;
}

const PI = piLines()[0];
const DEAD_PID_BASE = 5_000_000; // above Linux's pid_max: never a live process

/** A deterministic pseudo-random sequence, so both implementations get the same irregular intervals. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const GC_COMMAND = join(import.meta.dirname, "gc-command.ts");

async function withPi<T>(
	impl: Implementation,
	work: (ws: E2eWorkspace, start: () => RpcPi) => Promise<T>,
	options: {
		gc?: boolean;
		/** More environment for pi, given the workspace. */
		env?: (ws: E2eWorkspace) => Record<string, string>;
		withoutStateDirVariable?: boolean;
	} = {},
): Promise<T> {
	if (!PI?.node) throw new Error("pi 0.73 is not runnable here");
	const ws = await E2eWorkspace.create();
	let pi: RpcPi | undefined;
	try {
		return await work(ws, () => {
			pi = RpcPi.start(PI, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: options.withoutStateDirVariable ? null : ws.stateDir,
				extension: impl.extension,
				env: { ...options.env?.(ws), ...(options.gc && { NODE_OPTIONS: "--expose-gc" }) },
				...(options.gc && { extraExtensions: [GC_COMMAND] }),
			});
			return pi;
		});
	} finally {
		await pi?.stop();
		await ws.cleanup();
	}
}

const stateIn = (ws: E2eWorkspace, pid: number, name: string, overrides: StateOverrides = {}) =>
	projectState(ws.project, { pid, ...overrides }, name);

/**
 * 1. Editor write (tmp + rename) to the widget showing that write, timed from just before the write. Single
 * writes come 50-250 ms apart; bursts are three writes 5-15 ms apart, inside chokidar's 50 ms throttle
 * (where only the trailing re-read or a raw event sees the last one), timed from the last write of each burst.
 */
export async function followLatency(
	impl: Implementation,
	writes: number,
): Promise<{ single: number[]; burst: number[] }> {
	return withPi(impl, async (ws, start) => {
		const editor = ws.editor();
		editor.write(stateIn(ws, editor.pid, "f0.ts"));
		const pi = start();
		await waitFor("first widget", () => pi.lastWidget() === "in f0.ts", 30_000);
		const random = seededRandom(42);
		let index = 0;
		const written = new Map<number, number>();
		const write = () => {
			index++;
			const at = performance.now();
			editor.write(stateIn(ws, editor.pid, `f${index}.ts`));
			return at;
		};
		const singles: number[] = [];
		const bursts: number[] = [];
		for (let i = 0; i < writes; i++) {
			await sleep(50 + random() * 200);
			const at = write();
			written.set(index, at);
			singles.push(index);
		}
		for (let i = 0; i < writes / 4; i++) {
			await sleep(100 + random() * 200);
			write();
			await sleep(5 + random() * 10);
			write();
			await sleep(5 + random() * 10);
			const at = write();
			written.set(index, at);
			bursts.push(index);
		}
		await waitFor("last widget", () => pi.lastWidget() === `in f${index}.ts`, 10_000);
		const shown = pi
			.widgetEvents()
			.map((event) => ({ index: Number(/^in f(\d+)\.ts$/.exec(event.text ?? "")?.[1] ?? -1), at: event.at }));
		const latency = (target: number) => {
			const at = written.get(target) ?? Number.NaN;
			const first = shown.find((event) => event.index >= target && event.at >= at);
			return (first?.at ?? Number.NaN) - at;
		};
		return { single: singles.map(latency), burst: bursts.map(latency) };
	});
}

/** 2. A selection made 57 s ago: how late after the exact expiry instant the widget drops "selected". */
export async function freshnessFlipLag(impl: Implementation, runs: number): Promise<number[]> {
	return withPi(impl, async (ws, start) => {
		const editor = ws.editor();
		editor.write(stateIn(ws, editor.pid, "start.ts"));
		const pi = start();
		await waitFor("first widget", () => pi.lastWidget() === "in start.ts", 30_000);
		const lags: number[] = [];
		for (let run = 0; run < runs; run++) {
			// A phase of chance against any poll or timer: nothing lines the expiry up with a poll.
			await sleep(randomInt(0, 1000) + Math.random());
			const selectedAt = Date.now() / 1000 - 57 - Math.random();
			const name = `flip${run}.ts`;
			editor.write(stateIn(ws, editor.pid, name, { buffer: { selection: selection(1, 3, "x", selectedAt) } }));
			await waitFor("selected", () => pi.lastWidget() === `3 lines selected in ${name}`, 5000);
			const expiryEpochMs = (selectedAt + 60) * 1000;
			await waitFor("flip", () => pi.lastWidget() === `in ${name}`, 10_000, 2);
			const flipped = pi.widgetEvents().findLast((event) => event.text === `in ${name}`);
			lags.push((flipped?.epochMs ?? Number.NaN) - expiryEpochMs);
		}
		return lags;
	});
}

/** 3. kill -9 of the connected editor to the widget being cleared. */
export async function deathLatency(impl: Implementation, runs: number): Promise<number[]> {
	return withPi(impl, async (ws, start) => {
		const pi = start();
		await pi.command({ type: "get_state" }, 30_000);
		const latencies: number[] = [];
		for (let run = 0; run < runs; run++) {
			const editor = FakeEditor.spawn(ws.stateDir);
			const name = `d${run}.ts`;
			editor.write(stateIn(ws, editor.pid, name));
			await waitFor("connected", () => pi.lastWidget() === `in ${name}`, 5000);
			// A moment of chance (crypto, not seeded), independent of any timer's phase: what a user's kill is.
			await sleep(randomInt(0, 1000) + Math.random());
			const before = pi.widgetEvents().length;
			const killedAt = performance.now();
			await editor.kill("SIGKILL");
			await waitFor(
				"cleared",
				() =>
					pi
						.widgetEvents()
						.slice(before)
						.some((event) => event.text === undefined),
				5000,
				2,
			);
			const cleared = pi
				.widgetEvents()
				.slice(before)
				.find((event) => event.text === undefined);
			latencies.push((cleared?.at ?? Number.NaN) - killedAt);
			editor.removeFile();
		}
		return latencies;
	});
}

const CONVERSATION_SELECTION = Array.from({ length: 560 }, (_, i) => `const line${i} = compute(${i}) * 2;`).join("\n");

/**
 * 9. A scripted 20-prompt conversation through the real pi: prompts 1-3 with a fresh 16 KiB selection, the
 * selection stale from prompt 4 on, the cursor moving before prompts 4, 8, 12, 16 and 20, nothing changing
 * before the others. Returns the bytes of editor context in the final request (what the model holds).
 */
export async function conversationBytes(impl: Implementation, sendEveryPrompt: boolean): Promise<number> {
	return withPi(
		impl,
		async (ws, start) => {
			const editor = ws.editor();
			const selectedAt = Date.now() / 1000;
			const lines = CONVERSATION_SELECTION.split("\n").length;
			let cursor = 10;
			const write = (fresh: boolean) =>
				editor.write(
					stateIn(ws, editor.pid, "main.ts", {
						buffer: {
							cursor: { line: cursor, column: 1 },
							selection: selection(1, lines, CONVERSATION_SELECTION, fresh ? selectedAt : selectedAt - 120),
						},
					}),
				);
			write(true);
			const pi = start();
			await waitFor("connected", () => pi.lastWidget() === `${lines} lines selected in main.ts`, 30_000);
			for (let prompt = 1; prompt <= 20; prompt++) {
				if (prompt === 4 || prompt % 4 === 0) {
					cursor += 7;
					write(false);
					await waitFor("stale selection seen", () => pi.lastWidget() === "in main.ts", 5000);
					// The widget does not show the cursor: give the watcher time to read the cursor-only writes.
					await sleep(200);
				}
				await pi.prompt(`question ${prompt}`, 30_000);
			}
			const final = ws.server.requests.at(-1)?.messages ?? [];
			return final
				.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)))
				.filter((text) => text.includes("<editor-context>"))
				.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
		},
		{ env: (): Record<string, string> => (sendEveryPrompt ? { PI_IDE_BENCH_SEND_EVERY_PROMPT: "1" } : {}) },
	);
}

/** The idle rows' editors in `dir`: 1 000 files of dead pids and 5 live editors, one of them in the project. */
export function writeIdleEditors(ws: E2eWorkspace, dir: string): void {
	for (let i = 0; i < 1000; i++)
		writeFileSync(join(dir, `${DEAD_PID_BASE + i}.json`), JSON.stringify(stateIn(ws, DEAD_PID_BASE + i, "dead.ts")));
	for (let i = 0; i < 5; i++) {
		const editor = ws.editor();
		new StateFileWriter(dir, editor.pid).write(
			stateIn(ws, editor.pid, `idle${i}.ts`, i === 0 ? {} : { cwd: `/elsewhere/${i}` }),
		);
	}
}

/** CPU time of a process in each of `windows` consecutive windows of `seconds`. */
export async function cpuWindows(pid: number, seconds: number, windows: number): Promise<number[]> {
	const samples: number[] = [];
	for (let window = 0; window < windows; window++) {
		const before = cpuMs(pid);
		await sleep(seconds * 1000);
		samples.push(cpuMs(pid) - before);
	}
	return samples;
}

function cpuMs(pid: number): number {
	// utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux).
	const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** RSS after a full GC inside pi (see gc-command.ts). */
async function rssAfterGcKiB(pi: RpcPi): Promise<number> {
	await pi.command({ type: "prompt", message: "/bench-gc" });
	await sleep(500);
	return rssKiB(pi.pid);
}

function rssKiB(pid: number): number {
	const line = readFileSync(`/proc/${pid}/status`, "utf8")
		.split("\n")
		.find((l) => l.startsWith("VmRSS:"));
	return Number(line?.replace(/\D+/g, "") ?? Number.NaN);
}

/**
 * 6. CPU time of the whole pi process in each of `windows` consecutive windows of `seconds`, with 5 idle
 * editors and 1 000 dead files. One process, several windows: pi itself (bare, no extension) spends a
 * one-off ~250 ms some 30-50 s after start-up, which lands in one window at most; the median is the steady
 * state an idle pi settles into.
 */
export async function idleCpu(
	impl: Implementation,
	seconds: number,
	windows: number,
	layout: "one dir" | "side dirs" = "one dir",
): Promise<number[]> {
	const roots = (ws: E2eWorkspace) => ({ fs: join(ws.root, "fs"), xdg: join(ws.root, "xdg") });
	return withPi(
		impl,
		async (ws, start) => {
			// "side dirs": no PI_IDE_STATE_DIR; the files in $XDG_RUNTIME_DIR/pi-ide, an empty /tmp/pi-ide and a
			// /run/user/<uid> without pi-ide, looked for every 2 s (both under the workspace, not the machine's).
			const { fs, xdg } = roots(ws);
			const dir = layout === "one dir" ? ws.stateDir : join(xdg, "pi-ide");
			if (layout === "side dirs") {
				mkdirSync(dir, { recursive: true, mode: 0o700 });
				mkdirSync(join(fs, "tmp", "pi-ide"), { recursive: true, mode: 0o700 });
				mkdirSync(join(fs, "run", "user", String(process.getuid?.() ?? 0)), { recursive: true, mode: 0o700 });
			}
			writeIdleEditors(ws, dir);
			const pi = start();
			await pi.command({ type: "get_state" }, 120_000);
			// Start-up work (module compilation, pi's own first tasks) must be over before the window opens:
			// with five pi processes starting at once on two cores, 3 s was not enough (pi alone once read 40 ms
			// and pi with one empty timer 410 ms in the same run).
			await sleep(10_000);
			return cpuWindows(pi.pid, seconds, windows);
		},
		layout === "one dir"
			? {}
			: {
					withoutStateDirVariable: true,
					env: (ws) => ({ XDG_RUNTIME_DIR: roots(ws).xdg, PI_IDE_TEST_FS_ROOT: roots(ws).fs }),
				},
	);
}

/**
 * 7. RSS of the pi process across rounds of `writes` editor writes and `appearances` editors coming and
 * going, after a full GC inside pi. The first (warm-up) round lets V8 and malloc size their heaps; growth
 * over the later rounds is what would leak.
 */
export async function memoryGrowth(
	impl: Implementation,
	writes: number,
	appearances: number,
	rounds: number,
): Promise<{
	startKiB: number;
	afterWarmUpKiB: number;
	afterRoundsKiB: number[];
	rawAfterRoundsKiB: number[];
	distinctPids: number;
}> {
	return withPi(
		impl,
		async (ws, start) => {
			const editor = ws.editor();
			editor.write(stateIn(ws, editor.pid, "m0.ts"));
			const comers = new FreshEditors(ws.stateDir);
			const pi = start();
			await waitFor("connected", () => pi.lastWidget() === "in m0.ts", 30_000);
			await sleep(2000);
			const startKiB = await rssAfterGcKiB(pi);
			let written = 0;
			const round = async (count: number, comings: number) => {
				for (let i = 1; i <= count; i++) {
					written++;
					editor.write(stateIn(ws, editor.pid, `m${written}.ts`, { buffer: { cursor: { line: i, column: 1 } } }));
					if (i % 50 === 0) await sleep(5);
				}
				await comers.comeAndGo(comings, (pid, i) =>
					JSON.stringify(stateIn(ws, pid, `h${i}.ts`, { cwd: `/elsewhere/${i}` })),
				);
				await waitFor("final write shown", () => pi.lastWidget() === `in m${written}.ts`, 30_000);
				await sleep(2000);
				return { raw: rssKiB(pi.pid), afterGc: await rssAfterGcKiB(pi) };
			};
			// A whole round first: V8 and malloc settle their heap sizes before anything is counted.
			const warmUp = await round(writes, appearances);
			const measured: { raw: number; afterGc: number }[] = [];
			for (let r = 0; r < rounds; r++) measured.push(await round(writes, appearances));
			return {
				startKiB,
				afterWarmUpKiB: warmUp.afterGc,
				afterRoundsKiB: measured.map((r) => r.afterGc),
				rawAfterRoundsKiB: measured.map((r) => r.raw),
				distinctPids: comers.distinctPids,
			};
		},
		{ gc: true },
	);
}

/**
 * How long from `act` (a key in an editor, a push of its server) until pi's widget shows `expected`: timed from
 * just before `act` to the setWidget record's arrival, given up after 5 s.
 */
export async function widgetLatency(pi: RpcPi, expected: string, act: () => void): Promise<number> {
	const seen = pi.widgetEvents().length;
	const started = performance.now();
	act();
	const event = await waitFor(
		`the widget "${expected}"`,
		() =>
			pi
				.widgetEvents()
				.slice(seen)
				.find((update) => update.text === expected),
		5000,
		1,
	);
	return event.at - started;
}
