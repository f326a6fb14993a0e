import { chmodSync, lstatSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { frameText, LineFrames } from "../../../src/editors/state-dir/core/channel-frames.ts";
import { OFFER_METHOD } from "../../../src/editors/state-dir/core/suggestion-offer.ts";
import { AskedOfPeer } from "./asked-of-peer.ts";
import {
	errorMessage,
	initializeResult,
	notificationMessage,
	type PeerAnswer,
	RPC_ERROR,
	readIncoming,
	resultMessage,
	TOOLS,
	type ToolCall,
	toolCallOf,
} from "./core/channel-rpc.ts";

/** One pi connected to the socket. */
export interface ChannelPeer {
	readonly id: number;
	notify(method: string, params: unknown): void;
	/**
	 * Asks pi (inline completions, asks, on a connection pi offered itself on): the request's id, for a cancel,
	 * and pi's answer, or why none came (an error, `timeoutMs` passed, the connection ended: PEER_ENDED). Never
	 * rejects.
	 */
	request(method: string, params: unknown, timeoutMs: number): { id: number; answer: Promise<PeerAnswer> };
}

export type CallOutcome = { result: unknown } | { code: number; message: string };

export interface ChannelHandlers {
	/** A checked tool call; an openDiff resolves once the user decided (or pi closed its tab). */
	callTool(peer: ChannelPeer, call: Exclude<ToolCall, { tool: "invalid" }>): Promise<CallOutcome>;
	/** The peer's connection ended (pi exited or was killed): whatever it showed goes. */
	peerGone(peer: ChannelPeer): void;
	/** pi offers itself (`pi/offerSuggestions`: inline completions, asks); none: "method not found". */
	offered?(peer: ChannelPeer, params: unknown): CallOutcome;
	/** A notification of pi's (an ask's news); none: ignored. */
	notified?(peer: ChannelPeer, method: string, params: unknown): void;
}

/** Why a request to a pi got no answer when its connection ended (or had ended). */
export const PEER_ENDED = "pi's connection ended";

/** More pis than this at once are one per terminal beyond reason: a further connection is closed at once. */
const MAX_PEERS = 32;

export type ChannelStart = { ok: true; close: () => void } | { ok: false; reason: string };

/**
 * Listens on `path` (`<pid>.sock` in the state dir pi already trusts), made 0600: a stale socket of a dead process
 * that had this pid is replaced. Never throws, and no line pi sends can throw into the extension host.
 */
export function listenChannel(path: string, version: string, handlers: ChannelHandlers): Promise<ChannelStart> {
	const stale = lstatSync(path, { throwIfNoEntry: false });
	if (stale?.isDirectory()) return Promise.resolve({ ok: false, reason: `${path} is a directory` });
	try {
		if (stale) rmSync(path, { force: true });
	} catch (error) {
		return Promise.resolve({ ok: false, reason: `cannot replace ${path}: ${(error as Error).message}` });
	}
	const peers = new Set<Socket>();
	let nextPeer = 1;
	const server = createServer((socket) => {
		if (peers.size >= MAX_PEERS) return socket.destroy();
		peers.add(socket);
		serve(socket, nextPeer++, version, handlers, () => peers.delete(socket));
	});
	return new Promise((resolve) => {
		server.once("error", (error) => resolve({ ok: false, reason: `cannot listen on ${path}: ${error.message}` }));
		server.listen(path, () => {
			server.removeAllListeners("error");
			server.on("error", () => {});
			try {
				// pi trusts only a socket nobody else may open: the umask alone would leave it 0755 or so.
				chmodSync(path, 0o600);
			} catch (error) {
				server.close();
				resolve({ ok: false, reason: `cannot make ${path} 0600: ${(error as Error).message}` });
				return;
			}
			resolve({ ok: true, close: () => stop(server, peers) });
		});
	});
}

/** libuv removes the socket's file as it closes the server: nothing of the channel is left in the dir. */
function stop(server: Server, peers: Set<Socket>): void {
	server.close();
	for (const socket of peers) socket.destroy();
}

function serve(socket: Socket, id: number, version: string, handlers: ChannelHandlers, forget: () => void): void {
	const frames = new LineFrames();
	const send = (message: unknown) => {
		if (!socket.destroyed && socket.writable) socket.write(frameText(message));
	};
	const asked = new AskedOfPeer(send);
	const peer: ChannelPeer = {
		id,
		notify: (method, params) => send(notificationMessage(method, params)),
		request: (method, params, timeoutMs) => asked.request(method, params, timeoutMs),
	};
	let gone = false;
	const end = () => {
		if (gone) return;
		gone = true;
		forget();
		asked.endAll(PEER_ENDED);
		try {
			handlers.peerGone(peer);
		} catch {
			// What this peer showed is closed on a best-effort basis; the extension host carries on.
		}
	};
	socket.on("error", () => socket.destroy());
	socket.on("close", end);
	socket.on("data", (chunk: Buffer) => {
		const out = frames.push(chunk);
		for (let bad = 0; bad < out.undecodable; bad++)
			send(errorMessage(null, RPC_ERROR.parse, "a line that is no UTF-8"));
		for (const frame of out.frames) answer(frame, { send, peer, version, handlers, asked });
		if (out.overflow) {
			send(errorMessage(null, RPC_ERROR.invalidRequest, "a message over the 16 MiB limit: closing"));
			socket.end();
			socket.destroy();
		}
	});
}

interface Answering {
	send: (message: unknown) => void;
	peer: ChannelPeer;
	version: string;
	handlers: ChannelHandlers;
	asked: AskedOfPeer;
}

/** pi's line answered: at once, or (a tool call) once its handler settles; a notification handed on, unanswered. */
function answer(frame: string, { send, peer, version, handlers, asked }: Answering): void {
	const message = readIncoming(frame);
	if (message.kind === "ignored") return;
	if (message.kind === "notification") {
		try {
			handlers.notified?.(peer, message.method, message.params);
		} catch {
			// A handler's failure is the extension's, never pi's to hear about.
		}
		return;
	}
	if (message.kind === "answer") {
		asked.settle(message.id, message.answer);
		return;
	}
	if (message.kind === "invalid") {
		send(errorMessage(message.id, message.code, message.message));
		return;
	}
	const { id, method, params } = message;
	const outcome =
		method === "tools/call"
			? toolOutcome(peer, params, handlers)
			: Promise.resolve(
					method === OFFER_METHOD ? offeredOutcome(peer, params, handlers) : answerNow(method, params, version),
				);
	void outcome.then((done) =>
		send("result" in done ? resultMessage(id, done.result) : errorMessage(id, done.code, done.message)),
	);
}

function offeredOutcome(peer: ChannelPeer, params: unknown, handlers: ChannelHandlers): CallOutcome {
	if (!handlers.offered) return { code: RPC_ERROR.methodNotFound, message: `no method ${OFFER_METHOD}` };
	try {
		return handlers.offered(peer, params);
	} catch (error) {
		return { code: RPC_ERROR.internal, message: String(error) };
	}
}

function answerNow(method: string, params: unknown, version: string): CallOutcome {
	switch (method) {
		case "initialize":
			return { result: initializeResult(params, version) };
		case "ping":
			return { result: {} };
		case "tools/list":
			return { result: { tools: TOOLS } };
		default:
			return { code: RPC_ERROR.methodNotFound, message: `no method ${method.slice(0, 100)}` };
	}
}

/** Never rejects: a handler that throws or rejects is an internal error for pi, not for the extension host. */
function toolOutcome(peer: ChannelPeer, params: unknown, handlers: ChannelHandlers): Promise<CallOutcome> {
	const call = toolCallOf(params);
	if (call.tool === "invalid") return Promise.resolve({ code: call.code, message: call.message });
	try {
		return handlers
			.callTool(peer, call)
			.catch((error: unknown) => ({ code: RPC_ERROR.internal, message: String(error) }));
	} catch (error) {
		return Promise.resolve({ code: RPC_ERROR.internal, message: String(error) });
	}
}
