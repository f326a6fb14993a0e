import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { pidKey } from "../../../src/editors/core/editor-key.ts";
import { NeovimSource } from "../../../src/editors/neovim/source.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * Something named `nvim` that serves nonsense on its socket (a process of this user can be anything): pi
 * reports why, lists nothing it cannot trust, and neither throws nor hangs.
 */
describe("a hostile process named nvim", () => {
	const scope = new CleanupScope();
	let root: string;
	let procScope: string;

	beforeEach(() => {
		const dir = tempDir("nvim-hostile");
		scope.defer(dir.cleanup);
		root = dir.path;
		procScope = `nvim-hostile-${process.pid}-${Math.random().toString(36).slice(2)}`;
	});
	afterEach(() => scope.close());

	async function fakeNeovim(mode: string): Promise<{ child: ChildProcess; socket: string }> {
		const socket = join(root, "tmp", "nvimHOSTILE", "0");
		mkdirSync(join(root, "tmp", "nvimHOSTILE"), { recursive: true });
		writeFileSync(join(root, "main.ts"), "a\n");
		const child = spawn(
			process.execPath,
			[join(import.meta.dirname, "..", "..", "support", "fake-nvim.mjs"), socket, mode],
			{
				cwd: root,
				env: { ...process.env, PI_IDE_TEST_PROC_SCOPE: procScope },
				stdio: "ignore",
			},
		);
		scope.defer(() => child.kill("SIGKILL"));
		await waitFor("the fake's socket", async () => {
			const { existsSync } = await import("node:fs");
			return existsSync(socket);
		});
		return { child, socket };
	}

	/** A source that sees only this test's fakes, not started. */
	function unstarted(): NeovimSource {
		return new NeovimSource(
			{
				enabled: { on: true, source: "default" },
				uid: process.getuid?.() ?? 0,
				platform: process.platform,
				env: { TMPDIR: join(root, "tmp") },
				projectDir: () => root,
				connectedKey: () => undefined,
				testScope: procScope,
				facts: testProcessFacts(),
			},
			sourceHooks(),
		);
	}

	async function source(): Promise<NeovimSource> {
		const started = unstarted();
		const startedAt = Date.now();
		await started.start();
		// Never held up: a silent server costs one request timeout at most.
		expect(Date.now() - startedAt).toBeLessThan(2500);
		scope.defer(() => started.close());
		return started;
	}

	test("a well-behaved fake is read (the harness works)", async () => {
		const { child } = await fakeNeovim("fine");
		const neovims = await source();
		expect(neovims.editors().map((editor) => editor.pid)).toEqual([child.pid]);
	});

	test("a Neovim still opening gives no facts: neither listed nor alive until it described itself", async () => {
		const { child, socket } = await fakeNeovim("held");
		const neovims = unstarted();
		scope.defer(() => neovims.close());
		const started = neovims.start();
		await waitFor("the state asked", () => existsSync(`${socket}.asked`));
		// Its connection is open, its state not read: what it is to pi is not known yet.
		expect(neovims.facts(pidKey(child.pid as number))).toBeUndefined();
		writeFileSync(`${socket}.release`, "");
		await started;
		expect(neovims.facts(pidKey(child.pid as number))).toMatchObject({ origin: "neovim", listed: true, alive: true });
	});

	test.each([
		["a state that breaks the schema", "bad-state", /unexpected state from Neovim at \/cwd/],
		["the Lua failing", "lua-error", /Neovim could not describe its state: E5108/],
		["bytes that are not msgpack", "garbage-bytes", /unreadable message from Neovim|Neovim closed the connection/],
		["no answer at all", "silent", /no answer within 500 ms/],
	])("%s: not listed, the reason in the report", async (_name, mode, reason) => {
		const { child } = await fakeNeovim(mode);
		const neovims = await source();
		expect(neovims.editors()).toEqual([]);
		const said = () => {
			const report = neovims.report();
			return [
				...report.neovims.map((entry) => `${entry.problem ?? ""} ${entry.lastRequest?.failure ?? ""}`),
				...report.failures.map((failure) => failure.reason),
			].join("\n");
		};
		// A fake seen without its listener yet (a loaded machine) is looked at again after the scan delays.
		await waitFor("the reason in the report", () => reason.test(said()));
		expect(neovims.editors()).toEqual([]);
		expect(child.exitCode).toBeNull();
	});

	test.each([
		[
			"a 5 MB path: left out, the buffer unnamed",
			"huge",
			"the file name over 4096 characters left out (the buffer counts as unnamed)",
		],
		["a 200 000-character selection: cut", "huge-selection", "the selection cut at 70000 characters (200000 sent)"],
	])("%s; the rest of the state stands, the reason in /ide status", async (_name, mode, reason) => {
		const { child } = await fakeNeovim(mode);
		const neovims = await source();
		// Megabytes within one request's 500 ms: on a loaded machine the first read may time out; /ide reads again.
		await waitFor(
			"the oversize state read",
			async () => {
				if (neovims.editors().length === 0) await neovims.lookAgain();
				return neovims.editors().length > 0;
			},
			20_000,
		);
		expect(neovims.editors().map((editor) => editor.pid)).toEqual([child.pid]);
		expect(neovims.report().neovims[0]?.cuts).toEqual([reason]);
		const { neovimStatusLines } = await import("../../../src/editors/neovim/core/status.ts");
		expect(neovimStatusLines(neovims.report(), Date.now() / 1000, root)).toContain(`    cut by pi: ${reason}`);
	});

	test("a Neovim pi could not talk to is forgotten once its pid is gone, at the next scan", async () => {
		const { child } = await fakeNeovim("garbage-bytes");
		const neovims = await source();
		expect(neovims.report().failures.map((failure) => failure.pid)).toEqual([child.pid]);
		child.kill("SIGKILL");
		await new Promise((done) => child.once("exit", done));
		// Something named nvim* appearing in the runtime dir is what starts a scan without /ide.
		mkdirSync(join(root, "tmp", "nvimNEXT"));
		await waitFor("the failure forgotten", () => neovims.report().failures.length === 0);
	});

	test("terminal escapes in a path never reach the status text", async () => {
		await fakeNeovim("escapes");
		const neovims = await source();
		const { neovimStatusLines } = await import("../../../src/editors/neovim/core/status.ts");
		const text = neovimStatusLines(neovims.report(), Date.now() / 1000, root).join("\n");
		expect(text).not.toContain("\u001b");
		expect(text).not.toContain("\u0007");
		expect(text).toContain("evil.ts");
	});
});
