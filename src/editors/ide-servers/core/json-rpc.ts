import { sanitizeForDisplay } from "../../../shared/core/display-text.ts";

/** The MCP version pi asks for; every known server answers it or negotiates (§2). */
export const MCP_PROTOCOL_VERSION = "2024-11-05";

/** How pi names itself in `initialize`: a server's logs show who connected. */
export const MCP_CLIENT_INFO = { name: "pi-ide-context", version: "0.4.0" } as const;

/** One message a server sent, sorted by what pi does with it. */
export type ServerMessage =
	| { kind: "result"; id: number; result: unknown }
	| { kind: "error"; id: number; message: string }
	| { kind: "request"; id: string | number; method: string; params: unknown }
	| { kind: "notification"; method: string; params: unknown }
	| { kind: "nonsense"; reason: string };

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** A text frame, read as JSON-RPC 2.0 (one message per frame): what it is, or why it is none. */
export function readServerMessage(text: string): ServerMessage {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return { kind: "nonsense", reason: "a message that is not JSON" };
	}
	if (!isFields(raw) || raw.jsonrpc !== "2.0")
		return { kind: "nonsense", reason: "a message that is not JSON-RPC 2.0" };
	const { id, method } = raw;
	if (typeof method === "string" && method.length <= 200) {
		if (typeof id === "string" || typeof id === "number") return { kind: "request", id, method, params: raw.params };
		if (id === undefined) return { kind: "notification", method, params: raw.params };
	}
	if (typeof id === "number") {
		if ("result" in raw) return { kind: "result", id, result: raw.result };
		if (isFields(raw.error)) {
			const message = typeof raw.error.message === "string" ? raw.error.message : "an error without a message";
			return { kind: "error", id, message: message.slice(0, 300) };
		}
	}
	return { kind: "nonsense", reason: "a JSON-RPC message pi cannot place" };
}

/** What a client does with each message the server sends: the parts that differ between its transports. */
export interface ServerMessageHandlers {
	answered: (id: number, answer: { ok: true; result: unknown } | { ok: false; reason: string }) => void;
	reply: (text: string) => void;
	notified: (method: string, params: unknown) => void;
	nonsense: (reason: string) => void;
}

/**
 * One message from the server (`who` names it in an error): an answer settles pi's request, the server's own
 * request is answered (`ping` with `{}`, anything else "method not found"), a notification is handed on.
 */
export function handleServerMessage(text: string, who: string, handlers: ServerMessageHandlers): void {
	const message = readServerMessage(text);
	switch (message.kind) {
		case "result":
			handlers.answered(message.id, { ok: true, result: message.result });
			return;
		case "error":
			handlers.answered(message.id, { ok: false, reason: `${who} answered with an error: ${message.message}` });
			return;
		case "request":
			handlers.reply(
				message.method === "ping" ? resultText(message.id, {}) : methodNotFoundText(message.id, message.method),
			);
			return;
		case "notification":
			handlers.notified(message.method, message.params);
			return;
		case "nonsense":
			handlers.nonsense(message.reason);
	}
}

export const requestText = (id: number, method: string, params: unknown) =>
	JSON.stringify({ jsonrpc: "2.0", id, method, params });
export const notificationText = (method: string, params?: unknown) =>
	JSON.stringify({ jsonrpc: "2.0", method, ...(params !== undefined && { params }) });
/** The answer to a server's request: `{}` for `ping` (JetBrains waits for it, also during an `openDiff`). */
export const resultText = (id: string | number, result: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result });
export const methodNotFoundText = (id: string | number, method: string) =>
	JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: `pi does not serve ${method.slice(0, 100)}` } });

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

/** `checkDocumentDirty`'s answer: whether that document has unsaved changes; false for a document not open. */
export function dirtyOf(answer: ReturnType<typeof toolAnswerOf>): boolean | undefined {
	if (!answer) return undefined;
	if ("text" in answer) return answer.text.startsWith("Document not open") ? false : undefined;
	return isFields(answer.json) && typeof answer.json.isDirty === "boolean" ? answer.json.isDirty : undefined;
}

/** `at_mentioned`'s params (0-based lines; 1-based from claude-code-ide.el): the file and 1-based lines, if any. */
export function mentionOf(
	params: unknown,
	oneBased: boolean,
): { file: string; lines?: { start: number; end: number } } | undefined {
	if (!isFields(params) || typeof params.filePath !== "string" || !params.filePath.startsWith("/")) return undefined;
	// It goes into pi's input as a paste: a control character (an ESC that ends the paste early) or a bidi control
	// makes it no path to send.
	if (params.filePath.length > 4096 || sanitizeForDisplay(params.filePath) !== params.filePath) return undefined;
	const line = (value: unknown) =>
		typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 2_147_483_647
			? value + (oneBased ? 0 : 1)
			: undefined;
	const start = line(params.lineStart);
	const end = line(params.lineEnd);
	if (start === undefined) return { file: params.filePath };
	return { file: params.filePath, lines: { start: Math.max(1, start), end: Math.max(1, end ?? start, start) } };
}
