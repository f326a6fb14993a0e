import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { SourceEvent } from "../../../src/editors/core/editor.ts";
import { NeovimSource } from "../../../src/editors/neovim/source.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { RealNeovim, requireNeovim } from "../../support/real-neovim.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * A Mac's Neovim paths through the Neovim source, on both ways of asking about processes: pi told it runs on
 * darwin, with a Mac's `TMPDIR` (`/var/folders/…/T/`, its trailing slash) and no `XDG_RUNTIME_DIR`, and real
 * Neovims listening where Neovim 0.8+ listens there, `$TMPDIR/nvim.<user>/<random>/nvim.<pid>.0`.
 *
 * Debian's Neovim is 0.7.2, which binds `$TMPDIR/nvimXXXXXX/0` by itself. Here each one makes its own dirs
 * (0700, the user's dir once and a fresh random dir per Neovim) and binds its socket there, as 0.8 does inside
 * its own process before anything else: its `--listen` is a socket outside every watched dir, stopped by its
 * first `--cmd`, which then makes the dirs and calls `serverstart()`. Dirs made by the test before Neovim ran
 * would appear while no `nvim` process exists, which no Neovim does.
 */
const available = requireNeovim("the Neovim source's macOS paths");
/** The name Neovim puts in `nvim.<user>`: the password entry's (`os_get_username`). */
const user = userInfo().username;

describe.skipIf(!available)("a Mac's Neovim server paths through the Neovim source (real Neovim, no pi)", () => {
	describe.each(["proc", "ps"] as const)("asked through the %s backend", (backend) => {
		const scope = new CleanupScope();
		let root: string;
		let project: string;
		let macTmp: string;
		let procScope: string;
		let events: SourceEvent[] = [];

		beforeEach(() => {
			const dir = tempDir("nvim-macos");
			scope.defer(dir.cleanup);
			root = dir.path;
			project = join(root, "proj");
			mkdirSync(join(project, "src"), { recursive: true });
			writeFileSync(join(project, "src", "main.ts"), "line1\nline2\nline3\n");
			writeFileSync(join(project, "src", "other.ts"), "other\n");
			// A Mac's TMPDIR: the user's own dir under /var/folders, with the trailing slash a Mac gives it.
			macTmp = `${join(root, "var", "folders", "40", "x8y", "T")}/`;
			mkdirSync(macTmp, { recursive: true, mode: 0o700 });
			procScope = `nvim-macos-${backend}-${process.pid}-${Math.random().toString(36).slice(2)}`;
			events = [];
		});
		afterEach(() => scope.close());

		async function macSource(): Promise<NeovimSource> {
			const started = new NeovimSource(
				{
					enabled: { on: true, source: "default" },
					uid: process.getuid?.() ?? 0,
					platform: "darwin",
					// No XDG_RUNTIME_DIR (a Mac has none); the user name left to the source, read as Neovim reads it.
					env: { TMPDIR: macTmp },
					projectDir: () => project,
					connectedKey: () => undefined,
					testScope: procScope,
					facts: testProcessFacts(backend),
				},
				sourceHooks({ event: (event) => events.push(event) }),
			);
			await started.start();
			scope.defer(() => started.close());
			return started;
		}

		/**
		 * A Neovim on `file` whose server is `$TMPDIR/nvim.<user>/<random>/nvim.<pid>.0`, its dirs made by itself
		 * (0700). Two never open one file: the second would stop at the swap file's question.
		 */
		async function macNeovim(random: string, file: string): Promise<RealNeovim> {
			const dir = `${macTmp}nvim.${user}/${random}`;
			const boot = join(root, `boot-${random}.sock`);
			const started = await RealNeovim.start({
				cwd: project,
				args: [
					"--listen",
					boot,
					"--cmd",
					`call serverstop('${boot}') | call mkdir('${dir}', 'p', 0700) | call serverstart('${dir}/nvim.' . getpid() . '.0')`,
					file,
				],
				tmpDir: macTmp,
				ui: true,
				scope: procScope,
				socketAt: (pid) => `${dir}/nvim.${pid}.0`,
			});
			scope.defer(() => started.close());
			return started;
		}

		const freshRandom = () => Math.random().toString(36).slice(2, 8).padEnd(6, "x");

		test("Neovims started after pi, each in a fresh dir under nvim.<user>, found by the watch and read", async () => {
			const neovims = await macSource();
			expect(neovims.editors()).toEqual([]);

			const first = await macNeovim("aB3xYz", "src/main.ts");
			const firstSocket = `${macTmp}nvim.${user}/aB3xYz/nvim.${first.pid}.0`;
			// No look by hand: the runtime-dir watch alone.
			const [editor] = await waitFor(
				"the first Neovim listed",
				() => neovims.editors()[0]?.pid === first.pid && neovims.editors(),
				10_000,
			);
			expect(editor).toMatchObject({ key: `pid:${first.pid}`, origin: "neovim", alive: true });
			expect(editor?.state.active_buffer?.file).toBe(join(project, "src", "main.ts"));
			// Shown as Neovim bound it: one slash after the Mac's TMPDIR, the dirs as it made them.
			expect(first.socket).toBe(firstSocket);
			expect(neovims.report().neovims[0]).toMatchObject({ pid: first.pid, socket: firstSocket, ui: true });
			expect(events).toContainEqual({ kind: "app-found", label: `nvim ${first.pid}`, detail: firstSocket });
			for (const dir of [`${macTmp}nvim.${user}`, `${macTmp}nvim.${user}/aB3xYz`]) {
				expect(statSync(dir).mode & 0o777).toBe(0o700);
			}

			// The second Neovim adds nothing to $TMPDIR itself: only the watch of nvim.<user> can see its dir.
			const random = freshRandom();
			const second = await macNeovim(random, "src/other.ts");
			const secondSocket = `${macTmp}nvim.${user}/${random}/nvim.${second.pid}.0`;
			await waitFor(
				"the second Neovim listed",
				() => neovims.editors().some((listed) => listed.pid === second.pid),
				10_000,
			);
			expect(readdirSync(macTmp)).toEqual([`nvim.${user}`]);
			expect(neovims.editors().map((listed) => listed.key)).toEqual(
				expect.arrayContaining([`pid:${first.pid}`, `pid:${second.pid}`]),
			);
			const report = neovims.report();
			expect(report.neovims.map((entry) => entry.socket).sort()).toEqual([firstSocket, secondSocket].sort());
			expect(report.watchProblems).toEqual([]);
			expect(neovims.editors().find((listed) => listed.pid === second.pid)?.state.active_buffer?.file).toBe(
				join(project, "src", "other.ts"),
			);
		});
	});
});
