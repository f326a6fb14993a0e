/**
 * pi's side of the VS Code client's channel on real unix sockets in temp dirs: the happy path against the
 * client's own server (clients/vscode/src/channel-server.ts, no VS Code), and every socket pi must not speak to
 * (another user's, 0666, a symlink, one another pid listens on, a dead window's) and every server that misbehaves
 * (garbage, an oversize line, closing mid-call, silence, another server's name).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, renameSync, symlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { listenChannel } from "../../../clients/vscode/src/channel-server.ts";
import { textResult } from "../../../clients/vscode/src/core/channel-rpc.ts";
import {
	type ClientChannelTarget,
	connectClientChannel,
	PI_CLOSED_CHANNEL,
} from "../../../src/editors/state-dir/client-channel.ts";
import { listeningPathsOf } from "../../support/process-facts.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const uid = process.getuid?.() ?? 0;
/** Another user's socket needs a process of another user: root dropping to nobody with setpriv. */
const setprivMissing =
	uid !== 0
		? "the tests do not run as root"
		: spawnSync("setpriv", ["--version"]).status === 0
			? undefined
			: "setpriv is not installed";
if (setprivMissing && process.env.CI === "true")
	throw new Error(`CI=true and another user's socket cannot be made: ${setprivMissing}`);
if (setprivMissing) process.stderr.write(`another user's socket skipped: ${setprivMissing}\n`);
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A 0700 state dir of this user; `pid` defaults to this process (it holds the sockets the tests listen on). */
function stateDir(pid = process.pid): ClientChannelTarget & { socket: string } {
	const dir = tempDir("channel");
	cleanups.push(dir.cleanup);
	chmodSync(dir.path, 0o700);
	return { dir: dir.path, pid, uid, socket: join(dir.path, `${pid}.sock`), listeningPaths: listeningPathsOf() };
}

/** A raw server on `path` that answers each line with what `reply` makes of it (nothing when undefined). */
async function rawServer(path: string, reply: (message: RawMessage, socket: Socket) => unknown): Promise<Server> {
	const server = createServer((socket) => {
		let buffered = "";
		socket.on("error", () => {});
		socket.on("data", (chunk) => {
			buffered += chunk.toString("utf8");
			for (let at = buffered.indexOf("\n"); at !== -1; at = buffered.indexOf("\n")) {
				const message = JSON.parse(buffered.slice(0, at)) as RawMessage;
				buffered = buffered.slice(at + 1);
				const answer = reply(message, socket);
				if (answer !== undefined) socket.write(`${JSON.stringify(answer)}\n`);
			}
		});
	});
	await new Promise<void>((listening) => server.listen(path, listening));
	chmodSync(path, 0o600);
	cleanups.push(() => new Promise((closed) => server.close(() => closed(undefined))));
	return server;
}

interface RawMessage {
	id?: number;
	method: string;
	params?: { name?: string };
}

/** Answers the handshake as the client does; anything else goes to `then`. */
const handshakeThen =
	(then: (message: RawMessage, socket: Socket) => unknown = () => undefined, name = "pi-ide-context-vscode") =>
	(message: RawMessage, socket: Socket) => {
		if (message.id === undefined) return undefined;
		if (message.method === "initialize")
			return {
				jsonrpc: "2.0",
				id: message.id,
				result: { protocolVersion: "2024-11-05", serverInfo: { name, version: "0.4.0" } },
			};
		if (message.method === "tools/list")
			return { jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "openDiff" }, { name: "close_tab" }] } };
		return then(message, socket);
	};

const connected = async (target: ClientChannelTarget, timeoutMs = 2000) => {
	const opened = await connectClientChannel(target, { timeoutMs });
	if (opened.ok) cleanups.push(() => opened.caller.close());
	return opened;
};

function child(args: string[], options: { uid?: number } = {}): ChildProcess {
	const process_ = spawn(args[0] as string, args.slice(1), { stdio: ["ignore", "pipe", "inherit"], ...options });
	cleanups.push(() => process_.kill("SIGKILL"));
	return process_;
}

