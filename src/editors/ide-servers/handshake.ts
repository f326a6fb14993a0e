import type { Clock } from "../../shared/core/clock.ts";
import { IDE_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { AskedAnswer } from "../core/json-rpc.ts";
import { initializeParams, serverInfoOf, toolNamesOf } from "../core/mcp.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";
import { authHeaders } from "./core/lock-dirs.ts";
import type { ReadLock } from "./lockfiles.ts";
import { FRAME_TOO_BIG, type McpAnswer, McpSocket, PI_CLOSED } from "./mcp-socket.ts";

/** Where and how to connect: from a lockfile that passed every check. */
export interface SessionTarget {
	port: number;
	headers: Record<string, string>;
	/** The user whose listener alone may take pi's connection (and its token). */
	uid: number;
	serverUidOf: (serverPort: number, clientPort: number) => Promise<number | undefined>;
}

/** A lockfile's server as a connection's target: its port, the headers its kind wants, the uid to check. */
export function sessionTarget(
	lock: Pick<ReadLock, "port" | "plan" | "lockfile">,
	uid: number,
	facts: Pick<ProcessFacts, "connectionServerUid">,
): SessionTarget {
	return {
		port: lock.port,
		headers: authHeaders(lock.plan.kind, lock.lockfile?.authToken),
		uid,
		serverUidOf: (serverPort, clientPort) => facts.connectionServerUid(serverPort, clientPort),
	};
}

/** What a connection does with what the server sends, and how pi's own requests are sent (and recorded). */
export interface HandshakeHooks {
	clock: Clock;
	onNotification: (method: string, params: unknown) => void;
	onRequest?: (id: string | number, method: string, params: unknown) => Promise<AskedAnswer>;
	ask: (socket: McpSocket, method: string, params: unknown) => Promise<McpAnswer>;
	/** pi moved on while it connected: nothing more is said to the server. */
	closing: () => boolean;
}

export type Handshake =
	| { ok: true; socket: McpSocket; info: { name: string; version: string }; tools: readonly string[] }
	| { ok: false; reason: string; socket?: McpSocket };

export const PI_MOVED_ON = "pi closed the connection while it opened";

/**
 * Connects and shakes hands as MCP asks (`initialize` 2024-11-05, `notifications/initialized`, `tools/list`,
 * then `ide_connected`): a server that does not echo the `mcp` subprotocol (Anthropic's VS Code extension
 * ignores it) is tried once more without it.
 */
export async function connectAndShakeHands(target: SessionTarget, hooks: HandshakeHooks): Promise<Handshake> {
	const options = (subprotocol: boolean) => ({
		...target,
		subprotocol,
		timeoutMs: IDE_REQUEST_TIMEOUT_MS,
		clock: hooks.clock,
		onNotification: hooks.onNotification,
		...(hooks.onRequest && { onRequest: hooks.onRequest }),
	});
	let opened = await McpSocket.open(options(true));
	if (!opened.ok && opened.noSubprotocol) {
		const first = opened.reason;
		opened = await McpSocket.open(options(false));
		if (!opened.ok) return { ok: false, reason: `${first}; without it: ${opened.reason}` };
	}
	if (!opened.ok) return { ok: false, reason: opened.reason };
	const socket = opened.socket;
	const failed = (reason: string): Handshake => ({ ok: false, reason, socket });
	if (hooks.closing()) return failed(PI_MOVED_ON);
	const initialized = await hooks.ask(socket, "initialize", initializeParams());
	const info = initialized.ok ? serverInfoOf(initialized.result) : undefined;
	if (!info) return failed(initialized.ok ? "the server's initialize answer is not MCP" : failure(initialized, socket));
	if (hooks.closing()) return failed(PI_MOVED_ON);
	socket.notify("notifications/initialized");
	const listed = await hooks.ask(socket, "tools/list", {});
	const tools = listed.ok ? toolNamesOf(listed.result) : undefined;
	if (!tools) return failed(listed.ok ? "the server's tools/list answer is no list" : failure(listed, socket));
	if (hooks.closing()) return failed(PI_MOVED_ON);
	socket.notify("ide_connected", { pid: process.pid });
	return { ok: true, socket, info, tools };
}

export function closeText(socket: McpSocket): string {
	const closed = socket.closed;
	return closed ? `code ${closed.code}${closed.reason ? ` ${closed.reason}` : ""}` : "open";
}

/** Why a handshake request failed: the close that ended it when the socket closed (1008: a refused token, §2). */
function failure(answer: { reason: string }, socket: McpSocket): string {
	const closed = socket.closed;
	if (!closed || closed.reason === PI_CLOSED) return answer.reason;
	if (closed.code === FRAME_TOO_BIG.code) return `pi closed the connection: ${closed.reason}`;
	return `the server closed the connection: ${closeText(socket)}${closed.code === 1008 ? " (the token was refused)" : ""}`;
}
