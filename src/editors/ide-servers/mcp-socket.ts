import { connect, type Socket } from "node:net";
import WebSocket from "ws";
import { guarded } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { type AskedAnswer, handleServerMessage, notificationText, requestText } from "../core/json-rpc.ts";
import { PendingRequests } from "../pending-requests.ts";

/** What a request gave: the server's result, or why there is none (its error, a timeout, a closed socket). */
export type McpAnswer = { ok: true; result: unknown } | { ok: false; reason: string };

/**
 * A frame over this size closes the connection (ws sends 1009): a select-all of a big file fits (VS Code sends the
 * selection's text whole; pi keeps 66 000 characters of it), a 10 MB flood does not.
 */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** The close pi makes for a frame over the limit (ws closes with 1009 and reports an error). */
export const FRAME_TOO_BIG = { code: 1009, reason: `a message over pi's ${MAX_FRAME_BYTES / 1024 / 1024} MiB limit` };

/** The reason of a close pi made itself. */
export const PI_CLOSED = "pi closed the connection";

/** How a connection attempt ended: open, or refused with a reason and whether a retry without `mcp` may help. */
export type OpenResult = { ok: true; socket: McpSocket } | { ok: false; reason: string; noSubprotocol?: boolean };

export interface McpSocketOptions {
	port: number;
	headers: Record<string, string>;
	/** Offer the `mcp` subprotocol (JetBrains requires it; a server that does not echo it is retried without). */
	subprotocol: boolean;
	timeoutMs: number;
	/** The user the listener must belong to: checked on the connection itself before anything is sent. */
	uid: number;
	/** Whose socket took the connection from `clientPort` (the process facts' answer). */
	serverUidOf: (serverPort: number, clientPort: number) => Promise<number | undefined>;
	clock: Clock;
	onNotification: (method: string, params: unknown) => void;
	/** The server's own requests beyond `ping` (an editor asking for suggestions); none: "method not found". */
	onRequest?: (id: string | number, method: string, params: unknown) => Promise<AskedAnswer>;
}

/**
 * One WebSocket to an IDE server on loopback, speaking JSON-RPC 2.0: requests with a timeout each, the server's
 * `ping` requests answered at once (also while a tool call is pending), notifications in. The TCP connection is
 * made to 127.0.0.1 directly, so no proxy of the environment ever sees the token.
 */
export class McpSocket {
	private readonly pending: PendingRequests<McpAnswer>;
	private closedWith?: { code: number; reason: string };
	private readonly closedPromise: Promise<{ code: number; reason: string }>;
	private markClosed!: (closed: { code: number; reason: string }) => void;
	/** Frames that were no JSON-RPC: counted for `/ide status`, the last reason kept. */
	nonsense = { count: 0, last: "" };

