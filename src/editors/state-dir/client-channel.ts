import { lstat } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { guarded, runInBackground } from "../../shared/background.ts";
import { systemClock } from "../../shared/clock.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { IDE_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import {
	type AskedAnswer,
	cancelledIdOf,
	handleServerMessage,
	METHOD_NOT_FOUND,
	notificationText,
	REQUEST_CANCELLED_NOTIFICATION,
	requestText,
} from "../core/json-rpc.ts";
import { initializeParams, serverInfoOf, toolNamesOf } from "../core/mcp.ts";
import { checkDirTrust, checkSocketTrust } from "../core/path-trust.ts";
import type { BoundRequests } from "../editor-source.ts";
import { lstatFacts, lstatFactsNow } from "../fs-facts.ts";
import { PendingRequests } from "../pending-requests.ts";
import type { ClosableToolCaller, ToolAnswer } from "../tool-caller.ts";
import { CHANNEL_MAX_FRAME_BYTES, LineFrames } from "./core/channel-frames.ts";
import { CHANNEL_SERVER_NAME, channelClientOf, channelSocketName, missingChannelText } from "./core/client-channel.ts";

/** Where one VS Code client's channel is: its state dir, its extension host's pid, the user pi trusts. */
export interface ClientChannelTarget {
	dir: string;
	pid: number;
	uid: number;
	/** The unix sockets that pid listens on (its own fds), as the process facts tell. */
	listeningPaths: (pid: number) => Promise<readonly string[]>;
}

/** The client's channel, connected: initialize and tools/list done. */
export interface ClientChannel extends ClosableToolCaller {
	readonly server: { name: string; version: string };
	/** Lines that were no JSON-RPC message (or no UTF-8): counted and ignored, the last reason kept. */
	readonly nonsense: { count: number; last: string };
	/** A request of pi's own beyond tools (`pi/offerSuggestions`); `timeoutMs` undefined: while connected. */
	ask(method: string, params: unknown, timeoutMs: number | undefined): Promise<ToolAnswer>;
	/** A notification of pi's (an ask's news): never waits; dropped once closed or while the client reads nothing. */
	notify(method: string, params: unknown): void;
}

export type ClientChannelOpen = { ok: true; caller: ClientChannel } | { ok: false; reason: string };

export interface ClientChannelOptions {
	/** For the connection, `initialize` and `tools/list` each. */
	timeoutMs?: number;
	clock?: Clock;
	/**
	 * Where the client's own requests on this connection go (a standing connection: its `getSuggestions` and its
	 * asks, its `request_cancelled`, and the connection's end). None: "method not found".
	 */
	requests?: BoundRequests;
	/** Gives the connection up, wherever it is (a source closing): it resolves `{ ok: false }` at once. */
	signal?: AbortSignal;
}

/** The reason of a close pi made itself. */
export const PI_CLOSED_CHANNEL = "pi closed the connection";

export const channelSocketPath = (target: { dir: string; pid: number }) =>
	join(target.dir, channelSocketName(target.pid));

/**
 * Connects to the client's `<pid>.sock` once it is trusted as the state file is (the dir this user's and 0700;
 * the socket a real socket of this user, 0600) and the listening socket is one the editor's pid holds (its own fds):
 * a stale socket of a dead window, or one another process listens on, is never spoken to. Never throws.
 */
export async function connectClientChannel(
	target: ClientChannelTarget,
	options: ClientChannelOptions = {},
): Promise<ClientChannelOpen> {
	const timeoutMs = options.timeoutMs ?? IDE_REQUEST_TIMEOUT_MS;
	const clock = options.clock ?? systemClock;
	const { signal } = options;
	const givenUp = { ok: false, reason: "given up: pi no longer wants the connection" } as const;
	try {
		const trusted = await trustedSocket(target);
		if (!trusted.ok || signal?.aborted) return trusted.ok ? givenUp : trusted;
		const socket = await connectedSocket(trusted.path, timeoutMs, clock);
		if (typeof socket === "string") return { ok: false, reason: socket };
		if (signal?.aborted) {
			socket.destroy();
			return givenUp;
		}
		const channel = new SocketChannel(socket, clock, options.requests);
		// Closing the channel settles what the handshake waits for: it ends at once.
		const giveUp = () => channel.close();
		signal?.addEventListener("abort", giveUp, { once: true });
		const opened = await channel.handshake(timeoutMs);
		signal?.removeEventListener("abort", giveUp);
		if (!opened.ok || signal?.aborted) channel.close();
		if (signal?.aborted) return givenUp;
		return opened.ok ? { ok: true, caller: channel } : opened;
	} catch (error) {
		return { ok: false, reason: `cannot connect to the client's channel: ${String(error).slice(0, 200)}` };
	}
}

