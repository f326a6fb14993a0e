import { isFields } from "../../../../src/shared/core/fields.ts";

/**
 * What the client's socket speaks: JSON-RPC 2.0, one message a line, in the IDE servers' MCP shapes (`initialize`,
 * `tools/list`, `tools/call` of `openDiff` and `close_tab`, results as `{content:[{type:"text",text}]}`), so
 * pi's review asks this client as it asks an IDE server. Anything else is answered with a JSON-RPC error.
 */

export const SERVER_NAME = "pi-ide-context-vscode";
const PROTOCOL_VERSION = "2024-11-05";

/** JSON-RPC's own error codes. */
export const RPC_ERROR = {
	parse: -32700,
	invalidRequest: -32600,
	methodNotFound: -32601,
	invalidParams: -32602,
	internal: -32603,
} as const;

type Id = string | number;

/**
 * One line from pi: a request to answer, an answer to a request of the client's own (inline completions, asks),
 * a notification (an ask's news), a message to ignore (an answer with no id of the client's), or an error to send.
 */
export type IncomingMessage =
	| { kind: "request"; id: Id; method: string; params: unknown }
	| { kind: "answer"; id: number; answer: PeerAnswer }
	| { kind: "notification"; method: string; params: unknown }
	| { kind: "ignored" }
	| { kind: "invalid"; id: Id | null; code: number; message: string };

export function readIncoming(line: string): IncomingMessage {
	let raw: unknown;
	try {
		raw = JSON.parse(line);
	} catch {
		return { kind: "invalid", id: null, code: RPC_ERROR.parse, message: "not JSON" };
	}
	if (!isFields(raw)) return { kind: "invalid", id: null, code: RPC_ERROR.invalidRequest, message: "not an object" };
	const id = typeof raw.id === "string" || typeof raw.id === "number" ? raw.id : null;
	if (raw.jsonrpc !== "2.0")
		return { kind: "invalid", id, code: RPC_ERROR.invalidRequest, message: 'jsonrpc is not "2.0"' };
	if (typeof raw.method !== "string") {
		if (typeof raw.id === "number" && "result" in raw)
			return { kind: "answer", id: raw.id, answer: { ok: true, result: raw.result } };
		if (typeof raw.id === "number" && isFields(raw.error)) {
			const message = typeof raw.error.message === "string" ? raw.error.message.slice(0, 300) : "an error";
			const code = typeof raw.error.code === "number" ? raw.error.code : RPC_ERROR.internal;
			return {
				kind: "answer",
				id: raw.id,
				answer: { ok: false, code, reason: `pi answered with an error: ${message}` },
			};
		}
		// An answer to nothing this client asked: nothing to say back.
		if ("result" in raw || "error" in raw) return { kind: "ignored" };
		return { kind: "invalid", id, code: RPC_ERROR.invalidRequest, message: "no method" };
	}
	if (raw.id === undefined) return { kind: "notification", method: raw.method, params: raw.params };
	if (id === null)
		return { kind: "invalid", id, code: RPC_ERROR.invalidRequest, message: "an id that is no string or number" };
	return { kind: "request", id, method: raw.method, params: raw.params };
}

/** pi's answer to a request of the client's: its result, or why there is none (pi's error, a timeout, pi gone). */
export type PeerAnswer = { ok: true; result: unknown } | { ok: false; code?: number; reason: string };

export const requestMessage = (id: number, method: string, params: unknown) => ({ jsonrpc: "2.0", id, method, params });
export const resultMessage = (id: Id, result: unknown) => ({ jsonrpc: "2.0", id, result });
export const errorMessage = (id: Id | null, code: number, message: string) => ({
	jsonrpc: "2.0",
	id,
	error: { code, message: message.slice(0, 300) },
});
export const notificationMessage = (method: string, params: unknown) => ({ jsonrpc: "2.0", method, params });

/** MCP's tool result: each string one text item. */
export const textResult = (...texts: string[]) => ({ content: texts.map((text) => ({ type: "text", text })) });

