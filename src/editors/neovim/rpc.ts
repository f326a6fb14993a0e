import { connect, type Socket } from "node:net";
import { decodeMultiStream, encode } from "@msgpack/msgpack";
import type { Clock } from "../../shared/core/clock.ts";
import { PendingRequests } from "../pending-requests.ts";

/** What a request gave: Neovim's result, or why there is none (its error, a timeout, a closed socket). */
export type RpcAnswer = { ok: true; value: unknown } | { ok: false; reason: string };

const REQUEST = 0;

const NEOVIM_CLOSED = "Neovim closed the connection";
/** Errors that mean the other end of the socket is gone. */
const PEER_GONE: ReadonlySet<string> = new Set(["EPIPE", "ECONNRESET"]);
const RESPONSE = 1;
const NOTIFICATION = 2;

/** Request ids wrap here (msgpack-RPC's msgid is a uint32). */
const MAX_MSGID = 0xffff_ffff;

/**
 * One msgpack-RPC connection to a Neovim's own server: requests with a timeout each, notifications in.
 * Neovim may answer a timed-out request later (a prompt held it): the late answer is dropped, so every
 * request pi sends must be harmless whenever it runs. Closing the socket is the only death signal.
 */
export class RpcConnection {
	private readonly pending: PendingRequests<RpcAnswer>;
	private closedReason?: string;
	private readonly closedPromise: Promise<string>;
	private markClosed!: (reason: string) => void;

	private constructor(
		private readonly socket: Socket,
		clock: Clock,
		private readonly onNotification: (method: string, params: unknown) => void,
	) {
		this.pending = new PendingRequests(clock, MAX_MSGID);
		this.closedPromise = new Promise((resolve) => {
			this.markClosed = resolve;
		});
		// A write that meets Neovim's end of the socket already gone (EPIPE, ECONNRESET) is Neovim closing it.
		socket.on("error", (error: NodeJS.ErrnoException) =>
			this.close(PEER_GONE.has(error.code ?? "") ? NEOVIM_CLOSED : `socket error: ${error.message}`),
		);
		socket.on("close", () => this.close(NEOVIM_CLOSED));
		void this.read();
	}

	/** Connects to a unix socket; undefined with the reason when it cannot within `timeoutMs`. */
	static open(
		path: string,
		options: { clock: Clock; timeoutMs: number; onNotification: (method: string, params: unknown) => void },
	): Promise<RpcConnection | string> {
		return new Promise((resolve) => {
			const socket = connect(path);
			const cancel = options.clock.after(options.timeoutMs, () => {
				socket.destroy();
				resolve(`no connection within ${options.timeoutMs} ms`);
			});
			socket.once("error", (error) => {
				cancel();
				resolve(`cannot connect: ${error.message}`);
			});
			socket.once("connect", () => {
				cancel();
				socket.removeAllListeners("error");
				resolve(new RpcConnection(socket, options.clock, options.onNotification));
			});
		});
	}

	get closed(): string | undefined {
		return this.closedReason;
	}

	/** Resolves with the reason once the connection is gone, whoever closed it. */
	whenClosed(): Promise<string> {
		return this.closedPromise;
	}

	request(method: string, params: readonly unknown[], timeoutMs: number): Promise<RpcAnswer> {
		if (this.closedReason) return Promise.resolve({ ok: false, reason: this.closedReason });
		const { id, answer } = this.pending.open(timeoutMs, { ok: false, reason: `no answer within ${timeoutMs} ms` });
		this.socket.write(encode([REQUEST, id, method, params]));
		return answer;
	}

	/** Idempotent; every request still waiting resolves with the reason. */
	close(reason = "closed by pi"): void {
		if (this.closedReason) return;
		this.closedReason = reason;
		this.socket.destroy();
		this.pending.settleAll({ ok: false, reason });
		this.markClosed(reason);
	}

	private async read(): Promise<void> {
		try {
			for await (const message of decodeMultiStream(this.socket)) this.dispatch(message);
		} catch (error) {
			this.close(`unreadable message from Neovim: ${(error as Error).message}`);
		}
	}

	private dispatch(message: unknown): void {
		if (!Array.isArray(message)) return;
		if (message[0] === RESPONSE && typeof message[1] === "number") {
			this.pending.settle(
				message[1],
				message[2] == null ? { ok: true, value: message[3] } : { ok: false, reason: errorText(message[2]) },
			);
		} else if (message[0] === NOTIFICATION && typeof message[1] === "string") {
			this.onNotification(message[1], message[2]);
		} else if (message[0] === REQUEST && typeof message[1] === "number") {
			// pi serves no methods: an answer keeps Neovim from waiting on a request nobody will handle.
			this.socket.write(encode([RESPONSE, message[1], "pi-ide-context serves no requests", null]));
		}
	}
}

/** Neovim's errors are `[type, message]`. */
function errorText(error: unknown): string {
	if (Array.isArray(error) && typeof error[1] === "string") return error[1].slice(0, 300);
	return typeof error === "string" ? error.slice(0, 300) : "Neovim reported an error";
}
