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
		const runner = await ZedSourceProcess.start(node as string, zed.dataHome, join(root, "home"), zed.scope);
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

	test("a newly opened tab with no selection rows replaces the shown file at once, with no cursor", async () => {
		const zed = await zedShowingGreeting();
		zed.start();
		const runner = await source(zed);
		await waitFor("the first state", () => runner.editors()[0]?.state.active_buffer?.selection?.text === "héllo");
		writeFileSync(join(project, "src", "other.ts"), "other\n");
		const opened = Date.now();
		await zed.show({ workspaceId: 1, itemId: 8, path: join(project, "src", "other.ts"), selections: [] });
		const buffer = await waitFor("the new tab", () => {
			const shown = runner.editors()[0]?.state.active_buffer;
			return shown?.name === "other.ts" && shown;
		});
		expect(Date.now() - opened).toBeLessThan(1500);
		expect(buffer).toMatchObject({ cursor: null, selection: null, lines_total: 1, language: "ts" });
	});

	test("one window, two workspaces: the one it does not show is listed hidden, its selection never fresh", async () => {
		const zed = await zedShowingGreeting();
		await zed.workspace({ id: 1, roots: [project], windowId: 77 });
		mkdirSync(join(root, "other"), { recursive: true });
		await zed.workspace({ id: 2, roots: [join(root, "other")], windowId: 77 });
		await zed.showInWindow(77, 2);
		zed.start();
		const runner = await source(zed);
		const listed = await waitFor("both workspaces", () => runner.editors().length === 2 && runner.editors());
		const hidden = listed.find((editor) => editor.key.endsWith("#1"));
		expect(hidden?.hidden).toBe(true);
		expect(hidden?.state.active_buffer?.selection).toMatchObject({ text: "héllo", selected_at: null });
		expect(listed.find((editor) => editor.key.endsWith("#2"))?.hidden).toBeUndefined();
		await zed.showInWindow(77, 1);
		// Under the full suite's load this once took over 5 s (cause not found; the 2 s fallback bounds a missed
		// event): the wait allows for a loaded machine, and a timeout prints what the source said last.
		await waitFor(
			"shown again",
			() => {
				const shown = runner.editors().find((editor) => editor.key.endsWith("#1"));
				return shown && !shown.hidden && typeof shown.state.active_buffer?.selection?.selected_at === "number";
			},
			15_000,
		).catch(async (error) => {
			throw new Error(`${String(error)}; last report: ${JSON.stringify((await runner.report()).report.reads)}`);
		});
	});

	test("a stateless Zed keeps its database in memory: the rows on disk are not offered", async () => {
		const zed = await zedShowingGreeting();
		const pid = zed.start({ env: { ZED_STATELESS: "1" } });
		const runner = await source(zed);
		const { report } = await runner.report();
		expect(report.stateless).toEqual([pid]);
		expect(report.zed).toBeUndefined();
		expect(runner.editors()).toEqual([]);
	});

	test("a Zed started with --user-data-dir (relative to its cwd) is read from that dir, with no default database", async () => {
		const custom = join(root, "zed-data");
		const zed = await FakeZed.create(join(root, "zed"), node as string, { dataDir: custom });
		closers.push(() => zed.close());
		await zed.workspace({ id: 1, roots: [project] });
		await zed.show({ workspaceId: 1, itemId: 7, path: join(project, "src", "greet.ts"), selections: [[0, 6]] });
		const pid = zed.start({ args: ["--user-data-dir", "zed-data"], cwd: root });
		const runner = await source(zed);
		const [editor] = await waitFor("the workspace", () => runner.editors().length > 0 && runner.editors());
		expect(editor).toMatchObject({ pid, key: `zed:${join(custom, "db", "0-stable", "db.sqlite")}#1` });
		expect(editor?.state.active_buffer?.selection?.text).toBe("export");
	});

	test("Zed built from source runs as zed from target/debug: its dev channel's database", async () => {
		const zed = await FakeZed.create(join(root, "zed"), node as string, { channel: "dev" });
		closers.push(() => zed.close());
		await zed.workspace({ id: 1, roots: [project] });
		await zed.show({ workspaceId: 1, itemId: 7, path: join(project, "src", "greet.ts"), selections: [[0, 6]] });
		const pid = zed.start({ sourceBuild: true });
		const runner = await source(zed);
		const [editor] = await waitFor("the workspace", () => runner.editors().length > 0 && runner.editors());
		// Where Zed's dev channel keeps it, spelled out here: the fixture's own dbPath would only restate itself.
		expect(editor).toMatchObject({ pid, key: `zed:${join(root, "zed", "data", "zed", "db", "0-dev", "db.sqlite")}#1` });
	});

	test("Zed's own settings: no cursor under empty_tab, no unsaved text: both in the report, the editor says so", async () => {
		const zed = await zedShowingGreeting();
		zed.writeSettings(
			'{\n\t// as Zed writes it\n\t"restore_on_startup": "none",\n\t"session": { "restore_unsaved_buffers": false, },\n}\n',
		);
		zed.start();
		const runner = await source(zed);
		const [editor] = await waitFor("the workspace", () => runner.editors().length > 0 && runner.editors());
		expect(editor?.unsavedUnknown).toBe("no-unsaved-text");
		const { report } = await runner.report();
		expect(report.settings).toEqual({
			file: join(zed.configDir, "settings.json"),
			facts: { restoreOnStartup: "empty_tab", restoreUnsavedBuffers: false },
		});
	});
});