describe("the channel to the client's own server", () => {
	test("initialize and tools/list done; openDiff waits for the user with no timeout; notifications come", async () => {
		const target = stateDir();
		let decide: (texts: string[]) => void = () => {};
		const started = await listenChannel(target.socket, "0.4.0", {
			callTool: (peer, call) => {
				if (call.tool !== "openDiff") return Promise.resolve({ result: textResult("TAB_CLOSED") });
				peer.notify("pi/diffShown", { tab_name: call.args.tabName });
				return new Promise((resolve) => {
					decide = (texts) => resolve({ result: textResult(...texts) });
				});
			},
			peerGone: () => {},
		});
		if (!started.ok) throw new Error(started.reason);
		cleanups.push(started.close);
		const opened = await connected(target);
		if (!opened.ok) throw new Error(opened.reason);
		const channel = opened.caller;
		expect(channel.server).toEqual({ name: "pi-ide-context-vscode", version: "0.4.0" });
		expect([channel.offers("openDiff"), channel.offers("close_tab"), channel.offers("closeAllDiffTabs")]).toEqual([
			true,
			true,
			false,
		]);
		const notes: unknown[] = [];
		channel.onNotification((method, params) => notes.push([method, params]));
		const args = { old_file_path: "/p/a.ts", new_file_path: "/p/a.ts", new_file_contents: "b\n", tab_name: "t" };
		const answer = channel.callTool("openDiff", args, undefined);
		await waitFor("pi/diffShown", () => notes.length === 1);
		expect(notes).toEqual([["pi/diffShown", { tab_name: "t" }]]);
		decide(["FILE_SAVED", "b, edited\n"]);
		expect(await answer).toEqual({ ok: true, result: textResult("FILE_SAVED", "b, edited\n") });
		expect(await channel.callTool("close_tab", { tab_name: "t" }, 1000)).toEqual({
			ok: true,
			result: textResult("TAB_CLOSED"),
		});
		expect(channel.nonsense.count).toBe(0);
	});

	test("pi's close: a pending openDiff settles at once, whenClosed says pi closed it", async () => {
		const target = stateDir();
		let gone = 0;
		const started = await listenChannel(target.socket, "0.4.0", {
			callTool: () => new Promise(() => {}),
			peerGone: () => gone++,
		});
		if (!started.ok) throw new Error(started.reason);
		cleanups.push(started.close);
		const opened = await connected(target);
		if (!opened.ok) throw new Error(opened.reason);
		const answer = opened.caller.callTool("openDiff", {}, undefined);
		opened.caller.close();
		expect(await answer).toEqual({ ok: false, reason: `the connection closed: ${PI_CLOSED_CHANNEL}` });
		expect(await opened.caller.whenClosed()).toBe(PI_CLOSED_CHANNEL);
		expect(await opened.caller.callTool("close_tab", {}, 100)).toMatchObject({ ok: false });
		await waitFor("the client saw pi go", () => gone === 1);
	});
});

describe("sockets pi never speaks to", () => {
	test.skipIf(setprivMissing !== undefined)("owned by another user: refused from lstat, nothing connects", async () => {
		const target = stateDir();
		const nobodyDir = tempDir("nobody");
		cleanups.push(nobodyDir.cleanup);
		chmodSync(nobodyDir.path, 0o777);
		const listening = join(nobodyDir.path, "s.sock");
		// A real listener of nobody's; root moves its socket into the state dir under the listener's pid.
		const server = child([
			"setpriv",
			"--reuid=65534",
			"--regid=65534",
			"--clear-groups",
			process.execPath,
			"-e",
			`const s = require("node:net").createServer((c) => { console.log("connected"); c.end(); });
				 s.listen(${JSON.stringify(listening)}, () => { require("node:fs").chmodSync(${JSON.stringify(listening)}, 0o600); console.log("listening"); });`,
		]);
		let printed = "";
		server.stdout?.on("data", (chunk) => {
			printed += chunk;
		});
		await waitFor("nobody's listener", () => printed.includes("listening"), 10_000);
		const foreign = { ...target, pid: server.pid as number };
		renameSync(listening, join(target.dir, `${foreign.pid}.sock`));
		const opened = await connectClientChannel(foreign);
		expect(opened).toEqual({
			ok: false,
			reason: `${join(target.dir, `${foreign.pid}.sock`)}: owned by uid 65534, not by you (uid ${uid})`,
		});
		expect(printed).not.toContain("connected");
	});

	test("mode 0666: refused", async () => {
		const target = stateDir();
		await rawServer(target.socket, handshakeThen());
		chmodSync(target.socket, 0o666);
		expect(await connectClientChannel(target)).toEqual({
			ok: false,
			reason: `${target.socket}: open to group or others (mode 0666); the client makes it 0600`,
		});
	});

	test("a symlink to a good socket: refused", async () => {
		const target = stateDir();
		const elsewhere = join(target.dir, "real.sock");
		await rawServer(elsewhere, handshakeThen());
		symlinkSync(elsewhere, target.socket);
		expect(await connectClientChannel(target)).toEqual({
			ok: false,
			reason: `${target.socket}: a symlink, not a socket`,
		});
	});

	test("listened on by another process than the state file's pid: refused", async () => {
		const other = child(["sleep", "30"]);
		const target = stateDir(other.pid as number);
		let asked = 0;
		await rawServer(target.socket, () => {
			asked++;
		});
		expect(await connectClientChannel(target)).toEqual({
			ok: false,
			reason: `${target.socket} is not listened on by pid ${other.pid}: a stale or foreign socket`,
		});
		expect(asked).toBe(0);
	});

	test("a dead window's socket (its listener killed): nothing listens, refused", async () => {
		const dir = stateDir();
		const path = join(dir.dir, "stale.sock");
		const server = child([
			process.execPath,
			"-e",
			`require("node:net").createServer().listen(${JSON.stringify(path)}, () => console.log("listening"));`,
		]);
		let printed = "";
		server.stdout?.on("data", (chunk) => {
			printed += chunk;
		});
		await waitFor("the listener", () => printed.includes("listening"), 10_000);
		server.kill("SIGKILL");
		await new Promise((exited) => server.once("exit", exited));
		const target = { ...dir, pid: server.pid as number, socket: join(dir.dir, `${server.pid}.sock`) };
		chmodSync(path, 0o600);
		renameSync(path, target.socket);
		expect(await connectClientChannel(target)).toEqual({
			ok: false,
			reason: `${target.socket} is not listened on by pid ${server.pid}: a stale or foreign socket`,
		});
	});

	test("no socket, or a dir pi does not trust", async () => {
		const target = stateDir();
		expect(await connectClientChannel(target)).toEqual({ ok: false, reason: `${target.socket}: no socket` });
		chmodSync(target.dir, 0o755);
		expect(await connectClientChannel(target)).toEqual({
			ok: false,
			reason: `${target.dir} has mode 0755; run: chmod 700 ${target.dir}`,
		});
		const missing = join(target.dir, "nope");
		expect(await connectClientChannel({ ...target, dir: missing })).toEqual({
			ok: false,
			reason: `${missing} does not exist and could not be created`,
		});
	});
});

