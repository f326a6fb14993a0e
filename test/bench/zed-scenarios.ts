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

/** Asked when used: `npm run bench` installs the toolchain after this module is loaded. */
const pi1 = () => piLines()[1] as PiLine;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Why the Zed rows cannot be measured here, or undefined when they can. */
export function zedSkipReason(): string | undefined {
	const line = pi1();
	return line.node ? undefined : `pi 1.x is not runnable here (${line.skipReason})`;
}

async function withZed<T>(
	work: (ws: E2eWorkspace, zed: FakeZed, start: (settings?: object) => RpcPi) => Promise<T>,
): Promise<T> {
	const ws = await E2eWorkspace.create();
	const line = pi1();
	const zed = await FakeZed.create(join(ws.root, "zed"), line.node as string);
	let pi: RpcPi | undefined;
	try {
		return await work(ws, zed, (settings) => {
			if (settings) {
				mkdirSync(join(ws.project, ".pi"), { recursive: true });
				writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify(settings));
			}
			pi = RpcPi.start(line, {
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
		await pi.command({ type: "get_state" }, 120_000);
		if (readZed) await lastRead(pi);
		await sleep(10_000);
		return cpuWindows(pi.pid, seconds, windows);
	});
}

/** Z4's session: this many workspaces, each with these unsaved tabs behind its shown one. */
export const LARGE_SESSION = { workspaces: 16, backgroundTabs: 4, backgroundMiB: 1, shownMB: 3.9 } as const;

/** About `bytes` of source text, in lines of code. */
function sourceText(bytes: number, seed: number): string {
	const lines: string[] = [];
	let size = 0;
	for (let i = 1; size < bytes; i++) {
		const line = `export const value${seed}_${i} = compute(${i}, "${"x".repeat(i % 40)}");`;
		lines.push(line);
		size += line.length + 1;
	}
	return `${lines.join("\n")}\n`;
}

/**
 * Z4. A large session's read on pi's thread, as pi times it (the transaction and the texts turned into
 * positions): `LARGE_SESSION.workspaces` workspaces, each showing a 3.9 MB file (every other one unsaved, its
 * text in the database) with 1 MiB unsaved tabs behind it; the shown workspace's selection changes `reads`
 * times, 250-450 ms apart.
 */
export async function zedLargeSessionRead(
	reads: number,
): Promise<{ readMs: number[]; databaseMiB: number; shownUnsavedMB: number }> {
	return withZed(async (ws, zed, start) => {
		const shownBytes = LARGE_SESSION.shownMB * 1e6;
		let databaseBytes = 0;
		let shownUnsavedBytes = 0;
		for (let id = 1; id <= LARGE_SESSION.workspaces; id++) {
			const root = id === 1 ? ws.project : join(ws.root, `project${id}`);
			mkdirSync(join(root, "src"), { recursive: true });
			const path = join(root, "src", "big.ts");
			const text = sourceText(shownBytes, id);
			writeFileSync(path, text);
			const unsaved = id % 2 === 1;
			if (unsaved) {
				databaseBytes += text.length;
				shownUnsavedBytes += text.length;
			}
			await zed.workspace({ id, roots: [root] });
			await zed.show({
				workspaceId: id,
				itemId: id * 100,
				path,
				...(unsaved && { contents: `// unsaved\n${text}` }),
				selections: [[0, 0]],
			});
			for (let tab = 1; tab <= LARGE_SESSION.backgroundTabs; tab++) {
				const contents = sourceText(LARGE_SESSION.backgroundMiB * 1024 * 1024, id * 100 + tab);
				databaseBytes += contents.length;
				await zed.backgroundTab({
					workspaceId: id,
					itemId: id * 100 + tab,
					path: join(root, `tab${tab}.ts`),
					contents,
				});
			}
		}
		zed.start();
		const pi = start();
		await waitFor("connected to Zed", () => pi.lastWidget() === "in big.ts", 60_000);
		const random = seededRandom(11);
		const readMs: number[] = [];
		// Line starts of workspace 1's unsaved text: each selection ends at one.
		const unsavedText = `// unsaved\n${sourceText(shownBytes, 1)}`;
		const lineStarts = [0];
		for (let i = 0; i < unsavedText.length && lineStarts.length <= 41; i++)
			if (unsavedText[i] === "\n") lineStarts.push(i + 1);
		for (let i = 0; i < reads; i++) {
			await sleep(250 + random() * 200);
			const count = 2 + (i % 39);
			const expected = `${count} lines selected in big.ts`;
			const before = (await lastRead(pi)).count;
			await zed.select({ workspaceId: 1, itemId: 100, selections: [[0, (lineStarts[count] as number) - 1]] });
			await waitFor("the widget", () => pi.lastWidget() === expected, 10_000);
			const read = await lastRead(pi);
			if (read.count === before) throw new Error("the widget moved with no read");
			readMs.push(read.ms);
			await zed.select({ workspaceId: 1, itemId: 100, selections: [[0, 0]] });
			await waitFor("the selection cleared", () => pi.lastWidget() === "in big.ts", 10_000);
		}
		return {
			readMs,
			databaseMiB: Math.round(databaseBytes / 1024 / 1024),
			shownUnsavedMB: Math.round(shownUnsavedBytes / 1e6),
		};
	});
}
