import { describe, expect, test } from "vitest";
import {
	methodNotFoundText,
	notificationText,
	readServerMessage,
	requestText,
	resultText,
	type ServerMessage,
} from "../../../src/editors/core/json-rpc.ts";

const frame = (message: object) => JSON.stringify({ jsonrpc: "2.0", ...message });

describe("readServerMessage: one text frame as JSON-RPC 2.0", () => {
	test.each<[string, string, ServerMessage]>([
		["a result", frame({ id: 3, result: { tools: [] } }), { kind: "result", id: 3, result: { tools: [] } }],
		["a null result is a result", frame({ id: 4, result: null }), { kind: "result", id: 4, result: null }],
		[
			"an error",
			frame({ id: 5, error: { code: -32001, message: "Document not open" } }),
			{ kind: "error", id: 5, message: "Document not open" },
		],
		[
			"an error without a message",
			frame({ id: 5, error: { code: -32603 } }),
			{ kind: "error", id: 5, message: "an error without a message" },
		],
		[
			"a long error message is cut at 300",
			frame({ id: 5, error: { message: "e".repeat(500) } }),
			{ kind: "error", id: 5, message: "e".repeat(300) },
		],
		[
			"a request with a string id (JetBrains' ping)",
			frame({ id: "a1b2", method: "ping" }),
			{ kind: "request", id: "a1b2", method: "ping", params: undefined },
		],
		[
			"a request with a number id",
			frame({ id: 0, method: "getSuggestions", params: { q: 1 } }),
			{ kind: "request", id: 0, method: "getSuggestions", params: { q: 1 } },
		],
		[
			"a notification",
			frame({ method: "selection_changed", params: { text: "" } }),
			{ kind: "notification", method: "selection_changed", params: { text: "" } },
		],
		[
			"a notification without params",
			frame({ method: "notifications/tools/list_changed" }),
			{ kind: "notification", method: "notifications/tools/list_changed", params: undefined },
		],
		["not JSON", "{not json", { kind: "nonsense", reason: "a message that is not JSON" }],
		["empty", "", { kind: "nonsense", reason: "a message that is not JSON" }],
		[
			"not 2.0",
			JSON.stringify({ jsonrpc: "1.0", id: 1, result: 1 }),
			{ kind: "nonsense", reason: "a message that is not JSON-RPC 2.0" },
		],
		[
			"no jsonrpc field",
			JSON.stringify({ id: 1, result: 1 }),
			{ kind: "nonsense", reason: "a message that is not JSON-RPC 2.0" },
		],
		[
			"a batch (array)",
			JSON.stringify([{ jsonrpc: "2.0", id: 1, result: 1 }]),
			{ kind: "nonsense", reason: "a message that is not JSON-RPC 2.0" },
		],
		["a JSON string", JSON.stringify("2.0"), { kind: "nonsense", reason: "a message that is not JSON-RPC 2.0" }],
		["null", "null", { kind: "nonsense", reason: "a message that is not JSON-RPC 2.0" }],
		[
			"a result with a string id: pi sends number ids only",
			frame({ id: "3", result: {} }),
			{ kind: "nonsense", reason: "a JSON-RPC message pi cannot place" },
		],
		["a result without id", frame({ result: {} }), { kind: "nonsense", reason: "a JSON-RPC message pi cannot place" }],
		[
			"an error that is a string",
			frame({ id: 2, error: "bad" }),
			{ kind: "nonsense", reason: "a JSON-RPC message pi cannot place" },
		],
		[
			"a method over 200 characters",
			frame({ method: "m".repeat(201) }),
			{ kind: "nonsense", reason: "a JSON-RPC message pi cannot place" },
		],
		[
			"a method that is a number",
			frame({ method: 7 }),
			{ kind: "nonsense", reason: "a JSON-RPC message pi cannot place" },
		],
		[
			"a request with a null id",
			frame({ id: null, method: "ping" }),
			{ kind: "nonsense", reason: "a JSON-RPC message pi cannot place" },
		],
		["neither result nor error", frame({ id: 9 }), { kind: "nonsense", reason: "a JSON-RPC message pi cannot place" }],
	])("%s", (_name, text, message) => {
		expect(readServerMessage(text)).toEqual(message);
	});
});

describe("what pi sends", () => {
	test.each<[string, string, unknown]>([
		["a request", requestText(1, "tools/list", {}), { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }],
		[
			"a notification without params",
			notificationText("notifications/initialized"),
			{ jsonrpc: "2.0", method: "notifications/initialized" },
		],
		[
			"a notification with params",
			notificationText("ide_connected", { pid: 7 }),
			{ jsonrpc: "2.0", method: "ide_connected", params: { pid: 7 } },
		],
		["ping's answer", resultText("a1", {}), { jsonrpc: "2.0", id: "a1", result: {} }],
		[
			"a method pi does not serve",
			methodNotFoundText(4, "getSuggestions"),
			{ jsonrpc: "2.0", id: 4, error: { code: -32601, message: "pi does not serve getSuggestions" } },
		],
	])("%s", (_name, text, json) => {
		expect(JSON.parse(text)).toEqual(json);
	});
});
