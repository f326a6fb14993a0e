import { spawn } from "node:child_process";
import { once } from "node:events";
import {
	chmodSync,
	existsSync,
	lstatSync,
	mkdirSync,
	readFileSync,
	statSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type BridgeConnection, type BridgeHandler, BridgeSocket } from "../../src/pi-bridge/bridge-socket.ts";
import type { BridgeMessage } from "../../src/pi-bridge/core/bridge-messages.ts";
import { MAX_BRIDGE_LINE_BYTES } from "../../src/pi-bridge/core/line-reader.ts";
import { bridgeSocketPath } from "../../src/pi-bridge/core/socket-path.ts";
import { CleanupScope } from "../support/cleanup-scope.ts";
import { tempDir } from "../support/temp-dir.ts";
import { waitFor } from "../support/wait-for.ts";

type Heard =
	| { connection: number; message: BridgeMessage }
	| { connection: number; malformed: string }
	| { connection: number; closed: true };

/** A handler that writes down what reached it, in order. */
class Recorder implements BridgeHandler {
	readonly heard: Heard[] = [];
	message(connection: BridgeConnection, message: BridgeMessage): void {
		this.heard.push({ connection: connection.id, message });
	}
	malformed(connection: BridgeConnection, reason: string): void {
		this.heard.push({ connection: connection.id, malformed: reason });
	}
	closed(connection: BridgeConnection): void {
		this.heard.push({ connection: connection.id, closed: true });
	}
	of(connection: number): Heard[] {
		return this.heard.filter((one) => one.connection === connection);
	}
}

/** The plugin's end: a raw pipe, NDJSON both ways. */
interface Client {
	socket: Socket;
	received: unknown[];
	closed: () => boolean;
	send(text: string): void;
}

const PROMPT = {
	type: "prompt",
	text: "explain\n\n```lua\nlocal x = 1\n```\n\n",
	context: { file: "/p/a.lua", cwd: "/p", mode: "normal", filetype: "lua", buffer_state: "saved", range: "3" },
};
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

let scope: CleanupScope;
let home: string;
let path: string;

beforeEach(() => {
	scope = new CleanupScope();
	const dir = tempDir("pi-bridge-socket");
	scope.defer(dir.cleanup);
	home = join(dir.path, "home");
	path = bridgeSocketPath(home, "/home/ada/project");
});

afterEach(() => scope.close());

/** A socket served at `path`, closed after the test. */
async function served(recorder?: Recorder): Promise<BridgeSocket> {
	const socket = new BridgeSocket(path);
	scope.defer(() => socket.close());
	if (recorder) socket.attach(recorder);
	await socket.serve();
	return socket;
}

async function client(at = path): Promise<Client> {
	const socket = connect(at);
	socket.on("error", () => {});
	scope.defer(() => socket.destroy());
	await once(socket, "connect");
	const received: unknown[] = [];
	let rest = "";
	let closed = false;
	socket.setEncoding("utf8");
	socket.on("data", (chunk: string) => {
		const lines = (rest + chunk).split("\n");
		rest = lines.pop() ?? "";
		for (const one of lines) received.push(JSON.parse(one));
	});
	socket.on("close", () => {
		closed = true;
	});
	return { socket, received, closed: () => closed, send: (text) => socket.write(text) };
}

/** Another process's server on `at`, closed after the test: what another pi would be. */
async function foreignServer(at: string): Promise<{ server: Server; accepted: () => number }> {
	let accepted = 0;
	const server = createServer((socket) => {
		accepted++;
		socket.on("error", () => {});
		socket.end();
	});
	scope.defer(() => new Promise((closed) => server.close(closed)));
	server.listen(at);
	await once(server, "listening");
	return { server, accepted: () => accepted };
}

/** Connects and waits for the other end to accept: a live owner answers. */
async function answers(at: string): Promise<boolean> {
	const socket = connect(at);
	try {
		await once(socket, "connect");
		return true;
	} catch {
		return false;
	} finally {
		socket.destroy();
	}
}

