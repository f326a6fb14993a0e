import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { IDE_CLOSE_SETTLE_MS } from "../../../src/shared/core/timing.ts";
import { writeIdeLockfile } from "../../support/fake-ide-lockfile.ts";
import { PACKAGE_ROOT } from "../../support/pi-cli.ts";
import { waitFor } from "../../support/wait-for.ts";
import { editorOf, lockOf, SourceHarness } from "./source-harness.ts";

/**
 * How an IDE server comes and goes under the source (no pi): found by watches (a dir made later, a lockfile
 * written later), never fought for (a one-client server that closes pi out is not connected to again unasked),
 * gone with its lockfile or its process, and the settings and environment that change what is read.
 */

const KEY = SourceHarness.KEY;
const EVICTED = "the editor closed pi's connection; another client may have taken it; /ide reconnects";
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

let h: SourceHarness;
beforeEach(() => {
	h = new SourceHarness();
});
afterEach(() => h.close());

describe("found without polling", () => {
	test("a lock dir made after the start is found through its parent; a rewrite is read at once", async () => {
		const source = await h.source();
		expect(source.report().dirs.map((dir) => dir.verdict)).toEqual(["not there (yet)", "not there (yet)"]);
		const server = await h.server("jetbrains");
		await waitFor("listed", () => editorOf(source), 2000);
		expect(source.report().dirs[0]?.verdict).toBe("trusted; 1 lockfiles");
		const other = join(h.home, "other");
		mkdirSync(other);
		server.rewriteLockfile({ workspaceFolders: [other] });
		await waitFor("the new folder", () => editorOf(source)?.state.cwd === other, 2000);
	});

	test("a lockfile written in a dir that is there already is found", async () => {
		mkdirSync(h.lockDir("pi"), { recursive: true, mode: 0o700 });
		const source = await h.source();
		expect(source.editors()).toEqual([]);
		const server = await h.server("pi-ide-nvim");
		await waitFor("listed", () => lockOf(source)?.port === server.port && editorOf(source), 2000);
	});

	test("$CLAUDE_CONFIG_DIR/ide and $PI_IDE_LOCK_DIR are read; the second is pi-ide's (its header)", async () => {
		const [config, piDir] = [join(h.home, "cfg"), join(h.home, "run", "pi-ide")];
		const claude = await h.server("vscode", { lockDir: join(config, "ide") });
		const source = await h.source({ env: { CLAUDE_CONFIG_DIR: config, PI_IDE_LOCK_DIR: piDir } });
		expect(source.report().dirs.map(({ path, kind }) => [path, kind])).toEqual([
			[join(config, "ide"), "claude"],
			[h.lockDir("claude"), "claude"],
			[piDir, "pi"],
		]);
		expect(lockOf(source)?.port).toBe(claude.port);
		await claude.stop();
		await waitFor("unlisted", () => source.editors().length === 0, 2000);
		const pi = await h.server("pi-ide-nvim", { lockDir: piDir });
		await waitFor("listed", () => lockOf(source)?.port === pi.port, 2000);
		await h.connect(source);
		expect(pi.upgrades[0]?.headers["x-pi-ide-authorization"]).toBe(pi.token);
	});
});

describe("settings and environment", () => {
	test('"ideServers": false: nothing read, nothing watched, nothing connected', async () => {
		const server = await h.server("vscode");
		const source = await h.source({ mode: "off" });
		await source.lookAgain();
		h.connected = KEY;
		source.follow();
		expect(source.report()).toMatchObject({ phase: "off", mode: "off", locks: [] });
		expect(source.report().dirs.every((dir) => dir.verdict === "not read yet")).toBe(true);
		expect(source.editors()).toEqual([]);
		expect(source.facts(KEY)).toBeUndefined();
		await sleep(50);
		expect(server.upgrades).toEqual([]);
	});

	test("$CLAUDE_CODE_SSE_PORT names the IDE pi runs in: enclosing", async () => {
		const server = await h.server("jetbrains");
		const source = await h.source({ env: { CLAUDE_CODE_SSE_PORT: String(server.port) } });
		expect(editorOf(source)?.enclosing).toBe(true);
		expect(source.report().ssePort).toBe(server.port);
		expect(lockOf(source)?.enclosing).toBe(true);
		const elsewhere = await h.source({ env: { CLAUDE_CODE_SSE_PORT: String(server.port === 1 ? 2 : 1) } });
		expect(editorOf(elsewhere)?.enclosing).toBeUndefined();
	});

	test("an editor another source reads already is that one editor: not listed, never connected", async () => {
		const server = await h.server("vscode");
		h.claimed.set(KEY, "its state file");
		const source = await h.source({ mode: "auto" });
		expect(source.editors()).toEqual([]);
		expect(lockOf(source)?.unused).toBe("the same editor as its state file");
		h.connected = KEY;
		source.follow();
		expect(source.isPending(KEY)).toBe(false);
		await sleep(50);
		expect(server.upgrades).toEqual([]);
	});
});

