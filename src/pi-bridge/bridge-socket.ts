import { lstatSync, mkdirSync, unlinkSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { dirname } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { guarded } from "../shared/background.ts";
import { systemClock } from "../shared/clock.ts";
import { BRIDGE_STALE_PROBE_MS } from "../shared/core/timing.ts";
import { type BridgeMessage, type BridgeOutgoing, bridgeLine, readBridgeLine } from "./core/bridge-messages.ts";
import type { BridgeSocketState } from "./core/bridge-status.ts";
import { NO_SESSION_TEXT } from "./core/bridge-texts.ts";
import { LineReader, type LinesRead } from "./core/line-reader.ts";

/** A client's writes pi has not flushed past this: it does not read, and is dropped rather than held in memory. */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

/** One client of the socket (the plugin, a probe, `:checkhealth`): its own state only. */
export interface BridgeConnection {
	readonly id: number;
	/** The plugin said `mirror_ready`: it shows pi's questions. */
	mirrorReady: boolean;
	send(message: BridgeOutgoing): void;
}

/** What the session of the moment does with the socket's traffic. */
export interface BridgeHandler {
	message(connection: BridgeConnection, message: BridgeMessage): void;
	malformed(connection: BridgeConnection, reason: string): void;
	closed(connection: BridgeConnection): void;
}

export type { BridgeSocketState };

/**
 * pi-bridge.ext's socket, served by pi-ide-context: bound once per pi process and path (kept across `/new`,
 * a session switch and `/reload`, on globalThis: the instance of the module that bound it serves on), removed when pi quits and only while the file is still the
 * one it bound (the inode: a newer owner's is never removed). The first to bind wins; a live owner is left
 * alone, a file nobody answers on within the probe is stale and replaced.
 */
export class BridgeSocket {
	private server?: Server;
	private inode?: number;
	private binding?: Promise<void>;
	private handler?: BridgeHandler;
	private readonly clients = new Map<number, { socket: Socket; connection: BridgeConnection }>();
	private nextId = 0;
	private stateNow: BridgeSocketState = { kind: "idle" };
	private readonly removeAtExit = () => this.unlinkIfOurs();

	constructor(readonly path: string) {}

	get state(): BridgeSocketState {
		return this.stateNow;
	}

	get connections(): BridgeConnection[] {
		return [...this.clients.values()].map((client) => client.connection);
	}

	/** Binds unless it serves already; a socket another owner holds is tried again at the next call. */
	serve(): Promise<void> {
		if (this.server) return Promise.resolve();
		this.binding ??= this.bind().finally(() => {
			this.binding = undefined;
		});
		return this.binding;
	}

	attach(handler: BridgeHandler): void {
		this.handler = handler;
	}

	/** The session that attached goes: nothing more reaches it (a later one attaches anew). */
	detach(handler: BridgeHandler): void {
		if (this.handler === handler) this.handler = undefined;
	}

	broadcast(message: BridgeOutgoing): void {
		for (const { connection } of this.clients.values()) connection.send(message);
	}

	/** pi quits: every client goes, the file goes if it is still the one bound here. */
	async close(): Promise<void> {
		// A bind under way ends first: a server it made after the close would outlive it.
		await this.binding;
		const server = this.server;
		this.server = undefined;
		process.off("exit", this.removeAtExit);
		for (const { socket } of this.clients.values()) socket.destroy();
		this.clients.clear();
		const ours = this.inode !== undefined && inodeOf(this.path) === this.inode;
		this.inode = undefined;
		this.stateNow = { kind: "idle" };
		if (!server) return;
		// Closing a server unlinks its path by name (libuv, before it closes the fd): the file goes with it, while ours.
		// Another owner's file there now: the server (unreachable by its path) is left open, unref'd, not closed.
		if (ours) await new Promise<void>((closed) => server.close(() => closed()));
		else server.unref();
	}

	private async bind(): Promise<void> {
		const dir = dirname(this.path);
		try {
			mkdirSync(dir, { recursive: true, mode: 0o700 });
		} catch (error) {
			this.stateNow = { kind: "failed", reason: `cannot create ${dir}: ${messageOf(error)}` };
			return;
		}
		const untrusted = dirProblem(dir);
		if (untrusted !== undefined) {
			this.stateNow = { kind: "failed", reason: untrusted };
			return;
		}
		let bound = await this.listen();
		if (bound === "in use") {
			const found = ownSocket(this.path);
			if (found === undefined) {
				this.stateNow = { kind: "failed", reason: `${this.path} is not a socket of yours: left alone` };
				return;
			}
			if (await answers(this.path)) {
				this.stateNow = { kind: "aside", reason: "another pi serves it (pi-bridge.ext or another pi-ide-context)" };
				return;
			}
			// Stale: removed only while it is the file that was probed (a new owner may have bound meanwhile).
			if (inodeOf(this.path) === found) removeQuietly(this.path);
			bound = await this.listen();
		}
		if (bound === "in use")
			this.stateNow = { kind: "aside", reason: "another pi bound it while pi replaced a stale one" };
		else if (typeof bound === "string") this.stateNow = { kind: "failed", reason: bound };
		else {
			this.server = bound;
			this.inode = inodeOf(this.path);
			process.on("exit", this.removeAtExit);
			this.stateNow = { kind: "serving" };
		}
	}

	/** Bound with a umask of 0177: the socket is 0600 from its first moment, never for a while wider. */
	private listen(): Promise<Server | "in use" | string> {
		return new Promise((resolve) => {
			const server = createServer((socket) => this.accepted(socket));
			server.once("error", (error: NodeJS.ErrnoException) =>
				resolve(error.code === "EADDRINUSE" ? "in use" : `cannot listen: ${error.message}`),
			);
			const umask = process.umask(0o177);
			try {
				server.listen(this.path, () => {
					server.removeAllListeners("error");
					server.on("error", () => {});
					resolve(server);
				});
			} finally {
				process.umask(umask);
			}
		});
	}

	private accepted(socket: Socket): void {
		const id = ++this.nextId;
		const reader = new LineReader();
		const decoder = new StringDecoder("utf8");
		const connection: BridgeConnection = {
			id,
			mirrorReady: false,
			send: (message) => {
				if (socket.destroyed) return;
				if (socket.writableLength > MAX_UNREAD_BYTES) socket.destroy();
				else socket.write(bridgeLine(message));
			},
		};
		this.clients.set(id, { socket, connection });
		// A throw in a handler would end pi's process from a socket's event: recorded instead (`guarded`).
		socket.on(
			"data",
			guarded("pi-bridge line", (data: Buffer) => this.received(socket, connection, reader.read(decoder.write(data)))),
		);
		// A probe opens and closes without a word: nothing to say about it.
		socket.on("error", () => {});
		socket.on(
			"close",
			guarded("pi-bridge close", () => {
				if (!this.clients.delete(id)) return;
				this.handler?.closed(connection);
			}),
		);
	}

	private received(socket: Socket, connection: BridgeConnection, read: LinesRead): void {
		if (!read.ok) {
			this.handler?.malformed(connection, read.reason);
			socket.destroy();
			return;
		}
		for (const line of read.lines) {
			const parsed = readBridgeLine(line);
			if (!parsed.ok) this.handler?.malformed(connection, parsed.reason);
			else {
				if (parsed.message.type === "mirror_ready") connection.mirrorReady = true;
				if (this.handler) this.handler.message(connection, parsed.message);
				else if (parsed.message.type === "prompt")
					connection.send({ type: "error", message: NO_SESSION_TEXT, code: "no_active_pi" });
			}
		}
	}

	private unlinkIfOurs(): void {
		if (this.inode !== undefined && inodeOf(this.path) === this.inode) removeQuietly(this.path);
	}
}

/** Someone accepts a connection on `path` within the probe: a live owner. */
function answers(path: string): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(path);
		const done = (alive: boolean) => {
			cancel();
			socket.destroy();
			resolve(alive);
		};
		const cancel = systemClock.after(BRIDGE_STALE_PROBE_MS, () => done(false));
		socket.once("connect", () => done(true));
		socket.once("error", () => done(false));
	});
}