describe("binding", () => {
	test("creates the missing parent dirs (this user's only) and binds the socket with mode 0600", async () => {
		expect(existsSync(home)).toBe(false);
		const socket = await served();
		expect(socket.state).toEqual({ kind: "serving" });
		const file = lstatSync(path);
		expect(file.isSocket()).toBe(true);
		expect(file.mode & 0o777).toBe(0o600);
		const dir = statSync(dirname(path));
		expect(dir.isDirectory()).toBe(true);
		expect(dir.mode & 0o077).toBe(0);
		expect(await answers(path)).toBe(true);
	});

	test("serve() twice, at once and again later: bound once, the clients kept", async () => {
		const socket = new BridgeSocket(path);
		scope.defer(() => socket.close());
		await Promise.all([socket.serve(), socket.serve()]);
		expect(socket.state).toEqual({ kind: "serving" });
		const inode = lstatSync(path).ino;
		const recorder = new Recorder();
		socket.attach(recorder);
		const plugin = await client();
		await waitFor("the client accepted", () => socket.connections.length === 1);
		await socket.serve();
		expect(socket.state).toEqual({ kind: "serving" });
		expect(lstatSync(path).ino).toBe(inode);
		plugin.send(line({ type: "mirror_ready" }));
		await waitFor("mirror_ready heard", () => recorder.heard.length === 1);
		expect(plugin.closed()).toBe(false);
	});

	test("a live foreign owner (another pi on the path): stood aside, its file left as it was", async () => {
		mkdirSync(dirname(path), { recursive: true });
		const foreign = await foreignServer(path);
		const inode = lstatSync(path).ino;
		const socket = new BridgeSocket(path);
		scope.defer(() => socket.close());
		await socket.serve();
		expect(socket.state).toMatchObject({ kind: "aside", reason: expect.stringContaining("another pi") });
		expect(lstatSync(path).ino).toBe(inode);
		const before = foreign.accepted();
		expect(await answers(path)).toBe(true);
		await waitFor("the foreign owner accepted", () => foreign.accepted() > before);
		// Closing the socket that stood aside removes nothing either.
		await socket.close();
		expect(lstatSync(path).ino).toBe(inode);
		expect(await answers(path)).toBe(true);
	});

	test("a stale socket file (its server killed with SIGKILL, never unlinked): replaced and served", async () => {
		mkdirSync(dirname(path), { recursive: true });
		const script = "require('node:net').createServer().listen(process.argv[1], () => console.log('listening'))";
		const child = spawn(process.execPath, ["-e", script, path], { stdio: ["ignore", "pipe", "inherit"] });
		scope.defer(() => child.kill("SIGKILL"));
		await once(child.stdout, "data");
		const exited = once(child, "exit");
		child.kill("SIGKILL");
		await exited;
		expect(lstatSync(path).isSocket()).toBe(true);
		expect(await answers(path)).toBe(false);

		const recorder = new Recorder();
		const socket = await served(recorder);
		// The new file may reuse the stale one's inode number (ext4 does): what counts is who answers.
		expect(socket.state).toEqual({ kind: "serving" });
		expect(lstatSync(path).isSocket()).toBe(true);
		const plugin = await client();
		plugin.send(line({ type: "mirror_ready" }));
		await waitFor("mirror_ready heard", () => recorder.heard.length === 1);
	});

	test("a plain file at the path is no stale socket: left alone, not served, with the reason", async () => {
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, "left over\n");
		const socket = await served(new Recorder());
		expect(socket.state).toEqual({ kind: "failed", reason: `${path} is not a socket of yours: left alone` });
		expect(readFileSync(path, "utf8")).toBe("left over\n");
	});

	test("a sockets dir others may write: not served there, with the reason", async () => {
		mkdirSync(dirname(path), { recursive: true });
		chmodSync(dirname(path), 0o777);
		const socket = await served(new Recorder());
		expect(socket.state).toEqual({
			kind: "failed",
			reason: `${dirname(path)} is writable by others (mode 777)`,
		});
		expect(existsSync(path)).toBe(false);
	});

	test("0600 from its first moment, whatever the process's umask", async () => {
		const umask = process.umask(0);
		try {
			await served(new Recorder());
		} finally {
			process.umask(umask);
		}
		expect(lstatSync(path).mode & 0o777).toBe(0o600);
	});

	test("a parent that cannot be made (a file where the dir should be): failed, with the reason", async () => {
		mkdirSync(dirname(dirname(path)), { recursive: true });
		writeFileSync(dirname(path), "not a dir");
		const socket = new BridgeSocket(path);
		scope.defer(() => socket.close());
		await socket.serve();
		expect(socket.state).toMatchObject({ kind: "failed", reason: expect.stringContaining("cannot create") });
	});
});