describe("servers that misbehave", () => {
	test("garbage lines are counted and ignored; the channel still answers", async () => {
		const target = stateDir();
		await rawServer(
			target.socket,
			handshakeThen((message, socket) => {
				socket.write("not json\n");
				socket.write('{"jsonrpc":"1.0"}\n');
				socket.write(Buffer.from([0xff, 0xfe, 0x0a]));
				socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: 999, result: "for nobody" })}\n`);
				return { jsonrpc: "2.0", id: message.id, result: textResult("TAB_CLOSED") };
			}),
		);
		const opened = await connected(target);
		if (!opened.ok) throw new Error(opened.reason);
		expect(await opened.caller.callTool("close_tab", { tab_name: "t" }, 1000)).toEqual({
			ok: true,
			result: textResult("TAB_CLOSED"),
		});
		expect(opened.caller.nonsense.count).toBe(3);
	});

	test("a line over 16 MiB closes the connection with a reason; the pending call settles", async () => {
		const target = stateDir();
		await rawServer(
			target.socket,
			handshakeThen((_message, socket) => {
				socket.write("x".repeat(16 * 1024 * 1024 + 1));
			}),
		);
		const opened = await connected(target);
		if (!opened.ok) throw new Error(opened.reason);
		const answer = await opened.caller.callTool("openDiff", {}, undefined);
		expect(answer).toEqual({ ok: false, reason: "the connection closed: a message over pi's 16 MiB limit" });
		expect(await opened.caller.whenClosed()).toBe("a message over pi's 16 MiB limit");
	});

	test("the server closing mid-call: the call settles with why", async () => {
		const target = stateDir();
		await rawServer(
			target.socket,
			handshakeThen((_message, socket) => {
				socket.destroy();
			}),
		);
		const opened = await connected(target);
		if (!opened.ok) throw new Error(opened.reason);
		expect(await opened.caller.callTool("openDiff", {}, undefined)).toEqual({
			ok: false,
			reason: "the connection closed: the client closed the connection",
		});
		expect(await opened.caller.whenClosed()).toBe("the client closed the connection");
	});

	test("a server that never answers initialize, and one that is not the client", async () => {
		const silent = stateDir();
		await rawServer(silent.socket, () => undefined);
		expect(await connectClientChannel(silent, { timeoutMs: 200 })).toEqual({
			ok: false,
			reason: "initialize: no answer to initialize within 200 ms",
		});
		const other = stateDir();
		await rawServer(other.socket, handshakeThen(undefined, "someone-else"));
		expect(await connectClientChannel(other)).toEqual({
			ok: false,
			reason: "the socket's server is someone-else, not pi-ide-context-vscode",
		});
	});

	test("a tool call with a timeout: no answer in time is a reason, a late answer finds nobody", async () => {
		const target = stateDir();
		let late: (() => void) | undefined;
		await rawServer(
			target.socket,
			handshakeThen((message, socket) => {
				late = () => socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} })}\n`);
			}),
		);
		const opened = await connected(target);
		if (!opened.ok) throw new Error(opened.reason);
		expect(await opened.caller.callTool("close_tab", {}, 50)).toEqual({
			ok: false,
			reason: "no answer to tools/call within 50 ms",
		});
		late?.();
		expect(await opened.caller.callTool("close_tab", {}, 50)).toMatchObject({ ok: false });
		expect(opened.caller.nonsense.count).toBe(0);
	});
});
