import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { StateFileEntry } from "../../../src/editors/core/editor.ts";
import { MAX_STATE_FILE_BYTES } from "../../../src/editors/state-dir/core/file-trust.ts";
import { StateWatcher, type StateWatcherOptions } from "../../../src/editors/state-dir/watcher.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { writeAtomic } from "../../support/fake-editor.ts";
import { editorState } from "../../support/fixtures.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const ALIVE = new Set([101, 102, 103, 104, 105]);
const isRoot = process.getuid?.() === 0;

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
	cleanups = [];
});

async function startWatcher(
	setup: (dir: string) => void = () => {},
	options: Partial<Pick<StateWatcherOptions, "rawEvents" | "onChange">> = {},
	onSettled?: (entry: StateFileEntry | undefined, fileName: string) => void,
) {
	const tmp = tempDir("watcher");
	const dir = join(tmp.path, "state");
	mkdirSync(dir, { mode: 0o700 });
	setup(dir);
	let changes = 0;
	const watcher = new StateWatcher({
		dir,
		uid: process.getuid?.() ?? 0,
		isAlive: (pid) => ALIVE.has(pid),
		clock: systemClock,
		rawEvents: options.rawEvents,
		onChange: () => {
			changes++;
			options.onChange?.();
		},
		onSettled: (fileName) => onSettled?.(watcher.entries.get(fileName), fileName),
	});
	cleanups.push(tmp.cleanup, () => watcher.close());
	await watcher.start();
	return { dir, watcher, changes: () => changes };
}

const write = (dir: string, pid: number, overrides: Parameters<typeof editorState>[0] = {}) =>
	writeAtomic(join(dir, `${pid}.json`), JSON.stringify(editorState({ pid, ...overrides })));

const entryOf = (watcher: StateWatcher, name: string): StateFileEntry | undefined => watcher.entries.get(name);

