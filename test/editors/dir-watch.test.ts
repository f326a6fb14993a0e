import { EventEmitter } from "node:events";
import {
	appendFileSync,
	existsSync,
	type FSWatcher,
	mkdirSync,
	renameSync,
	rmSync,
	watch,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { DirWatch, type WatchDir } from "../../src/editors/dir-watch.ts";
import { tempDir } from "../support/temp-dir.ts";
import { waitFor } from "../support/wait-for.ts";

/**
 * The one raw dir watch every source uses, on real dirs and real inotify: by name, a dir that is not there yet
 * waited for on its parent, and a dir removed and made again (Linux says nothing: the old watch just goes
 * quiet) watched again on the next re-check.
 */
describe("a raw dir watch", () => {
	const cleanups: (() => void)[] = [];
	afterEach(() => {
		for (const cleanup of cleanups.splice(0)) cleanup();
	});

	function watchOf(dir: string, watchDir?: WatchDir) {
		const seen: (string | null)[] = [];
		let open = 0;
		const watch = new DirWatch(
			dir,
			(name, event) => name.startsWith("nvim") && event === "rename",
			{
				changed: (name) => seen.push(name),
				counted: (delta) => {
					open += delta;
				},
			},
			watchDir,
		);
		cleanups.push(() => watch.close());
		watch.arm();
		return { watch, seen, open: () => open };
	}

	function root() {
		const made = tempDir("dir-watch");
		cleanups.push(made.cleanup);
		return made.path;
	}

	test("names that pass the filter are told, others are not", async () => {
		const dir = root();
		const { seen, watch } = watchOf(dir);
		writeFileSync(join(dir, "other.txt"), "");
		writeFileSync(join(dir, "nvim.42.0"), "");
		await waitFor("the nvim entry", () => seen.includes("nvim.42.0"));
		expect(seen).not.toContain("other.txt");
		expect(watch.report()).toEqual({ dir, watching: dir });
	});

	test("a dir that is not there yet: its nearest parent is watched, and the dir as soon as it appears", async () => {
		const base = root();
		const dir = join(base, "run", "user");
		const { seen, watch, open } = watchOf(dir);
		expect(watch.report()).toEqual({ dir, watching: base });
		mkdirSync(join(base, "run"));
		await waitFor("the next level watched", () => watch.report().watching === join(base, "run"));
		mkdirSync(dir);
		await waitFor("the dir itself watched", () => watch.report().watching === dir);
		expect(seen).toEqual([null]);
		writeFileSync(join(dir, "nvim.7.0"), "");
		await waitFor("an entry of the new dir", () => seen.includes("nvim.7.0"));
		expect(open()).toBe(1);
	});

	test.each([
		["removed and made again", (dir: string) => rmSync(dir, { recursive: true })],
		["moved away and made again", (dir: string) => renameSync(dir, `${dir}.old`)],
	])("%s: watched again, announced, and its new entries seen", async (_case, away) => {
		const base = root();
		const dir = join(base, "runtime");
		mkdirSync(dir);
		const { seen, watch, open } = watchOf(dir);
		away(dir);
		mkdirSync(dir);
		writeFileSync(join(dir, "nvim.1.0"), "");
		// The dir's own event re-arms it at once; the sources' tick does at the latest (Linux may say nothing).
		await waitFor("the recreated dir announced", () => {
			watch.recheck();
			return seen.includes(null);
		});
		expect(watch.report()).toEqual({ dir, watching: dir });
		writeFileSync(join(dir, "nvim.2.0"), "");
		await waitFor("an entry after the re-arm", () => seen.includes("nvim.2.0"));
		// The old dir, moved away, is no longer what is watched: an entry there is not told.
		if (existsSync(`${dir}.old`)) writeFileSync(join(`${dir}.old`, "nvim.3.0"), "");
		writeFileSync(join(dir, "nvim.4.0"), "");
		await waitFor("an entry written after it", () => seen.includes("nvim.4.0"));
		expect(seen).not.toContain("nvim.3.0");
		expect(open()).toBe(1);
	});

	test("a re-check of a dir that did not change keeps its watch: nothing announced, nothing opened", () => {
		const dir = root();
		const { seen, watch, open } = watchOf(dir);
		watch.recheck();
		watch.recheck();
		expect(seen).toEqual([]);
		expect(open()).toBe(1);
	});

	test("closed: nothing open, nothing told", async () => {
		const dir = root();
		const { seen, watch, open } = watchOf(dir);
		watch.close();
		writeFileSync(join(dir, "nvim.3.0"), "");
		watch.recheck();
		expect(open()).toBe(0);
		expect(seen).toEqual([]);
	});

	test("the filter hears the event's kind: a written `nvim*.log` is no server appearing", async () => {
		const dir = root();
		const { seen } = watchOf(dir);
		writeFileSync(join(dir, "nvim-debug.log"), "");
		await waitFor("its creation", () => seen.includes("nvim-debug.log"));
		const told = seen.length;
		for (let line = 0; line < 20; line++) appendFileSync(join(dir, "nvim-debug.log"), "x\n");
		writeFileSync(join(dir, "nvim.9.0"), "");
		await waitFor("an entry made after the writes", () => seen.includes("nvim.9.0"));
		expect(seen.slice(told)).toEqual(["nvim.9.0"]);
	});

	test("an entry named like the dir itself (`/tmp/tmp`) is an entry, not the dir's removal", async () => {
		const base = root();
		const dir = join(base, "tmp");
		mkdirSync(dir);
		const { seen, watch } = watchOf(dir);
		writeFileSync(join(dir, "tmp"), "");
		appendFileSync(join(dir, "tmp"), "x");
		writeFileSync(join(dir, "nvim.5.0"), "");
		await waitFor("a later entry", () => seen.includes("nvim.5.0"));
		expect(seen).not.toContain(null);
		expect(watch.report()).toEqual({ dir, watching: dir });
	});

	test("a watch the kernel refuses (the inotify limit) is named, and made on the next re-check", () => {
		const dir = root();
		let refuse = true;
		const refusing: WatchDir = (path, listener) => {
			if (refuse)
				throw Object.assign(new Error("ENOSPC: System limit for number of file watchers reached"), { code: "ENOSPC" });
			return watch(path, { persistent: false }, listener);
		};
		const { watch: dirWatch, open } = watchOf(dir, refusing);
		expect(dirWatch.report()).toEqual({
			dir,
			problem: `cannot watch ${dir}: the inotify watch limit is reached (raise fs.inotify.max_user_watches)`,
		});
		expect(open()).toBe(0);
		refuse = false;
		dirWatch.recheck();
		expect(dirWatch.report()).toEqual({ dir, watching: dir });
		expect(open()).toBe(1);
	});

	test("a watcher that errors is dropped and named, then made again on the next re-check", () => {
		const dir = root();
		const made: EventEmitter[] = [];
		const failing: WatchDir = () => {
			const watcher = Object.assign(new EventEmitter(), { close: () => {} });
			made.push(watcher);
			return watcher as unknown as FSWatcher;
		};
		const { watch: dirWatch, open } = watchOf(dir, failing);
		made[0]?.emit("error", new Error("EIO"));
		expect(dirWatch.report()).toEqual({ dir, problem: "its watcher failed: Error: EIO; watched again within seconds" });
		expect(open()).toBe(0);
		dirWatch.recheck();
		expect(made).toHaveLength(2);
		expect(dirWatch.report()).toEqual({ dir, watching: dir });
		expect(open()).toBe(1);
	});
});