export function initializeResult(params: unknown, version: string) {
	const asked = isFields(params) && typeof params.protocolVersion === "string" ? params.protocolVersion : undefined;
	return {
		protocolVersion: asked && asked.length <= 40 ? asked : PROTOCOL_VERSION,
		capabilities: { tools: {} },
		serverInfo: { name: SERVER_NAME, version },
	};
}

const text = { type: "string" } as const;
export const TOOLS = [
	{
		name: "openDiff",
		description:
			"Shows the file beside pi's proposal in a diff editor; answers once the user accepts (FILE_SAVED and the proposal's text) or rejects (DIFF_REJECTED and the tab name).",
		inputSchema: {
			type: "object",
			properties: {
				old_file_path: text,
				new_file_path: text,
				new_file_contents: text,
				tab_name: text,
				// pi's own: the left side's text (the file on disk as pi read it, or what an earlier accepted change of
				// the same message leaves), never the editor's possibly unsaved document.
				old_file_contents: text,
			},
			required: ["old_file_path", "new_file_path", "new_file_contents", "tab_name"],
		},
	},
	{
		name: "close_tab",
		description: "Closes the diff of that tab name; a diff still undecided answers DIFF_REJECTED.",
		inputSchema: { type: "object", properties: { tab_name: text }, required: ["tab_name"] },
	},
];

export interface OpenDiffArgs {
	oldFilePath: string;
	newFilePath: string;
	contents: string;
	tabName: string;
	/** What the left side shows; absent: the file on disk (an IDE server's client sends no such text). */
	oldContents?: string;
}

/** A `tools/call`'s params, checked: which tool with which arguments, or why it cannot be called. */
export type ToolCall =
	| { tool: "openDiff"; args: OpenDiffArgs }
	| { tool: "close_tab"; tabName: string }
	| { tool: "invalid"; code: number; message: string };

const MAX_PATH_CHARS = 4096;
const MAX_TAB_NAME_CHARS = 500;

export function toolCallOf(params: unknown): ToolCall {
	if (!isFields(params) || typeof params.name !== "string")
		return { tool: "invalid", code: RPC_ERROR.invalidParams, message: "tools/call needs a tool name" };
	const args = isFields(params.arguments) ? params.arguments : {};
	const tabName = validText(args.tab_name, MAX_TAB_NAME_CHARS);
	if (params.name === "close_tab") {
		return tabName === undefined ? missing("close_tab", "tab_name") : { tool: "close_tab", tabName };
	}
	if (params.name !== "openDiff")
		return { tool: "invalid", code: RPC_ERROR.invalidParams, message: `no tool ${params.name.slice(0, 100)}` };
	const oldFilePath = absolutePath(args.old_file_path);
	const newFilePath = absolutePath(args.new_file_path);
	if (oldFilePath === undefined) return missing("openDiff", "old_file_path (an absolute path)");
	if (newFilePath === undefined) return missing("openDiff", "new_file_path (an absolute path)");
	if (typeof args.new_file_contents !== "string") return missing("openDiff", "new_file_contents");
	if (tabName === undefined) return missing("openDiff", "tab_name");
	const oldContents = typeof args.old_file_contents === "string" ? { oldContents: args.old_file_contents } : {};
	return {
		tool: "openDiff",
		args: { oldFilePath, newFilePath, contents: args.new_file_contents, tabName, ...oldContents },
	};
}

const missing = (tool: string, what: string): ToolCall => ({
	tool: "invalid",
	code: RPC_ERROR.invalidParams,
	message: `${tool} needs ${what}`,
});

function validText(value: unknown, max: number): string | undefined {
	return typeof value === "string" && value.length > 0 && value.length <= max ? value : undefined;
}

function absolutePath(value: unknown): string | undefined {
	const path = validText(value, MAX_PATH_CHARS);
	// A NUL would end the path early in every system call made with it.
	return path?.startsWith("/") && !path.includes("\0") ? path : undefined;
}