describe("never fought for", () => {
	test("a one-client server closing pi out (1005): ended, by hand, and not connected again until followed", async () => {
		const server = await h.server("vscode");
		const source = await h.source({ mode: "auto" });
		expect(editorOf(source)?.byHand).toBeUndefined();
		await h.connect(source);
		h.anotherClient(server);
		await h.afterClose(source);
		expect(source.facts(KEY)).toEqual({
			origin: "ide-server",
			listed: true,
			alive: true,
			ended: "closed-by-editor",
			rejection: EVICTED,
		});
		expect(lockOf(source)).toMatchObject({ ended: EVICTED });
		expect(lockOf(source)?.connection).toBeUndefined();
		expect(editorOf(source)).toMatchObject({ byHand: true, ideServer: { connected: false } });
		expect(h.events).toContainEqual({ kind: "app-gone", label: `IDE server ${server.port}` });
		// The tick, the recheck and /ide's look do not connect again; the other client keeps the server.
		source.checkLiveness();
		await source.recheck();
		await source.lookAgain();
		await sleep(100);
		expect(server.upgrades).toHaveLength(2);
		expect(source.facts(KEY)?.ended).toBe("closed-by-editor");
		// Disconnected, the key reads as listed again; picked again (/ide), pi connects.
		h.connected = undefined;
		expect(source.facts(KEY)).toMatchObject({ listed: true, reading: { key: KEY } });
		await h.connect(source);
		expect(server.upgrades).toHaveLength(3);
		expect(source.facts(KEY)?.ended).toBeUndefined();
	});

	test("closed out, then its lockfile rewritten for a new folder (same token): still not taken back", async () => {
		const server = await h.server("vscode");
		const source = await h.source({ mode: "auto" });
		await h.connect(source);
		h.anotherClient(server);
		await h.afterClose(source);
		const folder = join(h.home, "added");
		mkdirSync(folder);
		server.rewriteLockfile({ workspaceFolders: [h.project, folder] });
		await waitFor("the rewrite read", () => lockOf(source)?.folders.length === 2, 2000);
		expect(source.facts(KEY)?.ended).toBe("closed-by-editor");
		expect(editorOf(source)?.byHand).toBe(true);
		// A new activation (a new token) is another server: the rules may pick it again.
		server.rewriteLockfile({ token: "a-new-token-0123456789abcdef" });
		await waitFor("the new token read", () => !source.facts(KEY)?.ended && !editorOf(source)?.byHand, 2000);
		expect(server.upgrades).toHaveLength(2);
	});

	test("followed away while it connects: closed, and no refusal remembered", async () => {
		const server = await h.server("vscode", { misbehave: "silent" });
		const source = await h.source({ mode: "auto" });
		h.connected = KEY;
		source.follow();
		await waitFor("initialize sent", () => server.received.length > 0);
		h.connected = undefined;
		source.follow();
		await waitFor("closed", () => !source.isPending(KEY) && server.openClients === 0);
		await source.recheck();
		source.checkLiveness();
		await source.lookAgain();
		expect(lockOf(source)?.ended).toBeUndefined();
		expect(editorOf(source)?.byHand).toBeUndefined();
	});

	test("follow() to another key, or to none, closes pi's connection", async () => {
		const server = await h.server("claudecode-nvim");
		const source = await h.source();
		await h.connect(source);
		expect(server.openClients).toBe(1);
		h.connected = "pid:1";
		source.follow();
		await waitFor("closed", () => server.openClients === 0);
		expect(lockOf(source)?.connection).toBeUndefined();
		expect(source.facts(KEY)?.ended).toBeUndefined();
	});
});

