import { isFields } from "../../shared/core/fields.ts";
/** The MCP handshake and tool answers, as pi speaks them with an IDE server and the VS Code client's socket. */

/** The MCP version pi asks for; every known server answers it or negotiates (§2). */
export const MCP_PROTOCOL_VERSION = "2024-11-05";

/** How pi names itself in `initialize`: a server's logs show who connected. */
export const MCP_CLIENT_INFO = { name: "pi-ide-context", version: "0.4.0" } as const;

/** `initialize`'s params: the version pi speaks, no capabilities (pi serves nothing back). */
export const initializeParams = () => ({
	protocolVersion: MCP_PROTOCOL_VERSION,
	capabilities: {},
	clientInfo: MCP_CLIENT_INFO,
});

/** What `initialize` says of the server: its name and version, shown in `/ide status`. */
export function serverInfoOf(result: unknown): { name: string; version: string } | undefined {
	if (!isFields(result) || typeof result.protocolVersion !== "string") return undefined;
	const info = isFields(result.serverInfo) ? result.serverInfo : {};
	const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 100) : "");
	return { name: text(info.name) || "unnamed", version: text(info.version) || "unknown" };
}

/** `tools/list`'s names; undefined when the answer is no list. */
export function toolNamesOf(result: unknown): string[] | undefined {
	if (!isFields(result) || !Array.isArray(result.tools)) return undefined;
	return result.tools
		.slice(0, 200)
		.flatMap((tool) => (isFields(tool) && typeof tool.name === "string" ? [tool.name.slice(0, 100)] : []));
}

/**
 * A tool's answer: MCP `{content:[{type:"text", text}]}` with structured data JSON-stringified in `text` (§3).
 * The parsed JSON, or the text itself when it is not JSON ("Document not open: …"); undefined for no text.
 */
export function toolAnswerOf(result: unknown): { json: unknown } | { text: string } | undefined {
	if (!isFields(result) || !Array.isArray(result.content)) return undefined;
	const first = result.content[0];
	if (!isFields(first) || typeof first.text !== "string") return undefined;
	try {
		return { json: JSON.parse(first.text) };
	} catch {
		return { text: first.text.slice(0, 300) };
	}
}
