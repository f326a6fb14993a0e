import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { FakeZed } from "../../support/fake-zed.ts";
import { pi1Toolchain } from "../../support/pi1-toolchain.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";
import { ZedSourceProcess } from "../../support/zed-source-process.ts";

/**
 * The Zed source's I/O on a real SQLite database written as Zed writes it, the real `/proc` and a real
 * `zed-editor` process, in seconds and without pi. node:sqlite needs Node 22.13+: the source runs in a child on
 * the pi 1.x toolchain's Node (vitest itself runs on Node 20).
 */
const { node, skipReason } = pi1Toolchain();
if (!node && process.env.CI === "true") throw new Error(`CI=true and the Zed source tests cannot run: ${skipReason}`);
if (!node) process.stderr.write(`Zed source tests skipped: ${skipReason}\n`);

const GREETING = 'export const grüß = "héllo 🌍";\nexport const n = 1;\n';
const byteOffset = (text: string, needle: string) => Buffer.byteLength(text.slice(0, text.indexOf(needle)));

describe.skipIf(!node)("the Zed source on a real database (no pi)", () => {
	let root: string;
	let cleanup: () => void;
	let project: string;
	const closers: (() => Promise<void>)[] = [];

	beforeEach(() => {
		({ path: root, cleanup } = tempDir("zed-source"));
		project = join(root, "proj");
		mkdirSync(join(project, "src"), { recursive: true });
		writeFileSync(join(project, "src", "greet.ts"), GREETING);
	});
	afterEach(async () => {
		for (const close of closers.splice(0).reverse()) await close();
		cleanup();
	});

	async function zedShowingGreeting(): Promise<FakeZed> {
		const zed = await FakeZed.create(join(root, "zed"), node as string);
		closers.push(() => zed.close());
		await zed.workspace({ id: 1, roots: [project] });
		const at = byteOffset(GREETING, "héllo");
		await zed.show({ workspaceId: 1, itemId: 7, path: join(project, "src", "greet.ts"), selections: [[at, at + 6]] });
		return zed;
	}

	async function source(zed: FakeZed): Promise<ZedSourceProcess> {
		const runner = await ZedSourceProcess.start(node as string, zed.dataHome, join(root, "home"));
		closers.push(() => runner.close());
		return runner;
	}

	test("a running Zed's workspace is one editor: key, file, cursor and selection from byte offsets", async () => {
		const zed = await zedShowingGreeting();
		const pid = zed.start();
		const runner = await source(zed);
		const [editor] = await waitFor("the workspace listed", () => runner.editors().length > 0 && runner.editors());
		expect(editor).toMatchObject({
			origin: "zed",
			key: `zed:${zed.dbPath}#1`,
			pid,
			alive: true,
			paths: { roots: [project] },
		});
		const buffer = editor?.state.active_buffer;
		expect(buffer).toMatchObject({ file: join(project, "src", "greet.ts"), name: "greet.ts", modified: false });
		// "héllo" starts at byte 23 (ü and ß are two bytes each): column 24, where characters would say 22.
		expect(buffer?.selection).toMatchObject({
			start: { line: 1, column: 24 },
			end: { line: 1, column: 29 },
			text: "héllo",
		});
		expect(runner.events()).toEqual([`app-found zed ${pid}`]);
	});

	test("a new selection is followed within the throttle, written as Zed writes it", async () => {
		const zed = await zedShowingGreeting();
		zed.start();
		const runner = await source(zed);
		await waitFor("the first state", () => runner.editors().length > 0);
		const started = Date.now();
		const at = byteOffset(GREETING, "export const n");
		await zed.select({ workspaceId: 1, itemId: 7, selections: [[at, at + 6]] });
		await waitFor("the new selection", () => runner.editors()[0]?.state.active_buffer?.selection?.text === "export");
		expect(Date.now() - started).toBeLessThan(1500);
	});

	test("an idle database is not read again: the fallback looks and finds nothing new", async () => {
		const zed = await zedShowingGreeting();
		zed.start();
		const runner = await source(zed);
		await waitFor("the first state", () => runner.editors().length > 0);
		const before = (await runner.report()).report.reads;
		await waitFor(
			"two more fallback checks",
			async () => {
				const now = (await runner.report()).report.reads;
				return (now?.fallbackChecks ?? 0) >= (before?.fallbackChecks ?? 0) + 2;
			},
			10_000,
		);
		expect((await runner.report()).report.reads?.count).toBe(before?.count);
	});

	test("a read that meets Zed's lock keeps the last state and reads again once the lock is gone", async () => {
		const zed = await zedShowingGreeting();
		zed.start();
		const runner = await source(zed);
		await waitFor("the first state", () => runner.editors().length > 0);
		await zed.lock();
		// Zed writes while it holds the lock: its WAL moves, which is what makes the source read.
		const later = new Date(Date.now() + 5000);
		utimesSync(`${zed.dbPath}-wal`, later, later);
		await waitFor("a read that met the lock", async () => {
			const { report } = await runner.report();
			return report.reads?.lastOk === false && /locked/.test(report.lastProblem?.reason ?? "");
		});
		expect(runner.editors()[0]?.state.active_buffer?.selection?.text).toBe("héllo");
		// The lock ends with nothing written: no file moves, yet the fallback reads again on its own.
		await zed.unlock("ROLLBACK");
		await waitFor(
			"a good read after the lock",
			async () => (await runner.report()).report.reads?.lastOk === true,
			6000,
		);
		expect(runner.editors()[0]?.state.active_buffer?.selection?.text).toBe("héllo");
	});

	test("Zed quits: nothing is listed; a Zed started while pi looked is found once the database moves", async () => {
		const zed = await zedShowingGreeting();
		const first = zed.start();
		const runner = await source(zed);
		await waitFor("the first state", () => runner.editors().length > 0);
		zed.quit();
		await waitFor("Zed gone", () => runner.editors().length === 0, 3000);
		expect(runner.events()).toContain(`app-gone zed ${first}`);
		const second = zed.start();
		await zed.workspace({ id: 1, roots: [project] });
		await waitFor("the second Zed", () => runner.editors()[0]?.pid === second, 6000);
	});
});
