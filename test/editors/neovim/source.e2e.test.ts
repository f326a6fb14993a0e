import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { SourceEvent } from "../../../src/editors/core/editor.ts";
import { NeovimSource } from "../../../src/editors/neovim/source.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { GUARD_ASK_MS } from "../../../src/shared/core/timing.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { RealNeovim, requireNeovim } from "../../support/real-neovim.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/** The Neovim source on the real `/proc`, real runtime-dir watches and real Neovims, without pi. */
const available = requireNeovim("the Neovim source tests");

describe.skipIf(!available)("the Neovim source with real Neovims (no pi)", () => {
	const scope = new CleanupScope();
	let root: string;
	let project: string;
	let tmp: string;
	let procScope: string;
	let changes = 0;
	let connected: string | undefined;
	let events: SourceEvent[] = [];

	beforeEach(() => {
		const dir = tempDir("nvim-source");
		scope.defer(dir.cleanup);
		root = dir.path;
		project = join(root, "proj");
		tmp = join(root, "tmp");
		mkdirSync(join(project, "src"), { recursive: true });
		mkdirSync(tmp);
		writeFileSync(join(project, "src", "main.ts"), "line1\nline2\nline3\n");
		procScope = `nvim-source-${process.pid}-${Math.random().toString(36).slice(2)}`;
		changes = 0;
		connected = undefined;
		events = [];
	});
	afterEach(() => scope.close());

	async function source(env: { NVIM?: string } = {}): Promise<NeovimSource> {
		const started = new NeovimSource(
			{
				enabled: { on: true, source: "default" },
				uid: process.getuid?.() ?? 0,
				platform: process.platform,
				env: { TMPDIR: tmp, ...env },
				projectDir: () => project,
				connectedKey: () => connected,
				testScope: procScope,
				facts: testProcessFacts(),
			},
			sourceHooks({ event: (event) => events.push(event), changed: () => changes++ }),
		);
		await started.start();
		scope.defer(() => started.close());
		return started;
	}

	async function neovim(options: { ui?: boolean; cwd?: string; args?: string[] } = {}): Promise<RealNeovim> {
		const started = await RealNeovim.start({
			cwd: options.cwd ?? project,
			args: options.args ?? ["src/main.ts"],
			tmpDir: tmp,
			ui: options.ui ?? true,
			scope: procScope,
		});
		scope.defer(() => started.close());
		return started;
	}

	test("found at start: listed with its state, pushes live, its key the pid", async () => {
		const nvim = await neovim();
		const neovims = await source();
		const [editor] = await waitFor("the Neovim listed", () => neovims.editors().length === 1 && neovims.editors());
		expect(editor).toMatchObject({ key: `pid:${nvim.pid}`, origin: "neovim", alive: true });
		expect(editor?.state.active_buffer?.file).toBe(join(project, "src", "main.ts"));
		await waitFor("pushes confirmed", () => neovims.report().neovims[0]?.pushing);
		expect(neovims.report().neovims[0]).toMatchObject({ pid: nvim.pid, socket: nvim.socket, ui: true });
		await nvim.keys("2G", "n");
		await waitFor("the pushed cursor", () => neovims.editors()[0]?.state.active_buffer?.cursor?.line === 2);
	});

	test("a Neovim started later is found through the runtime dir, without a look by hand", async () => {
		const neovims = await source();
		expect(neovims.editors()).toEqual([]);
		const nvim = await neovim();
		await waitFor("the new Neovim listed", () => neovims.editors()[0]?.pid === nvim.pid, 5000);
		expect(events).toContainEqual({ kind: "app-found", label: `nvim ${nvim.pid}`, detail: nvim.socket });
	});

	test("kill -9: gone within a second, its key no longer listed", async () => {
		const nvim = await neovim();
		const neovims = await source();
		await waitFor("listed", () => neovims.editors().length === 1);
		const before = Date.now();
		nvim.kill();
		await waitFor("unlisted", () => neovims.facts(`pid:${nvim.pid}`)?.listed === false, 1000);
		expect(Date.now() - before).toBeLessThan(1000);
		expect(neovims.editors()).toEqual([]);
	});

	test("a headless Neovim (no UI) is in the report, never listed, and never asked to push", async () => {
		const nvim = await neovim({ ui: false });
		const neovims = await source();
		await waitFor("read", () => neovims.report().neovims[0]?.ui === false);
		expect(neovims.editors()).toEqual([]);
		expect(neovims.report().neovims[0]?.pushing).toBe(false);
		expect(await nvim.piGroups()).toEqual([]);
	});

	test("an impostor: a socket named like Neovim's, held by another process, is never connected to", async () => {
		const nvim = await neovim();
		let connections = 0;
		const fakeDir = join(tmp, "nvimFAKE00");
		mkdirSync(fakeDir);
		const server = createServer((socket) => {
			connections++;
			socket.destroy();
		});
		await new Promise<void>((done) => server.listen(join(fakeDir, "0"), done));
		scope.defer(() => new Promise<void>((done) => server.close(() => done())));
		const neovims = await source();
		await neovims.lookAgain();
		expect(neovims.report().neovims.map((entry) => entry.socket)).toEqual([nvim.socket]);
		expect(connections).toBe(0);
	});

	test("another project's Neovim is read once, listed, and does not push", async () => {
		const elsewhere = join(root, "elsewhere");
		mkdirSync(elsewhere);
		const nvim = await neovim({ cwd: elsewhere, args: [] });
		const neovims = await source();
		await waitFor("listed", () => neovims.editors().length === 1);
		expect(neovims.report().neovims[0]?.pushing).toBe(false);
		expect(await nvim.piGroups()).toEqual([]);
		// Picked by hand (/ide all): it pushes while connected.
		connected = `pid:${nvim.pid}`;
		await neovims.setPaused(false);
		expect(neovims.report().neovims[0]?.pushing).toBe(true);
		expect((await nvim.piGroups()).length).toBe(1);
	});

	test("$NVIM: the Neovim pi runs in is marked, and pushes even from another project", async () => {
		const elsewhere = join(root, "elsewhere");
		mkdirSync(elsewhere);
		const nvim = await neovim({ cwd: elsewhere, args: [] });
		const neovims = await source({ NVIM: nvim.socket });
		await waitFor("listed", () => neovims.editors().length === 1);
		expect(neovims.editors()[0]?.enclosing).toBe(true);
		expect(neovims.report()).toMatchObject({ enclosing: nvim.socket, enclosingFound: true });
		await waitFor("pushes from it", () => neovims.report().neovims[0]?.pushing);
	});

	test("closed: nothing of pi stays in Neovim", async () => {
		const nvim = await neovim();
		const neovims = await source();
		await waitFor("pushing", () => neovims.report().neovims[0]?.pushing === true);
		expect((await nvim.piGroups()).length).toBe(1);
		await neovims.close();
		expect(await nvim.piGroups()).toEqual([]);
	});

	test("paused (/ide off): the group goes; resumed: it comes back", async () => {
		const nvim = await neovim();
		const neovims = await source();
		await waitFor("pushing", () => neovims.report().neovims[0]?.pushing === true);
		await neovims.setPaused(true);
		expect(await nvim.piGroups()).toEqual([]);
		await neovims.setPaused(false);
		expect((await nvim.piGroups()).length).toBe(1);
	});

	test("a Neovim in confirm(): marked blocking, asked nothing but its mode; the last pushed state stands", async () => {
		const nvim = await neovim();
		const neovims = await source();
		const key = `pid:${nvim.pid}`;
		await waitFor("pushing", () => neovims.report().neovims[0]?.pushing);
		await nvim.keys(":call confirm('Really?', \"&Yes\\n&No\")<CR>");
		await waitFor(
			"Neovim blocking",
			async () => ((await nvim.call("nvim_get_mode")) as { blocking: boolean }).blocking,
		);
		const before = Date.now();
		expect(await neovims.unsavedNow(key, systemClock.nowMs() + GUARD_ASK_MS)).toBeUndefined();
		expect(Date.now() - before).toBeLessThan(400);
		expect(neovims.facts(key)?.reading?.blocked).toBe(true);
		expect(neovims.editors()[0]?.state.active_buffer?.file).toBe(join(project, "src", "main.ts"));
		await nvim.keys("y");
		await nvim.keys("j", "n");
		await waitFor("a push again: not blocking", () => neovims.facts(key)?.reading?.blocked !== true);
		expect(changes).toBeGreaterThan(0);
	});

	test("blocking when found: pushes start on a later recheck, once Neovim answers", async () => {
		const nvim = await neovim();
		await nvim.keys(":call confirm('Now?', \"&Yes\\n&No\")<CR>");
		await waitFor(
			"Neovim blocking",
			async () => ((await nvim.call("nvim_get_mode")) as { blocking: boolean }).blocking,
		);
		const neovims = await source();
		await neovims.recheck();
		expect(neovims.report().neovims[0]).toMatchObject({ blocking: true, pushing: false });
		expect(neovims.editors()).toEqual([]);
		await nvim.keys("y");
		await nvim.keys("<Esc>", "n");
		await neovims.recheck();
		await waitFor("pushing after the prompt", () => neovims.report().neovims[0]?.pushing);
		expect(neovims.editors()[0]?.pid).toBe(nvim.pid);
	});

	test.each([
		["V on one line", "2GV", "V", true],
		["v over two lines", "2G0lvj", "v", true],
		["a block over two lines", "2G0l<C-v>j", "\u0016", true],
		["v inside one line", "2G0lvl", "v", false],
		["a block inside one line", "2G0l<C-v>l", "\u0016", false],
	])("whole lines or a fragment, as a line reference needs to know: %s", async (_name, keys, mode, whole) => {
		const nvim = await neovim();
		const neovims = await source();
		await waitFor("pushing", () => neovims.report().neovims[0]?.pushing);
		await nvim.keys(keys, mode);
		const selected = await waitFor("the selection pushed", () => {
			const editor = neovims.editors()[0];
			const selection = editor?.state.active_buffer?.selection;
			// The last push, not one on the way: a selection over lines ends on line 3.
			return selection?.start.line === 2 && selection.end.line === (whole && mode !== "V" ? 3 : 2) && editor;
		});
		expect(selected.wholeLineSelection).toBe(whole);
	});

	// The budget shared by the mode and the list is proven on a held server in session.test.ts (its clock moved by
	// hand); here a real Neovim in a busy loop (even nvim_get_mode unanswered) ends the whole ask by the deadline.
	test("a busy Neovim: the whole guard's ask ends by its deadline", async () => {
		const nvim = await neovim();
		const neovims = await source();
		const key = `pid:${nvim.pid}`;
		await waitFor("pushing", () => neovims.report().neovims[0]?.pushing);
		// A free Neovim answers the guard's ask (no latency claim: a loaded machine may take longer than the budget).
		expect(await neovims.unsavedNow(key, systemClock.nowMs() + 10_000)).toEqual([]);
		// Busy in Lua from the marker's writing until the test deletes it (20 s at most): no wall-clock race.
		const marker = join(root, "busy");
		const busy = `local path = ...
			assert(io.open(path, "w")):close()
			local t = vim.loop.hrtime()
			while vim.loop.fs_stat(path) and vim.loop.hrtime() - t < 20e9 do end`;
		const held = nvim.rpc.request("nvim_exec_lua", [busy, [marker]], 30_000);
		let heldAnswered = false;
		void held.then(() => (heldAnswered = true));
		await waitFor("Neovim busy", () => existsSync(marker));
		const deadline = systemClock.nowMs() + GUARD_ASK_MS;
		expect(await neovims.unsavedNow(key, deadline)).toBeUndefined();
		const lateMs = Math.max(0, systemClock.nowMs() - deadline);
		// Given up while Neovim still ran its Lua, on a timer of what the deadline left, not the request's 500 ms.
		expect(heldAnswered).toBe(false);
		const failure = neovims.report().neovims[0]?.lastRequest?.failure ?? "";
		expect(failure).toMatch(/^no answer within \d+ ms$/);
		expect(Number(failure.match(/\d+/)?.[0])).toBeLessThanOrEqual(GUARD_ASK_MS);
		process.stderr.write(`the busy Neovim's ask ended ${lateMs.toFixed(0)} ms past its deadline\n`);
		expect(neovims.report().neovims[0]?.blocking).toBe(true);
		rmSync(marker);
		expect(await held).toMatchObject({ ok: true });
	});
});