/**
 * For `/ide status`: why a state file of this package's VS Code client names no channel pi could use (an older
 * client, no socket, an untrusted one); undefined when it has one or is another client's. One lstat.
 */
export function missingChannelNow(target: ClientChannelTarget, client: string | undefined): string | undefined {
	const kind = channelClientOf(client);
	if (kind.kind !== "channel") return missingChannelText(kind, undefined);
	const path = channelSocketPath(target);
	try {
		const trust = checkSocketTrust(lstatFactsNow(path).facts, target.uid);
		return missingChannelText(kind, trust.ok ? undefined : `${path}: ${trust.reason}`);
	} catch (error) {
		return missingChannelText(kind, `${path}: cannot stat: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
	}
}

async function trustedSocket(
	target: ClientChannelTarget,
): Promise<{ ok: true; path: string } | { ok: false; reason: string }> {
	const dirTrust = checkDirTrust(target.dir, (await lstatFacts(target.dir)).facts, target.uid);
	if (!dirTrust.ok) return dirTrust;
	const path = channelSocketPath(target);
	const { facts, ino } = await lstatFacts(path);
	const trust = checkSocketTrust(facts, target.uid);
	if (!trust.ok) return { ok: false, reason: `${path}: ${trust.reason}` };
	for (const candidate of await target.listeningPaths(target.pid)) {
		const stats = await lstat(candidate, { bigint: true }).catch(() => undefined);
		// The same file by identity, whatever spelling of the dir the client bound it with.
		if (stats?.isSocket() && stats.ino === ino) return { ok: true, path };
	}
	return { ok: false, reason: `${path} is not listened on by pid ${target.pid}: a stale or foreign socket` };
}

function connectedSocket(path: string, timeoutMs: number, clock: Clock): Promise<Socket | string> {
	return new Promise((resolve) => {
		const socket = connect({ path });
		const cancel = clock.after(timeoutMs, () => {
			socket.destroy();
			resolve(`no connection to ${path} within ${timeoutMs} ms`);
		});
		socket.once("connect", () => {
			cancel();
			resolve(socket);
		});
		socket.once("error", (error: NodeJS.ErrnoException) => {
			cancel();
			resolve(error.code === "ECONNREFUSED" ? `nothing listens on ${path}` : `cannot connect: ${error.message}`);
		});
	});
}

/** One connection to the client: requests by id (a tool call may wait as long as the connection lasts). */
class SocketChannel implements ClientChannel {
	server = { name: "", version: "" };
	nonsense = { count: 0, last: "" };
	private tools = new Set<string>();
	private readonly pending: PendingRequests<ToolAnswer>;
	private readonly listeners = new Set<(method: string, params: unknown) => void>();
	private readonly frames = new LineFrames(CHANNEL_MAX_FRAME_BYTES);
	private closedWith?: string;
	private readonly closed: Promise<string>;
	private markClosed!: (reason: string) => void;

	constructor(
		private readonly socket: Socket,
		clock: Clock,
		private readonly requests?: BoundRequests,
	) {
		this.pending = new PendingRequests(clock);
		this.closed = new Promise((resolve) => {
			this.markClosed = resolve;
		});
		socket.on(
			"data",
			guarded("vscode channel data", (chunk: Buffer) => this.onData(chunk)),
		);
		socket.on("error", (error) => this.finish(`the connection failed: ${error.message.slice(0, 200)}`));
		socket.on("close", () => this.finish("the client closed the connection"));
	}

	async handshake(timeoutMs: number): Promise<{ ok: true } | { ok: false; reason: string }> {
		const init = await this.ask("initialize", initializeParams(), timeoutMs);
		if (!init.ok) return { ok: false, reason: `initialize: ${init.reason}` };
		const info = serverInfoOf(init.result);
		if (!info) return { ok: false, reason: "initialize answered with no protocol version" };
		if (info.name !== CHANNEL_SERVER_NAME)
			return { ok: false, reason: `the socket's server is ${info.name}, not ${CHANNEL_SERVER_NAME}` };
		this.server = info;
		this.send(notificationText("notifications/initialized"));
		const listed = await this.ask("tools/list", {}, timeoutMs);
		const names = listed.ok ? toolNamesOf(listed.result) : undefined;
		if (!names) return { ok: false, reason: `tools/list: ${listed.ok ? "no list of tools" : listed.reason}` };
		this.tools = new Set(names);
		return { ok: true };
	}

	callTool(name: string, args: Record<string, unknown>, timeoutMs: number | undefined): Promise<ToolAnswer> {
		return this.ask("tools/call", { name, arguments: args }, timeoutMs);
	}

	offers(name: string): boolean {
		return this.tools.has(name);
	}

	onNotification(listener: (method: string, params: unknown) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	whenClosed(): Promise<string> {
		return this.closed;
	}

	close(): void {
		this.finish(PI_CLOSED_CHANNEL);
	}

	/** `timeoutMs` undefined: as long as the connection lasts. */
	ask(method: string, params: unknown, timeoutMs: number | undefined): Promise<ToolAnswer> {
		if (this.closedWith !== undefined)
			return Promise.resolve({ ok: false, reason: `not connected: ${this.closedWith}` });
		const { id, answer } = this.pending.open(timeoutMs ?? Number.POSITIVE_INFINITY, {
			ok: false,
			reason: `no answer to ${method} within ${timeoutMs} ms`,
		});
		this.send(requestText(id, method, params));
		return answer;
	}

	notify(method: string, params: unknown): void {
		// A client that stopped reading holds no more than one frame's worth of pi's news.
		if (this.socket.writableLength <= CHANNEL_MAX_FRAME_BYTES) this.send(notificationText(method, params));
	}

	private send(text: string): void {
		if (this.closedWith === undefined && this.socket.writable) this.socket.write(`${text}\n`);
	}

	private onData(chunk: Buffer): void {
		const out = this.frames.push(chunk);
		for (let bad = 0; bad < out.undecodable; bad++) this.sawNonsense("a line that is no UTF-8");
		for (const frame of out.frames) {
			if (this.closedWith !== undefined) return;
			this.onFrame(frame);
		}
		if (out.overflow) this.finish(`a message over pi's ${CHANNEL_MAX_FRAME_BYTES / 1024 / 1024} MiB limit`);
	}

	private onFrame(frame: string): void {
		handleServerMessage(frame, "the client", {
			answered: (id, answer) => this.pending.settle(id, answer),
			reply: (text) => this.send(text),
			...(this.requests && { asked: (id, method, params) => this.asked(id, method, params) }),
			notified: (method, params) => {
				if (method === REQUEST_CANCELLED_NOTIFICATION && this.requests) this.cancelled(params);
				for (const listener of [...this.listeners])
					void runInBackground("vscode channel notification", () => listener(method, params));
			},
			nonsense: (reason) => this.sawNonsense(reason),
		});
	}

	private asked(id: string | number, method: string, params: unknown): Promise<AskedAnswer> {
		if (!this.requests)
			return Promise.resolve({ error: { code: METHOD_NOT_FOUND, message: "pi serves no requests here" } });
		return this.requests.answer({ id, method, params });
	}

	private cancelled(params: unknown): void {
		const id = cancelledIdOf(params);
		if (id === undefined) this.sawNonsense("a request_cancelled without an id");
		else this.requests?.cancelled(id);
	}

	private sawNonsense(reason: string): void {
		this.nonsense = { count: this.nonsense.count + 1, last: reason };
	}

	private finish(reason: string): void {
		if (this.closedWith !== undefined) return;
		this.closedWith = reason;
		this.socket.destroy();
		this.pending.settleAll({ ok: false, reason: `the connection closed: ${reason}` });
		// What the client asked and still waits for is abandoned: its model call aborted.
		this.requests?.gone();
		this.markClosed(reason);
	}
}
