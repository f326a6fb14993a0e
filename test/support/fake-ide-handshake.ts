import { type IncomingHttpHeaders, type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FlavourCapabilities } from "./ide-server-flavours.ts";

/**
 * How a fake IDE server lets a client in (reference §2): the HTTP upgrade's path, subprotocol and token as each
 * flavour judges them, then the MCP `initialize` and `tools/list` answers.
 */

export interface UpgradeSeen {
	/** Lower-case, as node gives them. */
	headers: Record<string, string | string[] | undefined>;
	protocols: string[];
	/** Whether the WebSocket upgrade was completed (a socket closed for its token right after counts as accepted). */
	accepted: boolean;
	reason?: string;
}

export interface HandshakeRules {
	capabilities: FlavourCapabilities;
	/** The token checked now; undefined: none to check. */
	token: string | undefined;
	/** Accept without requiring or echoing a subprotocol, whatever the flavour. */
	refuseSubprotocol: boolean;
}

/** Refusals before the upgrade: JetBrains' path and subprotocol (§2 [JBDOC]), nvim's token (§2 handshake.lua). */
export function judgeUpgrade(rules: HandshakeRules, request: IncomingMessage): UpgradeSeen {
	const headers = { ...request.headers };
	const offered = request.headers["sec-websocket-protocol"];
	const protocols = offered ? offered.split(",").map((protocol) => protocol.trim()) : [];
	const refuse = (reason: string) => ({ headers, protocols, accepted: false, reason });
	if (rules.capabilities.subprotocol === "required" && !rules.refuseSubprotocol) {
		if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/") return refuse("404 Not Found");
		if (!protocols.includes("mcp")) return refuse("400 no mcp subprotocol offered");
	}
	if (rules.capabilities.token === "checked-http-400" && !isAuthorised(rules, request.headers))
		return refuse("400 Bad WebSocket upgrade request: invalid or missing authentication token");
	return { headers, protocols, accepted: true };
}

/** `ws`'s handleProtocols: the one subprotocol echoed, or none. */
export function pickProtocol(rules: HandshakeRules, offered: Set<string>): string | false {
	if (rules.refuseSubprotocol || rules.capabilities.subprotocol === "ignored") return false;
	return offered.has("mcp") ? "mcp" : false;
}

/** The token in any header the flavour reads it from; a flavour that never checks, or has no token, lets all in. */
export function isAuthorised(rules: HandshakeRules, headers: IncomingHttpHeaders): boolean {
	if (rules.token === undefined || rules.capabilities.token === "none") return true;
	return rules.capabilities.authHeader.some((name) => headers[name] === rules.token);
}

/** An HTTP refusal in place of the upgrade, status first in `reason` ("400 …", "404 …"). */
export function refuseUpgrade(socket: Duplex, reason: string): void {
	const status = Number(reason.slice(0, 3));
	const body = `${reason.slice(4)}\n`;
	socket.end(
		`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
			`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
	);
}

/** What the MCP SDK's server knows, newest first: a client's version among them is echoed, else the newest. */
const SDK_PROTOCOL_VERSIONS = ["2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

export function initializeResult(capabilities: FlavourCapabilities, asked: unknown): object {
	const known = typeof asked === "string" && SDK_PROTOCOL_VERSIONS.includes(asked);
	const negotiated = known ? asked : SDK_PROTOCOL_VERSIONS[0];
	return {
		protocolVersion: capabilities.protocolVersion === "negotiated" ? negotiated : capabilities.protocolVersion,
		capabilities: { tools: { listChanged: true } },
		serverInfo: { name: capabilities.serverName, version: "0.0.0-fake" },
	};
}

export function toolsListResult(capabilities: FlavourCapabilities): object {
	return {
		tools: capabilities.tools.map((name) => ({ name, description: `${name} (fake)`, inputSchema: { type: "object" } })),
	};
}
