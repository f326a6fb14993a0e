import { isFields } from "../../shared/core/fields.ts";
/**
 * JSON-RPC 2.0 as pi speaks it with an editor's server (an IDE server's WebSocket, the VS Code client's socket):
 * one message per frame, read into what pi does with it.
 */

/**
 * The JSON-RPC error codes pi answers an editor's request with, as the seed pi-ide replies them (the peer
 * protocol's "Editor-initiated requests"): an editor tells a cancel from a failure by the code alone.
 */

/** The editor's `request_cancelled` arrived first (LSP's RequestCancelled): the editor drops it quietly. */
export const REQUEST_CANCELLED = -32800;

/** Any method pi does not serve. */
export const METHOD_NOT_FOUND = -32601;

/** The params are not a `getSuggestions` request (a wrong type, an over-long path or model). */
export const INVALID_PARAMS = -32602;

/** pi failed on its side (the model call, no model): the editor shows nothing and may ask again. */
export const INTERNAL_ERROR = -32603;

/** The notification an editor withdraws one of its own requests with (`{id}`), as the seed's editors send it. */
export const REQUEST_CANCELLED_NOTIFICATION = "request_cancelled";

/** The id a `request_cancelled`'s params name; undefined when they name none. */
export function cancelledIdOf(params: unknown): string | number | undefined {
	const id = isFields(params) ? params.id : undefined;
	return typeof id === "number" || typeof id === "string" ? id : undefined;
}

/** One message a server sent, sorted by what pi does with it. */
export type ServerMessage =
	| { kind: "result"; id: number; result: unknown }
	| { kind: "error"; id: number; message: string }
	| { kind: "request"; id: string | number; method: string; params: unknown }
	| { kind: "notification"; method: string; params: unknown }
	| { kind: "nonsense"; reason: string };

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
	/** The server's own request beyond `ping` (an editor asking for suggestions); none: "method not found". */
	asked?: (id: string | number, method: string, params: unknown) => Promise<AskedAnswer>;
}

/** pi's answer to a server's request: a result or a JSON-RPC error. */
export type AskedAnswer = { result: unknown } | { error: { code: number; message: string } };

/**
 * One message from the server (`who` names it in an error): an answer settles pi's request, the server's own
 * request is answered (`ping` with `{}`, one `asked` serves with its answer, anything else "method not found"),
 * a notification is handed on.
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
		case "request": {
			const { id, method, params } = message;
			if (method === "ping") handlers.reply(resultText(id, {}));
			else if (!handlers.asked) handlers.reply(methodNotFoundText(id, method));
			else
				void handlers.asked(id, method, params).then(
					(answer) => handlers.reply("result" in answer ? resultText(id, answer.result) : errorText(id, answer.error)),
					(error: unknown) =>
						handlers.reply(
							errorText(id, { code: INTERNAL_ERROR, message: `pi failed: ${String(error).slice(0, 200)}` }),
						),
				);
			return;
		}
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
export const errorText = (id: string | number, error: { code: number; message: string }) =>
	JSON.stringify({ jsonrpc: "2.0", id, error: { code: error.code, message: error.message.slice(0, 500) } });
export const methodNotFoundText = (id: string | number, method: string) =>
	errorText(id, { code: METHOD_NOT_FOUND, message: `pi does not serve ${method.slice(0, 100)}` });
