/**
 * The watch of Neovim's runtime dirs on real dirs, with a Mac's layout under a test's own TMPDIR (platform
 * "darwin" passed in, as the source takes it): Neovim 0.8+ makes `$TMPDIR/nvim.<user>` once and one random dir
 * per Neovim under it, the socket inside; each new Neovim's dir is news, not only the first's.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { neovimRuntimeDirs } from "../../../src/editors/neovim/core/runtime-dirs.ts";
import { neovimUserName, runtimeDirWatchers } from "../../../src/editors/neovim/runtime-dirs.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A Mac's runtime dirs under a test's TMPDIR (with its trailing slash), watched; `news` counts what woke a scan. */
function macDirs() {
	const root = tempDir("neovim-dirs");
	cleanups.push(root.cleanup);
	const tmpdir = join(root.path, "T");
	mkdirSync(tmpdir, { mode: 0o700 });
	const all = neovimRuntimeDirs({ TMPDIR: `${tmpdir}/` }, "darwin", "andy");
	// The real /tmp a Mac also watches is left out here: other processes write there.
	expect(all.filter(({ dir }) => !dir.startsWith(root.path)).map(({ dir }) => dir)).toEqual(["/tmp", "/tmp/nvim.andy"]);
	const dirs = all.filter(({ dir }) => dir.startsWith(root.path));
	let news = 0;
	const watchers = runtimeDirWatchers(dirs, () => {
		news++;
	});
	cleanups.push(() => watchers.close());
	watchers.watch(dirs.map(({ dir }) => dir));
	return { tmpdir, userDir: join(tmpdir, "nvim.andy"), watchers, news: () => news };
}

/** A Neovim 0.8+ starting: its own dir under `nvim.<user>`, its server socket `nvim.<pid>.0` in it. */
async function neovimStarts(userDir: string, random: string, pid: number): Promise<string> {
	const dir = join(userDir, random);
	mkdirSync(dir, { mode: 0o700 });
	const socket = join(dir, `nvim.${pid}.0`);
	const server: Server = createServer();
	await new Promise<void>((listening) => server.listen(socket, listening));
	cleanups.push(() => new Promise((closed) => server.close(closed)));
	return socket;
}

describe("Neovim's runtime dirs on a Mac, watched", () => {
	test("nvim.<user> not there yet: waited for on $TMPDIR; each Neovim's own dir under it is news", async () => {
		const { tmpdir, userDir, watchers, news } = macDirs();
		expect(watchers.reports()).toEqual([
			{ dir: tmpdir, watching: tmpdir },
			{ dir: userDir, watching: tmpdir },
		]);
		// The first Neovim 0.8+ of this user makes nvim.<user> (0700), then its own dir in it.
		mkdirSync(userDir, { mode: 0o700 });
		await waitFor("nvim.<user> watched", () => watchers.reports()[1]?.watching === userDir);
		await waitFor("its appearance told", () => news() > 0);
		const before = news();
		await neovimStarts(userDir, "aB3xYz", 4242);
		await waitFor("the first Neovim's dir told", () => news() > before);
		// A second Neovim: only its own dir under nvim.<user> appears; $TMPDIR itself does not change.
		const second = news();
		await neovimStarts(userDir, "Qw7pLm", 4343);
		await waitFor("the second Neovim's dir told", () => news() > second);
	});

	test("in $TMPDIR only names Neovim gives are news: a 0.7 temp dir, not another program's entry", async () => {
		const { tmpdir, news } = macDirs();
		mkdirSync(join(tmpdir, "com.apple.launchd.Xz9Q"));
		writeFileSync(join(tmpdir, "pi-ide.log"), "");
		// A Neovim 0.7: `$TMPDIR/nvimXXXXXX/0`. Made after the others: told last, so they were told first or never.
		mkdirSync(join(tmpdir, "nvimegTUh6"));
		await waitFor("the 0.7 dir told", () => news() > 0);
		expect(news()).toBe(1);
	});

	test("the user name in nvim.<user> is the password entry's, as Neovim reads it", () => {
		expect(neovimUserName(process.getuid?.() ?? 0)).toBe(userInfo().username);
	});
});
