import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import type { Server, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guarded } from "../../../shared/background.ts";
import { systemClock } from "../../../shared/clock.ts";
import type { Clock } from "../../../shared/core/clock.ts";
import { EMACS_PUSH_HELLO_TIMEOUT_MS } from "../../../shared/core/timing.ts";
import { PushLines } from "../core/push-lines.ts";
import { listen, ownPrivateDir, PUSH_DIR_PREFIX, removeLeftDirs, type StartOf } from "./push-dirs.ts";

/** The longest line an Emacs may push (a snapshot at its caps is well under 5 MiB); a longer one ends the peer. */
export const PUSH_LINE_MAX_BYTES = 16 * 1024 * 1024;
/** A first line longer than this is no token of pi's. */
const HELLO_MAX_BYTES = 256;
/** `sun_path` holds 108 bytes with its NUL on Linux, 104 on a Mac: a longer socket path cannot be bound. */
const SOCKET_PATH_MAX_BYTES = process.platform === "darwin" ? 103 : 107;
/** Random bytes of a token (hex on the wire). */
const TOKEN_BYTES = 16;

export interface PushHandlers {
	/** One JSON value the Emacs sent (untrusted: the caller checks its shape). */
	message(value: unknown): void;
	/** The connection ended by Emacs's side (EOF, an error, an oversize line); not called after `close()`. */
	closed(reason: string): void;
}

/** One Emacs pi expects, or is connected to, on its push socket. */
export interface PushPeer {
	/** What the install's args carry: the first line the Emacs must write. */
	readonly token: string;
	readonly connected: boolean;
	/** Settles true once the Emacs said this token, false if the peer ends (or is closed) before. */
	readonly whenConnected: Promise<boolean>;
	/** Lines that were not JSON, ignored. */
	readonly ignoredLines: number;
	/** One JSON line of pi's to that Emacs (its asks' news); false when the connection is not open. */
	send(value: unknown): boolean;
	/** Ends the connection (Emacs's sentinel then removes everything of pi's), or forgets the token. */
	close(): void;
}

class Peer implements PushPeer {
	connected = false;
	ignoredLines = 0;
	socket: Socket | undefined;
	readonly whenConnected: Promise<boolean>;
	private settleConnected: (connected: boolean) => void = () => {};
	private done = false;

	constructor(
		readonly token: string,
		private readonly handlers: PushHandlers,
		private readonly forget: (token: string) => void,
	) {
		this.whenConnected = new Promise((settle) => {
			this.settleConnected = settle;
		});
	}

	get open(): boolean {
		return !this.done;
	}

	attach(socket: Socket): void {
		this.socket = socket;
		this.connected = true;
		this.settleConnected(true);
	}

	line(bytes: Buffer): void {
		let value: unknown;
		try {
			value = JSON.parse(bytes.toString("utf8"));
		} catch {
			this.ignoredLines++;
			return;
		}
		this.handlers.message(value);
	}

	ended(reason: string): void {
		if (this.done) return;
		this.finish();
		this.handlers.closed(reason);
	}

	close(): void {
		if (this.done) return;
		this.finish();
	}

	send(value: unknown): boolean {
		if (this.done || !this.socket || this.socket.destroyed) return false;
		// No newline inside: JSON escapes it. Never a leading dot: that byte is the acknowledgement.
		this.socket.write(`${JSON.stringify(value)}\n`);
		return true;
	}

	private finish(): void {
		this.done = true;
		this.connected = false;
		this.settleConnected(false);
		this.forget(this.token);
		this.socket?.destroy();
	}
}

/**
 * pi's end of the push channel: a unix socket (0600) in a dir only pi uses (0700), to which pi's elisp in each
 * Emacs connects (core/elisp/push-elisp.ts). A connection counts only once its first line is a token `expect` handed
 * out and no other connection used; then every line is one JSON message, and pi answers each with one byte, a
 * dot (the elisp's flow control); pi's own messages to that Emacs (`send`) are JSON lines on the same bytes. The
 * server and its connections never keep pi's process alive.
 */
export class PushListener {
	private readonly expected = new Map<string, Peer>();
	private readonly sockets = new Set<Socket>();
	private closing: Promise<void> | undefined;