describe("closing", () => {
	test("close() drops every client and removes the file it bound", async () => {
		const socket = await served(new Recorder());
		const plugin = await client();
		await waitFor("the client accepted", () => socket.connections.length === 1);
		await socket.close();
		expect(existsSync(path)).toBe(false);
		expect(socket.state).toEqual({ kind: "idle" });
		expect(socket.connections).toEqual([]);
		await waitFor("the client dropped", () => plugin.closed());
	});

	test("close() after another owner replaced the file: the other owner's file stays, and it still serves", async () => {
		const socket = await served(new Recorder());
		unlinkSync(path);
		const other = await foreignServer(path);
		const inode = lstatSync(path).ino;
		await socket.close();
		expect(lstatSync(path).ino).toBe(inode);
		const before = other.accepted();
		expect(await answers(path)).toBe(true);
		await waitFor("the other owner accepted", () => other.accepted() > before);
	});

	test("serve() after close() binds again", async () => {
		const recorder = new Recorder();
		const socket = await served(recorder);
		await socket.close();
		await socket.serve();
		expect(socket.state).toEqual({ kind: "serving" });
		const plugin = await client();
		plugin.send(line({ type: "mirror_ready" }));
		await waitFor("mirror_ready heard", () => recorder.heard.length === 1);
	});
});