describe("gone", () => {
	test("its lockfile removed: unlisted within a second; the connection closed once followed", async () => {
		const server = await h.server("vscode");
		const source = await h.source();
		await h.connect(source);
		const before = Date.now();
		server.removeLockfile();
		await waitFor("unlisted", () => source.facts(KEY)?.listed === false, 1000);
		expect(Date.now() - before).toBeLessThan(1000);
		expect(source.facts(KEY)).toEqual({ origin: "ide-server", listed: false, alive: false });
		expect(source.editors()).toEqual([]);
		h.connected = undefined;
		source.follow();
		await waitFor("closed", () => server.openClients === 0);
	});

	test("closed out, then its lockfile removed (an editor closing its clients first): gone, not closed out", async () => {
		const server = await h.server("vscode");
		const source = await h.source();
		await h.connect(source);
		server.closeClients();
		await h.afterClose(source);
		expect(source.facts(KEY)?.ended).toBe("closed-by-editor");
		server.removeLockfile();
		await waitFor("unlisted", () => source.facts(KEY)?.listed === false, 1000);
		expect(source.facts(KEY)).toEqual({ origin: "ide-server", listed: false, alive: false });
	});

	test("the server stopped (its sockets closed, its lockfile removed): disconnected within a second", async () => {
		const server = await h.server("jetbrains");
		const source = await h.source();
		await h.connect(source);
		const before = Date.now();
		await server.stop();
		await waitFor("unlisted", () => source.facts(KEY)?.listed === false, 1000);
		expect(Date.now() - before).toBeLessThan(1000);
		expect(source.facts(KEY)?.ended).toBeUndefined();
		expect(h.events).toContainEqual({ kind: "app-gone", label: `IDE server ${server.port}` });
	});

	test("an IDE that quits, its clients closed before its lockfile: gone, not pi closed out", async () => {
		const server = await h.server("vscode");
		const source = await h.source({ mode: "auto" });
		await h.connect(source);
		server.closeClients();
		await waitFor("pi's connection closed", () => lockOf(source)?.connection === undefined);
		// Still there when pi first looks; the lockfile goes a moment later, inside the settle time: no verdict yet.
		await sleep(50);
		expect(source.facts(KEY)?.ended).toBeUndefined();
		await server.stop();
		await waitFor("unlisted", () => source.facts(KEY)?.listed === false, 1000);
		h.clock.advance(IDE_CLOSE_SETTLE_MS);
		await sleep(50);
		expect(source.facts(KEY)).toEqual({ origin: "ide-server", listed: false, alive: false });
		expect(lockOf(source)).toBeUndefined();
	});

	test("kill -9 of its process (the lockfile left behind): unlisted, its lockfile a dead pid", async () => {
		const child = await tinyServer();
		const lockfile = { workspaceFolders: [h.project], ideName: "Tiny", token: "t0ken-0123456789" };
		writeIdeLockfile(h.lockDir("claude"), child.port, { ...lockfile, pid: child.pid, runningInWindows: false });
		const source = await h.source();
		const key = `pid:${child.pid}`;
		expect(editorOf(source)?.key).toBe(key);
		h.connected = key;
		source.follow();
		await waitFor("connected", () => lockOf(source)?.connection === "connected");
		const before = Date.now();
		child.process.kill("SIGKILL");
		await waitFor("unlisted", () => source.facts(key)?.listed === false, 1000);
		expect(Date.now() - before).toBeLessThan(1000);
		expect(lockOf(source)?.unused).toBe(`dead pid ${child.pid} (a lockfile left behind)`);
		expect(source.facts(key)?.ended).toBeUndefined();
	});

	test("kill -9 of a server pi is not connected to: the liveness tick finds it gone", async () => {
		const child = await tinyServer();
		const fields = { workspaceFolders: [h.project], ideName: "Tiny", token: undefined, runningInWindows: false };
		writeIdeLockfile(h.lockDir("claude"), child.port, { ...fields, pid: child.pid });
		const source = await h.source();
		expect(source.checkLiveness()).toBe(false);
		const exited = new Promise((done) => child.process.once("exit", done));
		child.process.kill("SIGKILL");
		await exited;
		expect(source.checkLiveness()).toBe(true);
		await waitFor("unlisted", () => source.facts(`pid:${child.pid}`)?.listed === false, 1000);
	});
});

/** A minimal MCP server in a process of its own (kill -9 leaves its lockfile): initialize and tools/list only. */
async function tinyServer(): Promise<{ process: ChildProcess; pid: number; port: number }> {
	const script = `
		const { WebSocketServer } = require("ws");
		const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, handleProtocols: () => "mcp" });
		wss.on("listening", () => console.log(wss.address().port));
		wss.on("connection", (ws) => ws.on("message", (data) => {
			const message = JSON.parse(String(data));
			if (message.id === undefined) return;
			const result = message.method === "initialize"
				? { protocolVersion: "2024-11-05", capabilities: {}, serverInfo: { name: "tiny", version: "1" } }
				: message.method === "tools/list" ? { tools: [] } : {};
			ws.send(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
		}));`;
	const child = spawn(process.execPath, ["-e", script], { cwd: PACKAGE_ROOT, stdio: ["ignore", "pipe", "inherit"] });
	h.scope.defer(() => child.kill("SIGKILL"));
	const port = await new Promise<number>((done, fail) => {
		child.once("exit", (code) => fail(new Error(`the tiny server exited (${code})`)));
		child.stdout?.once("data", (chunk: Buffer) => done(Number(String(chunk).trim())));
	});
	return { process: child, pid: child.pid as number, port };
}