	private constructor(
		private readonly server: Server,
		readonly socketPath: string,
		private readonly dir: string,
		private readonly clock: Clock,
	) {
		server.on("connection", (socket) => this.accept(socket));
	}

	/**
	 * A listener in a fresh `pi-ide-emacs-*` dir under `$XDG_RUNTIME_DIR` when that is a dir of `uid` with no
	 * group or other bits, else under the system temp dir; or why there is none.
	 */
	static async open(
		base: { XDG_RUNTIME_DIR?: string },
		uid: number,
		startOf: StartOf,
		clock: Clock = systemClock,
	): Promise<PushListener | string> {
		const parents = [
			...((await ownPrivateDir(base.XDG_RUNTIME_DIR, uid)) ? [base.XDG_RUNTIME_DIR as string] : []),
			tmpdir(),
		];
		const startSeconds = await startOf(process.pid);
		// Where no start can be read no pi can be told gone: nothing is removed.
		if (startSeconds !== undefined) await Promise.all(parents.map((parent) => removeLeftDirs(parent, uid, startOf)));
		let reason = "no place for the push socket";
		for (const parent of parents) {
			let dir: string;
			try {
				dir = await mkdtemp(join(parent, `${PUSH_DIR_PREFIX}${process.pid}-${startSeconds ?? 0}-`));
			} catch (error) {
				reason = `cannot make the push socket's dir in ${parent}: ${(error as Error).message}`;
				continue;
			}
			const socketPath = join(dir, "push");
			if (Buffer.byteLength(socketPath) > SOCKET_PATH_MAX_BYTES) {
				await rm(dir, { recursive: true, force: true });
				reason = `the push socket's path would be over ${SOCKET_PATH_MAX_BYTES} bytes: ${socketPath}`;
				continue;
			}
			const listening = await listen(socketPath);
			if (typeof listening === "string") {
				await rm(dir, { recursive: true, force: true });
				reason = listening;
				continue;
			}
			return new PushListener(listening, socketPath, dir, clock);
		}
		return reason;
	}

	/** A fresh token for one Emacs; its connection's lines go to `handlers`. */
	expect(handlers: PushHandlers): PushPeer {
		const token = randomBytes(TOKEN_BYTES).toString("hex");
		const peer = new Peer(token, handlers, (done) => this.expected.delete(done));
		this.expected.set(token, peer);
		return peer;
	}

	/** The server closed, every connection ended (each Emacs then tears down), the socket and its dir removed. */
	async close(): Promise<void> {
		if (this.closing) return this.closing;
		this.closing = this.closeOnce();
		return this.closing;
	}

	private async closeOnce(): Promise<void> {
		for (const peer of [...this.expected.values()]) peer.close();
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((closed) => this.server.close(() => closed()));
		await rm(this.dir, { recursive: true, force: true });
	}

	private accept(socket: Socket): void {
		socket.unref();
		this.sockets.add(socket);
		socket.on("error", () => {
			// The close that follows says it.
		});
		const lines = new PushLines(PUSH_LINE_MAX_BYTES);
		let peer: Peer | undefined;
		const cancelHello = this.clock.after(EMACS_PUSH_HELLO_TIMEOUT_MS, () => {
			if (!peer) socket.destroy();
		});
		socket.on(
			"close",
			guarded("emacs push connection", () => {
				cancelHello();
				this.sockets.delete(socket);
				peer?.ended("Emacs closed the connection");
			}),
		);
		socket.on(
			"data",
			guarded("emacs push", (chunk: Buffer) => {
				const step = lines.push(chunk);
				if (!step.ok || (!peer && lines.waitingBytes > HELLO_MAX_BYTES)) {
					if (peer && !step.ok) peer.ended(`dropped: ${step.reason}`);
					socket.destroy();
					return;
				}
				let acknowledged = 0;
				for (const line of step.lines) {
					if (socket.destroyed) return;
					if (!peer) {
						const candidate = this.expected.get(line.toString("latin1"));
						if (!candidate?.open || candidate.connected || line.length > HELLO_MAX_BYTES) {
							socket.destroy();
							return;
						}
						peer = candidate;
						cancelHello();
						peer.attach(socket);
						continue;
					}
					acknowledged++;
					peer.line(line);
				}
				if (acknowledged > 0 && !socket.destroyed) socket.write(".".repeat(acknowledged));
			}),
		);
	}
}