describe("StateWatcher on a real directory", () => {
	test("files present at start are read before start resolves", async () => {
		const { watcher } = await startWatcher((dir) => write(dir, 101, { app: "vscode" }));
		expect(entryOf(watcher, "101.json")?.reading?.state.app).toBe("vscode");
	});

	test("add, atomic rename and unlink keep the map equal to the dir", async () => {
		const { dir, watcher } = await startWatcher();
		write(dir, 102, { buffer: { name: "a.ts" } });
		await waitFor("add", () => entryOf(watcher, "102.json")?.reading?.state.active_buffer?.name === "a.ts");
		write(dir, 102, { buffer: { name: "b.ts" } });
		await waitFor("rename update", () => entryOf(watcher, "102.json")?.reading?.state.active_buffer?.name === "b.ts");
		execFileSync("rm", [join(dir, "102.json")]);
		await waitFor("unlink", () => !watcher.entries.has("102.json"));
	});

	test.each([
		["with raw events", true],
		["on chokidar's events alone (the trailing re-read)", false],
	])("converges on the last of three writes 10 ms apart, burst after burst, %s", async (_name, rawEvents) => {
		const { dir, watcher } = await startWatcher(() => {}, { rawEvents });
		write(dir, 103, { timestamp: 0 });
		await waitFor("first write", () => entryOf(watcher, "103.json")?.reading?.state.timestamp === 0);
		for (let burst = 1; burst <= 30; burst++) {
			for (let step = 1; step <= 3; step++) {
				write(dir, 103, { timestamp: burst * 10 + step });
				await new Promise((done) => setTimeout(done, 10));
			}
			// chokidar raises no event for the last write; without a mechanism for it this never holds.
			await waitFor(
				`burst ${burst} final state`,
				() => entryOf(watcher, "103.json")?.reading?.state.timestamp === burst * 10 + 3,
				1000,
				2,
			);
		}
	});

	test("a dangling symlink that appears while running is rejected (chokidar cannot stat it; the raw event names it)", async () => {
		const { dir, watcher } = await startWatcher();
		symlinkSync(join(dir, "nowhere.json"), join(dir, "104.json"));
		await waitFor("rejection", () => entryOf(watcher, "104.json")?.rejection);
		expect(entryOf(watcher, "104.json")?.rejection).toBe("a symlink, not a regular file");
		execFileSync("rm", [join(dir, "104.json")]);
		await waitFor("gone", () => !watcher.entries.has("104.json"));
	});

	test("editors that come and go (write, remove their file, exit) leave no entry behind", async () => {
		const tmp = tempDir("watcher-churn");
		cleanups.push(tmp.cleanup);
		const dir = join(tmp.path, "state");
		mkdirSync(dir, { mode: 0o700 });
		const watcher = new StateWatcher({
			dir,
			uid: process.getuid?.() ?? 0,
			isAlive: (pid) => testProcessFacts().runsNow(pid),
			clock: systemClock,
			onChange: () => {},
		});
		cleanups.push(() => watcher.close());
		await watcher.start();
		const names: string[] = [];
		for (let batch = 0; batch < 6; batch++) {
			const editors = Array.from({ length: 25 }, () => spawn("sleep", ["60"], { stdio: "ignore" }));
			for (const editor of editors) {
				names.push(`${editor.pid}.json`);
				writeAtomic(join(dir, `${editor.pid}.json`), JSON.stringify(editorState({ pid: editor.pid as number })));
			}
			// Each lives as long as a quick editor session, then removes its file and exits: pi reads some of
			// these events only after the pid died and the file went.
			await new Promise((done) => setImmediate(done));
			for (const editor of editors) rmSync(join(dir, `${editor.pid}.json`));
			await Promise.all(editors.map((editor) => new Promise((done) => editor.once("exit", done).kill("SIGKILL"))));
		}
		// Such a file once stayed as a "dead" entry forever: in /ide status, and its bookkeeping in memory.
		await waitFor(
			"every entry dropped, no read pending",
			() => watcher.entries.size === 0 && names.every((name) => !watcher.isPending(name)),
		);
		expect([...watcher.entries.keys()]).toEqual([]);
	});

	test("garbage is rejected with a reason, the last valid state kept apart for the guard only, until a valid write", async () => {
		const { dir, watcher } = await startWatcher();
		write(dir, 104, { buffer: { name: "good.ts" } });
		await waitFor("valid", () => entryOf(watcher, "104.json")?.reading);
		writeAtomic(join(dir, "104.json"), '{"pid": 104, "cwd": ');
		await waitFor("rejection", () => entryOf(watcher, "104.json")?.rejection);
		expect(entryOf(watcher, "104.json")).toEqual({
			fileName: "104.json",
			rejection: "not valid JSON (truncated or corrupt)",
			writtenAtSeconds: expect.any(Number),
			lastValid: expect.objectContaining({ pid: 104 }),
		});
		expect(entryOf(watcher, "104.json")?.lastValid?.state.active_buffer?.name).toBe("good.ts");
		writeAtomic(join(dir, "104.json"), "[]");
		await waitFor("a second rejection", () =>
			entryOf(watcher, "104.json")?.rejection?.startsWith("top level is an array"),
		);
		// Two rejections in a row: the state before both still stands for the guard.
		expect(entryOf(watcher, "104.json")?.lastValid?.state.active_buffer?.name).toBe("good.ts");
		write(dir, 104, { buffer: { name: "better.ts" } });
		await waitFor("recovery", () => entryOf(watcher, "104.json")?.reading?.state.active_buffer?.name === "better.ts");
		expect(entryOf(watcher, "104.json")?.rejection).toBeUndefined();
		expect(entryOf(watcher, "104.json")?.lastValid).toBeUndefined();
	});

	// Trust lost while pi runs: from the moment a check fails, nothing of the file is used.
	async function expectDroppedAfter(change: (file: string) => void, reason: string) {
		const settled: (StateFileEntry | undefined)[] = [];
		const { dir, watcher } = await startWatcher(
			(d) => write(d, 101, { buffer: { name: "trusted.ts" } }),
			{},
			(entry, fileName) => settled.push(fileName === "101.json" ? entry : undefined),
		);
		expect(entryOf(watcher, "101.json")?.reading?.state.active_buffer?.name).toBe("trusted.ts");
		change(join(dir, "101.json"));
		await waitFor("rejection", () => entryOf(watcher, "101.json")?.rejection);
		// The mtime stays known (the newest of two copies wins), except for a file that cannot be stat-ed.
		// Nothing of it is used: only the guard still covers what the trusted state said was unsaved.
		expect(entryOf(watcher, "101.json")).toEqual({
			fileName: "101.json",
			rejection: reason,
			lastValid: expect.objectContaining({ pid: 101 }),
			...(entryOf(watcher, "101.json")?.writtenAtSeconds !== undefined && { writtenAtSeconds: expect.any(Number) }),
		});
		await waitFor("settled on the rejection", () => settled.at(-1)?.rejection === reason);
	}

	const TRUST_LOSSES: [string, (file: string) => void, string][] = [
		["chmod 0666", (file) => chmodSync(file, 0o666), "writable by group or others (mode 0666); chmod 600 it"],
		["chmod 0620", (file) => chmodSync(file, 0o620), "writable by group or others (mode 0620); chmod 600 it"],
		[
			"replaced by a symlink to a valid copy",
			(file) => {
				writeFileSync(`${file}.copy`, JSON.stringify(editorState({ pid: 101 })));
				symlinkSync(`${file}.copy`, `${file}.link`);
				renameSync(`${file}.link`, file);
			},
			"a symlink, not a regular file",
		],
		[
			"replaced by a FIFO",
			(file) => {
				rmSync(file);
				execFileSync("mkfifo", [file]);
			},
			"a fifo, not a regular file",
		],
		[
			"grown past the size cap",
			(file) => truncateSync(file, MAX_STATE_FILE_BYTES + 1),
			`${MAX_STATE_FILE_BYTES + 1} bytes, over the ${MAX_STATE_FILE_BYTES}-byte limit for a state file`,
		],
		[
			"rewritten naming another pid",
			(file) => writeAtomic(file, JSON.stringify(editorState({ pid: 102 }))),
			"pid field 102 does not match the file name 101.json",
		],
	];

	test.each(TRUST_LOSSES)("a trusted file %s: its state is dropped at once", async (_name, change, reason) => {
		await expectDroppedAfter(change, reason);
	});

	test.skipIf(!isRoot)("a trusted file chowned to another uid: its state is dropped at once (needs root)", async () => {
		await expectDroppedAfter(
			(file) => chownSync(file, 65534, 65534),
			`owned by uid 65534, not by you (uid ${process.getuid?.()})`,
		);
	});

	test.each([
		["with raw events", true],
		["on chokidar's events alone", false],
	])(
		"a torn write followed at once by the completed one ends on the completed one and never settles rejected, %s",
		async (_name, rawEvents) => {
			const settled: (StateFileEntry | undefined)[] = [];
			const { dir } = await startWatcher(
				(d) => write(d, 103, { timestamp: 0 }),
				{ rawEvents },
				(entry) => settled.push(entry),
			);
			const file = join(dir, "103.json");
			for (let round = 1; round <= 10; round++) {
				const complete = JSON.stringify(editorState({ pid: 103, timestamp: round }));
				writeFileSync(file, complete.slice(0, 40)); // in place, not atomic: a reader can see half of it
				writeFileSync(file, complete);
				await waitFor(
					`round ${round} settled on the completed write`,
					() => settled.at(-1)?.reading?.state.timestamp === round,
				);
			}
			expect(settled.filter((entry) => entry?.rejection)).toEqual([]);
		},
	);

	test("a file that never was valid is a rejection only", async () => {
		const { watcher } = await startWatcher((dir) => writeFileSync(join(dir, "105.json"), "[]"));
		expect(entryOf(watcher, "105.json")).toEqual({
			fileName: "105.json",
			rejection: "top level is an array, not an object",
			writtenAtSeconds: expect.any(Number),
		});
	});

	test("files of dead pids are not read", async () => {
		const { watcher } = await startWatcher((dir) => writeFileSync(join(dir, "999999.json"), "not even json"));
		expect(entryOf(watcher, "999999.json")).toEqual({ fileName: "999999.json", deadPid: 999999 });
	});

	test("bad names are rejected, temp files and other names ignored", async () => {
		const { watcher } = await startWatcher((dir) => {
			for (const name of ["0.json", "-1.json", "1.5.json", "101.json.tmp", "notes.txt", "README"])
				writeFileSync(join(dir, name), "{}");
		});
		expect([...watcher.entries.keys()].sort()).toEqual(["-1.json", "0.json", "1.5.json"]);
		expect(entryOf(watcher, "0.json")?.rejection).toBe("file name is not <pid>.json with a positive integer pid");
	});

	test("a FIFO, a directory and a symlink named like state files are rejected without blocking", async () => {
		const tmp = tempDir("elsewhere");
		cleanups.push(tmp.cleanup);
		const target = join(tmp.path, "real.json");
		writeFileSync(target, JSON.stringify(editorState({ pid: 103 })));
		const { watcher } = await startWatcher((dir) => {
			execFileSync("mkfifo", [join(dir, "101.json")]);
			mkdirSync(join(dir, "102.json"));
			symlinkSync(target, join(dir, "103.json"));
		});
		expect(entryOf(watcher, "101.json")?.rejection).toBe("a fifo, not a regular file");
		expect(entryOf(watcher, "102.json")?.rejection).toBe("a directory, not a regular file");
		expect(entryOf(watcher, "103.json")?.rejection).toBe("a symlink, not a regular file");
	});

	test("group- or world-writable files are rejected", async () => {
		const { watcher } = await startWatcher((dir) => {
			write(dir, 101);
			chmodSync(join(dir, "101.json"), 0o666);
		});
		expect(entryOf(watcher, "101.json")?.rejection).toBe("writable by group or others (mode 0666); chmod 600 it");
	});

	test.skipIf(!isRoot)("a file owned by another uid is rejected (needs root to chown)", async () => {
		const { watcher } = await startWatcher((dir) => {
			write(dir, 101);
			chownSync(join(dir, "101.json"), 65534, 65534);
		});
		expect(entryOf(watcher, "101.json")?.rejection).toBe(`owned by uid 65534, not by you (uid ${process.getuid?.()})`);
	});

	test("flush reads a pending write at once", async () => {
		const { dir, watcher } = await startWatcher();
		write(dir, 101, { timestamp: 1 });
		await waitFor("event", () => watcher.isPending("101.json") || entryOf(watcher, "101.json"));
		await watcher.flush("101.json");
		expect(entryOf(watcher, "101.json")?.reading?.state.timestamp).toBe(1);
	});

	test("a closed watcher (closed twice at once) takes no more updates", async () => {
		const { dir, watcher, changes } = await startWatcher((setupDir) => write(setupDir, 101, { timestamp: 1 }));
		await Promise.all([watcher.close(), watcher.close()]);
		const before = changes();
		// A second watcher on the same dir is the witness: once it has seen the writes, a live one would have too.
		const witness = new StateWatcher({
			dir,
			uid: process.getuid?.() ?? 0,
			isAlive: () => true,
			clock: systemClock,
			onChange: () => {},
		});
		cleanups.push(() => witness.close());
		await witness.start();
		write(dir, 101, { timestamp: 2 });
		write(dir, 102, { timestamp: 2 });
		await waitFor(
			"witness sees both writes",
			() => witness.entries.get("101.json")?.reading?.state.timestamp === 2 && witness.entries.has("102.json"),
		);
		await waitFor("witness settled", () => !witness.isPending("101.json") && !witness.isPending("102.json"));
		expect(changes()).toBe(before);
		expect(entryOf(watcher, "101.json")?.reading?.state.timestamp).toBe(1);
	});
});

