/**
 * Zed's rows through the real pi 1.x in RPC mode, on the pi 1.x toolchain's Node (node:sqlite; the bench
 * itself runs on Node 20): a database written as Zed writes it, a `zed-editor` process for "Zed is running".
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { FakeZed } from "../support/fake-zed.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";
import { cpuWindows, seededRandom, writeIdleEditors } from "./rpc-scenarios.ts";

const PI1 = piLines()[1] as PiLine;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Why the Zed rows cannot be measured here, or undefined when they can. */
export function zedSkipReason(): string | undefined {
	return PI1.node ? undefined : `pi 1.x is not runnable here (${PI1.skipReason})`;
}

async function withZed<T>(
	work: (ws: E2eWorkspace, zed: FakeZed, start: (settings?: object) => RpcPi) => Promise<T>,
): Promise<T> {
	const ws = await E2eWorkspace.create();
	const zed = await FakeZed.create(join(ws.root, "zed"), PI1.node as string);
	let pi: RpcPi | undefined;
	try {
		return await work(ws, zed, (settings) => {
			if (settings) {
				mkdirSync(join(ws.project, ".pi"), { recursive: true });
				writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify(settings));
			}
			pi = RpcPi.start(PI1, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: zed.environment(join(ws.root, "home")),
			});
			return pi;
		});
	} finally {
		await pi?.stop();
		await zed.close();
		await ws.cleanup();
	}
}

/** `/ide status`'s Zed line `  Reads: N, the last took X ms`: the read count and the last read's time. */
async function lastRead(pi: RpcPi): Promise<{ count: number; ms: number }> {
	const text = (await pi.ideStatus()).join("\n");
	const match = /\n {2}Reads: (\d+), the last took ([\d.]+) ms/.exec(text);
	if (!match) throw new Error(`no Zed reads in /ide status:\n${text}`);
	return { count: Number(match[1]), ms: Number(match[2]) };
}

/**
 * Z1. From Zed's commit of a new selection (timed from just before the writer is told) to the widget showing
 * it, `writes` selections 250-450 ms apart (Zed itself debounces 200 ms); and each read's time on pi's thread
 * as pi measured it.
 */
export async function zedFollow(writes: number): Promise<{ latencies: number[]; readMs: number[] }> {
	return withZed(async (ws, zed, start) => {
		const file = join(ws.project, "src", "main.ts");
		const text = `${Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
		writeFileSync(file, text);
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path: file, selections: [[0, 0]] });
		zed.start();
		const pi = start();
		await waitFor("connected to Zed", () => pi.lastWidget() === "in main.ts", 30_000);
		const random = seededRandom(7);
		const latencies: number[] = [];
		const readMs: number[] = [];
		const lineStarts = [0];
		for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
		for (let i = 0; i < writes; i++) {
			await sleep(250 + random() * 200);
			// 2..40 lines selected: every write changes what the widget says.
			const count = 2 + (i % 39);
			const expected = `${count} lines selected in main.ts`;
			const started = performance.now();
			await zed.select({ workspaceId: 1, itemId: 11, selections: [[0, (lineStarts[count] as number) - 1]] });
			const shown = await waitFor(
				`widget ${expected}`,
				() => pi.widgetEvents().find((event) => event.text === expected && event.at >= started),
				5000,
				1,
			);
			latencies.push(shown.at - started);
			readMs.push((await lastRead(pi)).ms);
			// The next write must change the widget: this selection is cleared first, unmeasured.
			await zed.select({ workspaceId: 1, itemId: 11, selections: [[0, 0]] });
			await waitFor("the selection cleared", () => pi.lastWidget() === "in main.ts", 5000);
		}
		return { latencies, readMs };
	});
}

/**
 * Z2. A prompt's round trip (RPC prompt to agent_end, the fake model answering at once) while Zed holds its
 * database locked, against the same prompts unlocked: a read never waits on Zed's lock.
 */
export async function zedLockedPrompt(prompts: number): Promise<{ unlocked: number[]; locked: number[] }> {
	return withZed(async (ws, zed, start) => {
		const file = join(ws.project, "src", "main.ts");
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path: file, selections: [[0, 5]] });
		zed.start();
		const pi = start();
		await waitFor("connected to Zed", () => pi.lastWidget() === "1 line selected in main.ts", 30_000);
		const timed = async () => {
			const started = performance.now();
			await pi.prompt("what is selected?");
			return performance.now() - started;
		};
		const unlocked: number[] = [];
		for (let i = 0; i < prompts; i++) unlocked.push(await timed());
		await zed.lock();
		const locked: number[] = [];
		try {
			for (let i = 0; i < prompts; i++) {
				// Zed writes while it holds the lock: the WAL moves, and pi tries (and fails) to read.
				const now = new Date(Date.now() + 1000 * (i + 1));
				utimesSync(`${zed.dbPath}-wal`, now, now);
				await sleep(150);
				locked.push(await timed());
			}
			const read = await lastRead(pi);
			if (read.count < 2) throw new Error("no read was tried while locked");
		} finally {
			await zed.unlock();
		}
		return { unlocked, locked };
	});
}

/**
 * Z3. Idle CPU of pi 1.x over `windows` consecutive windows of `seconds`: 5 idle editors + 1 000 dead files,
 * and an idle Zed database with Zed running, read or not (`"zed": false`).
 */
export async function zedIdleCpu(seconds: number, windows: number, readZed: boolean): Promise<number[]> {
	return withZed(async (ws, zed, start) => {
		await zed.workspace({ id: 1, roots: [join(ws.root, "elsewhere")] });
		await zed.show({ workspaceId: 1, itemId: 11, path: join(ws.root, "elsewhere", "a.ts"), selections: [[0, 0]] });
		zed.start();
		writeIdleEditors(ws, ws.stateDir);
		const pi = start(readZed ? undefined : { "pi-ide": { zed: false } });
		await pi.command({ type: "get_state" }, 30_000);
		if (readZed) await lastRead(pi);
		await sleep(10_000);
		return cpuWindows(pi.pid, seconds, windows);
	});
}