describe("a client's traffic", () => {
	test("mirror_ready and a prompt in one write reach the handler in order; mirror_ready marks the connection", async () => {
		const recorder = new Recorder();
		const socket = await served(recorder);
		const plugin = await client();
		plugin.send(`${line({ type: "mirror_ready" })}${line(PROMPT)}`);
		await waitFor("two messages heard", () => recorder.heard.length === 2);
		const [connection] = socket.connections;
		expect(connection?.mirrorReady).toBe(true);
		expect(recorder.heard).toEqual([
			{ connection: connection?.id, message: { type: "mirror_ready" } },
			{ connection: connection?.id, message: { type: "prompt", prompt: PROMPT } },
		]);
	});

	test("a line written in pieces, a multibyte character split between them: one message, the text whole", async () => {
		const recorder = new Recorder();
		await served(recorder);
		const plugin = await client();
		const prompt = { ...PROMPT, text: "pourquoi « ça » €?" };
		const bytes = Buffer.from(line(prompt), "utf8");
		const cut = bytes.indexOf(Buffer.from("€", "utf8")) + 1;
		await new Promise((written) => plugin.socket.write(bytes.subarray(0, cut), written));
		plugin.socket.write(bytes.subarray(cut));
		await waitFor("the prompt heard", () => recorder.heard.length === 1);
		expect(recorder.heard[0]).toMatchObject({ message: { type: "prompt", prompt: { text: "pourquoi « ça » €?" } } });
	});

	test("a connection without mirror_ready is not marked", async () => {
		const recorder = new Recorder();
		const socket = await served(recorder);
		const plugin = await client();
		plugin.send(line(PROMPT));
		await waitFor("the prompt heard", () => recorder.heard.length === 1);
		expect(socket.connections[0]?.mirrorReady).toBe(false);
	});

	test("a probe (connects, closes without a word): closed only, nothing malformed", async () => {
		const recorder = new Recorder();
		const socket = await served(recorder);
		const probe = await client();
		await waitFor("the probe accepted", () => socket.connections.length === 1);
		const id = socket.connections[0]?.id;
		probe.socket.end();
		await waitFor("the probe gone", () => recorder.heard.length === 1);
		expect(recorder.heard).toEqual([{ connection: id, closed: true }]);
		expect(socket.connections).toEqual([]);
	});

	test("a malformed line: its reason told, the connection kept and still heard", async () => {
		const recorder = new Recorder();
		const socket = await served(recorder);
		const plugin = await client();
		plugin.send(`not json\n${line({ ...PROMPT, context: { ...PROMPT.context, mode: "insert" } })}`);
		plugin.send(line({ type: "mirror_ready" }));
		await waitFor("three lines heard", () => recorder.heard.length === 3);
		expect(recorder.heard.map((one) => ("malformed" in one ? one.malformed : one))).toEqual([
			"a line that is not JSON",
			expect.stringMatching(/^a malformed prompt \(\/context\/mode/),
			{ connection: socket.connections[0]?.id, message: { type: "mirror_ready" } },
		]);
		socket.broadcast({ type: "agent_end", message: "done" });
		await waitFor("agent_end received", () => plugin.received.length === 1);
		expect(plugin.closed()).toBe(false);
	});

	test("an unknown type reaches the handler as ignored, the connection kept", async () => {
		const recorder = new Recorder();
		await served(recorder);
		const plugin = await client();
		plugin.send(line({ type: "cursor_moved", line: 3 }));
		await waitFor("the line heard", () => recorder.heard.length === 1);
		expect(recorder.heard[0]).toMatchObject({ message: { type: "ignored", name: "cursor_moved" } });
		expect(plugin.closed()).toBe(false);
	});

	test("past 1 MiB without a newline: that connection dropped with its reason, the socket serves the others", async () => {
		const recorder = new Recorder();
		const socket = await served(recorder);
		const other = await client();
		const flood = await client();
		await waitFor("both accepted", () => socket.connections.length === 2);
		const [otherId, floodId] = socket.connections.map((connection) => connection.id);
		flood.send("x".repeat(MAX_BRIDGE_LINE_BYTES + 1));
		await waitFor("the flood dropped", () => flood.closed());
		await waitFor("its close heard", () => recorder.of(floodId ?? -1).length === 2);
		expect(recorder.of(floodId ?? -1)).toEqual([
			{ connection: floodId, malformed: "a line past 1 MiB without a newline" },
			{ connection: floodId, closed: true },
		]);
		other.send(line({ type: "mirror_ready" }));
		await waitFor("the other heard", () => recorder.of(otherId ?? -1).length === 1);
		const late = await client();
		late.send(line({ type: "mirror_ready" }));
		await waitFor("a new client heard", () => recorder.heard.length === 4);
		expect(other.closed()).toBe(false);
	});

	test("two clients at once: a broadcast reaches both, once each", async () => {
		const socket = await served(new Recorder());
		const first = await client();
		const second = await client();
		await waitFor("both accepted", () => socket.connections.length === 2);
		socket.broadcast({ type: "agent_start", message: "Claude is working" });
		await waitFor("both received it", () => first.received.length === 1 && second.received.length === 1);
		expect(first.received).toEqual([{ type: "agent_start", message: "Claude is working" }]);
		expect(second.received).toEqual([{ type: "agent_start", message: "Claude is working" }]);
	});

	test("a connection's send reaches that client only", async () => {
		const socket = await served(new Recorder());
		const first = await client();
		const second = await client();
		await waitFor("both accepted", () => socket.connections.length === 2);
		socket.connections[1]?.send({ type: "approval_resolved", id: "q1" });
		await waitFor("the second received it", () => second.received.length === 1);
		socket.broadcast({ type: "agent_end", message: "done" });
		await waitFor("both received the broadcast", () => first.received.length === 1 && second.received.length === 2);
		expect(first.received).toEqual([{ type: "agent_end", message: "done" }]);
	});

	test("a prompt while no session is attached: the client is told no_active_pi; mirror_ready still marks it", async () => {
		const socket = await served();
		const plugin = await client();
		plugin.send(`${line({ type: "mirror_ready" })}${line(PROMPT)}`);
		await waitFor("the error received", () => plugin.received.length === 1);
		expect(plugin.received).toEqual([
			{ type: "error", message: expect.stringContaining("not sent"), code: "no_active_pi" },
		]);
		expect(socket.connections[0]?.mirrorReady).toBe(true);
		expect(plugin.closed()).toBe(false);
	});

	test("after detach nothing reaches the old handler; a prompt is told no_active_pi", async () => {
		const recorder = new Recorder();
		const socket = await served(recorder);
		const plugin = await client();
		plugin.send(line({ type: "mirror_ready" }));
		await waitFor("mirror_ready heard", () => recorder.heard.length === 1);
		socket.detach(new Recorder());
		socket.detach(recorder);
		plugin.send(line(PROMPT));
		await waitFor("the error received", () => plugin.received.length === 1);
		expect(plugin.received).toEqual([expect.objectContaining({ type: "error", code: "no_active_pi" })]);
		expect(recorder.heard).toHaveLength(1);
	});
});