	private constructor(
		private readonly ws: WebSocket,
		private readonly options: McpSocketOptions,
	) {
		this.pending = new PendingRequests(options.clock);
		this.closedPromise = new Promise((resolve) => {
			this.markClosed = resolve;
		});
		// A throw while a message is taken in (a hook of pi's) is recorded, never an uncaught exception in pi.
		ws.on(
			"message",
			guarded("ide server message", (data: WebSocket.RawData, isBinary: boolean) => this.onMessage(data, isBinary)),
		);
		ws.on("close", (code, reason) => this.finish(code, reason.toString("utf8").slice(0, 200)));
		ws.on("error", (error) => {
			if ((error as NodeJS.ErrnoException).code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH")
				this.finish(FRAME_TOO_BIG.code, FRAME_TOO_BIG.reason);
			else this.finish(1006, error.message.slice(0, 200));
		});
	}

	/**
	 * Connects: first the TCP connection alone, whose server end the kernel lists with the uid of the listener
	 * that took it; only when that is this user's are the upgrade and its token sent over it.
	 */
	static async open(options: McpSocketOptions): Promise<OpenResult> {
		const tcp = await connectedTcp(options.port, options.timeoutMs, options.clock);
		if (typeof tcp === "string") return { ok: false, reason: tcp };
		const owner = tcp.localPort === undefined ? undefined : await options.serverUidOf(options.port, tcp.localPort);
		if (owner !== options.uid) {
			tcp.destroy();
			return {
				ok: false,
				reason:
					owner === undefined
						? "whose socket took pi's connection could not be read: nothing sent"
						: `port ${options.port} was listened on by uid ${owner} when pi connected: nothing sent`,
			};
		}
		return new Promise((resolve) => {
			let ws: WebSocket;
			try {
				ws = new WebSocket(`ws://127.0.0.1:${options.port}`, options.subprotocol ? ["mcp"] : [], {
					headers: options.headers,
					handshakeTimeout: options.timeoutMs,
					maxPayload: MAX_FRAME_BYTES,
					perMessageDeflate: false,
					followRedirects: false,
					// The connection just proven: no other is made, and no proxy of the environment is asked.
					createConnection: () => tcp,
				});
			} catch (error) {
				tcp.destroy();
				resolve({ ok: false, reason: `cannot connect: ${String((error as Error).message).slice(0, 120)}` });
				return;
			}
			let settled = false;
			const settle = (result: OpenResult) => {
				if (settled) return;
				settled = true;
				resolve(result);
			};
			ws.once("open", () => settle({ ok: true, socket: new McpSocket(ws, options) }));
			ws.once("unexpected-response", (_request, response) => {
				const refused = response.statusCode === 401 || response.statusCode === 403 ? " (the token was refused)" : "";
				settle({ ok: false, reason: `the server refused the connection (HTTP ${response.statusCode})${refused}` });
				ws.terminate();
			});
			ws.once("error", (error) => {
				const noSubprotocol = error.message === "Server sent no subprotocol";
				settle({
					ok: false,
					reason: noSubprotocol ? "the server did not accept the mcp subprotocol" : connectFailure(error),
					noSubprotocol,
				});
			});
			ws.once("close", () => settle({ ok: false, reason: "the server closed the connection while it opened" }));
		});
	}

	get closed(): { code: number; reason: string } | undefined {
		return this.closedWith;
	}

	whenClosed(): Promise<{ code: number; reason: string }> {
		return this.closedPromise;
	}

	request(method: string, params: unknown, timeoutMs = this.options.timeoutMs): Promise<McpAnswer> {
		if (this.closedWith) return Promise.resolve({ ok: false, reason: "not connected" });
		const { id, answer } = this.pending.open(timeoutMs, {
			ok: false,
			reason: `no answer to ${method} within ${timeoutMs} ms`,
		});
		this.send(requestText(id, method, params));
		return answer;
	}

	notify(method: string, params?: unknown): void {
		this.send(notificationText(method, params));
	}

	close(): void {
		if (!this.closedWith) this.ws.close(1000);
		// A server that never answers the close frame: the socket goes anyway.
		const cancel = this.options.clock.after(this.options.timeoutMs, () => this.ws.terminate());
		this.ws.once("close", cancel);
		this.finish(1000, PI_CLOSED);
	}

	private send(text: string): void {
		if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
	}

	private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
		if (isBinary) {
			this.sawNonsense("a binary frame");
			return;
		}
		handleServerMessage(data.toString(), "the server", {
			answered: (id, answer) => this.pending.settle(id, answer),
			reply: (text) => this.send(text),
			notified: (method, params) => this.options.onNotification(method, params),
			nonsense: (reason) => this.sawNonsense(reason),
			...(this.options.onRequest && { asked: this.options.onRequest }),
		});
	}

	private sawNonsense(reason: string): void {
		this.nonsense = { count: this.nonsense.count + 1, last: reason };
	}

	private finish(code: number, reason: string): void {
		if (this.closedWith) return;
		this.closedWith = { code, reason };
		this.pending.settleAll({ ok: false, reason: "the connection closed" });
		this.markClosed(this.closedWith);
	}
}

/** A TCP connection to 127.0.0.1:`port`, made directly, or why there is none within `timeoutMs`. */
function connectedTcp(port: number, timeoutMs: number, clock: Clock): Promise<Socket | string> {
	return new Promise((resolve) => {
		const tcp = connect({ host: "127.0.0.1", port });
		const cancel = clock.after(timeoutMs, () => {
			tcp.destroy();
			resolve(`no connection within ${timeoutMs} ms`);
		});
		tcp.once("connect", () => {
			cancel();
			resolve(tcp);
		});
		tcp.once("error", (error) => {
			cancel();
			resolve(connectFailure(error));
		});
	});
}

function connectFailure(error: Error): string {
	if (/ECONNREFUSED/.test(error.message)) return "nothing accepts connections on the port";
	if (/timed out|timeout/i.test(error.message)) return "no WebSocket handshake in time";
	return `cannot connect: ${error.message.slice(0, 120)}`;
}