describe("a file replaced while it is being read", () => {
	test("an editor rewriting its file as fast as it can: never a rejection, every flush sees a state, the last write wins", async () => {
		const seen: string[] = [];
		let watcher: StateWatcher | undefined;
		const started = await startWatcher((dir) => write(dir, 101, { buffer: { cursor: { line: 1, column: 1 } } }), {
			onChange: () => {
				const entry = watcher?.entries.get("101.json");
				if (entry && !entry.reading) seen.push(entry.rejection ?? "no state");
			},
		});
		watcher = started.watcher;
		const template = JSON.stringify(editorState({ pid: 101, buffer: { cursor: { line: 999_999, column: 1 } } }));
		// Another process renames a new file over the state file in a tight loop: each rename lands between some
		// lstat and its open. It prints how many writes it made; the last one holds that number as its line.
		const writer = spawn(
			process.execPath,
			[
				"-e",
				`const fs = require("node:fs");
				const [file, template] = process.argv.slice(1);
				const end = Date.now() + 1500;
				let n = 1;
				while (Date.now() < end) {
					n++;
					fs.writeFileSync(file + ".tmp", template.replace("999999", String(n)));
					fs.renameSync(file + ".tmp", file);
				}
				process.stdout.write(String(n));`,
				join(started.dir, "101.json"),
				template,
			],
			{ stdio: ["ignore", "pipe", "inherit"] },
		);
		let output = "";
		writer.stdout.on("data", (chunk: Buffer) => {
			output += chunk.toString();
		});
		const exited = new Promise<void>((done) => writer.once("exit", () => done()));
		let flushes = 0;
		let running = true;
		void exited.then(() => {
			running = false;
		});
		while (running) {
			await watcher.flush("101.json");
			flushes++;
			expect(watcher.entries.get("101.json")?.reading).toBeDefined();
			await new Promise((done) => setImmediate(done));
		}
		const last = Number(output);
		await waitFor(
			"the last write",
			() => watcher?.entries.get("101.json")?.reading?.state.active_buffer?.cursor?.line === last,
			3000,
		);
		expect(seen).toEqual([]);
		expect(flushes).toBeGreaterThan(10);
	});
});