/** Why the sockets' dir is no place for pi's socket: not a directory of this user's, or others may write it. */
function dirProblem(dir: string): string | undefined {
	try {
		const stat = lstatSync(dir);
		if (!stat.isDirectory()) return `${dir} is not a directory`;
		if (process.getuid && stat.uid !== process.getuid()) return `${dir} belongs to another user`;
		if ((stat.mode & 0o022) !== 0) return `${dir} is writable by others (mode ${(stat.mode & 0o777).toString(8)})`;
		return undefined;
	} catch (error) {
		return `cannot read ${dir}: ${messageOf(error)}`;
	}
}

/** The inode of a socket of this user's at `path`: only such a file may be taken for a stale one and removed. */
function ownSocket(path: string): number | undefined {
	try {
		const stat = lstatSync(path);
		const mine = !process.getuid || stat.uid === process.getuid();
		return stat.isSocket() && mine ? stat.ino : undefined;
	} catch {
		return undefined;
	}
}

function inodeOf(path: string): number | undefined {
	try {
		return lstatSync(path).ino;
	} catch {
		return undefined;
	}
}

function removeQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {}
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const SOCKETS_KEY = Symbol.for("pi-ide-context.pi-bridge.sockets");

/** The socket of `path` in this pi process: one across sessions and module instances (`/reload` imports anew). */
export function bridgeSocketAt(path: string): BridgeSocket {
	const holder = globalThis as { [SOCKETS_KEY]?: Map<string, BridgeSocket> };
	holder[SOCKETS_KEY] ??= new Map();
	const sockets = holder[SOCKETS_KEY];
	let socket = sockets.get(path);
	if (!socket) {
		socket = new BridgeSocket(path);
		sockets.set(path, socket);
	}
	return socket;
}
