import { describe, expect, test } from "vitest";
import {
	errorMessage,
	initializeResult,
	readIncoming,
	TOOLS,
	textResult,
	toolCallOf,
} from "../../../../clients/vscode/src/core/channel-rpc.ts";
import { serverInfoOf, toolAnswerOf, toolNamesOf } from "../../../../src/editors/core/mcp.ts";

describe("the client reads pi's lines", () => {
	test.each([
		["a request", '{"jsonrpc":"2.0","id":1,"method":"ping"}', { kind: "request", id: 1, method: "ping" }],
		[
			"a string id",
			'{"jsonrpc":"2.0","id":"a","method":"x","params":[1]}',
			{ kind: "request", id: "a", method: "x", params: [1] },
		],
		[
			"a notification",
			'{"jsonrpc":"2.0","method":"notifications/initialized"}',
			{ kind: "notification", method: "notifications/initialized", params: undefined },
		],
		[
			"an ask's news",
			'{"jsonrpc":"2.0","method":"pi/askNews","params":{"kind":"status","text":"pi: done","level":"info"}}',
			{ kind: "notification", method: "pi/askNews", params: { kind: "status", text: "pi: done", level: "info" } },
		],
		[
			"an answer (to a request of the client's, by its number)",
			'{"jsonrpc":"2.0","id":4,"result":{"suggestions":[]}}',
			{ kind: "answer", id: 4, answer: { ok: true, result: { suggestions: [] } } },
		],
		[
			"an error answer",
			'{"jsonrpc":"2.0","id":5,"error":{"code":-32800,"message":"request cancelled"}}',
			{
				kind: "answer",
				id: 5,
				answer: { ok: false, code: -32800, reason: "pi answered with an error: request cancelled" },
			},
		],
		[
			"an answer with an id the client never uses (a string)",
			'{"jsonrpc":"2.0","id":"4","result":{}}',
			{ kind: "ignored" },
		],
		["an error that is no object", '{"jsonrpc":"2.0","id":6,"error":"no"}', { kind: "ignored" }],
		["not JSON", "{nope", { kind: "invalid", id: null, code: -32700, message: "not JSON" }],
		["an array (a batch)", "[]", { kind: "invalid", id: null, code: -32600, message: "not an object" }],
		[
			"no jsonrpc",
			'{"id":3,"method":"ping"}',
			{ kind: "invalid", id: 3, code: -32600, message: 'jsonrpc is not "2.0"' },
		],
		["no method", '{"jsonrpc":"2.0","id":5}', { kind: "invalid", id: 5, code: -32600, message: "no method" }],
		[
			"an id of another type",
			'{"jsonrpc":"2.0","id":{},"method":"ping"}',
			{ kind: "invalid", id: null, code: -32600, message: "an id that is no string or number" },
		],
	])("%s", (_name, line, message) => {
		expect(readIncoming(line)).toEqual(message);
	});
});

describe("tools/call's params, checked", () => {
	const args = { old_file_path: "/p/a.ts", new_file_path: "/p/a.ts", new_file_contents: "x\n", tab_name: "t" };
	test.each([
		[
			"openDiff",
			{ name: "openDiff", arguments: args },
			{ tool: "openDiff", args: { oldFilePath: "/p/a.ts", newFilePath: "/p/a.ts", contents: "x\n", tabName: "t" } },
		],
		[
			"empty contents are a proposal too",
			{ name: "openDiff", arguments: { ...args, new_file_contents: "" } },
			"openDiff",
		],
		["close_tab", { name: "close_tab", arguments: { tab_name: "t" } }, { tool: "close_tab", tabName: "t" }],
		["no name", { arguments: args }, "tools/call needs a tool name"],
		["another tool", { name: "closeAllDiffTabs", arguments: {} }, "no tool closeAllDiffTabs"],
		[
			"a relative path",
			{ name: "openDiff", arguments: { ...args, old_file_path: "a.ts" } },
			"openDiff needs old_file_path (an absolute path)",
		],
		[
			"a NUL in the path",
			{ name: "openDiff", arguments: { ...args, new_file_path: "/p/a\0b" } },
			"openDiff needs new_file_path (an absolute path)",
		],
		[
			"contents not a string",
			{ name: "openDiff", arguments: { ...args, new_file_contents: 3 } },
			"openDiff needs new_file_contents",
		],
		["no tab name", { name: "openDiff", arguments: { ...args, tab_name: "" } }, "openDiff needs tab_name"],
		[
			"a tab name of 501 characters",
			{ name: "close_tab", arguments: { tab_name: "x".repeat(501) } },
			"close_tab needs tab_name",
		],
		["no arguments", { name: "close_tab" }, "close_tab needs tab_name"],
		["params not an object", "openDiff", "tools/call needs a tool name"],
	])("%s", (_name, params, expected) => {
		const call = toolCallOf(params);
		if (typeof expected === "string" && expected !== "openDiff")
			expect(call).toEqual({ tool: "invalid", code: -32602, message: expected });
		else if (expected === "openDiff") expect(call.tool).toBe("openDiff");
		else expect(call).toEqual(expected);
	});
});

test("openDiff: pi's own old_file_contents is the left side's text; absent (an IDE server's client), none", () => {
	const base = { old_file_path: "/p/a.ts", new_file_path: "/p/a.ts", new_file_contents: "new\n", tab_name: "t" };
	expect(toolCallOf({ name: "openDiff", arguments: { ...base, old_file_contents: "old\n" } })).toEqual({
		tool: "openDiff",
		args: { oldFilePath: "/p/a.ts", newFilePath: "/p/a.ts", contents: "new\n", tabName: "t", oldContents: "old\n" },
	});
	const plain = toolCallOf({ name: "openDiff", arguments: { ...base, old_file_contents: 42 } });
	expect(plain.tool === "openDiff" && "oldContents" in plain.args).toBe(false);
});

describe("what the client answers, read by pi's own IDE-server readers", () => {
	test("initialize: the client's name and version; the protocol version pi asked for", () => {
		const result = initializeResult({ protocolVersion: "2024-11-05" }, "0.4.0");
		expect(serverInfoOf(result)).toEqual({ name: "pi-ide-context-vscode", version: "0.4.0" });
		expect(initializeResult({}, "0.4.0").protocolVersion).toBe("2024-11-05");
		expect(initializeResult({ protocolVersion: "x".repeat(41) }, "0.4.0").protocolVersion).toBe("2024-11-05");
	});

	test("tools/list names openDiff and close_tab, each with its required arguments", () => {
		expect(toolNamesOf({ tools: TOOLS })).toEqual(["openDiff", "close_tab"]);
		expect(TOOLS[0]?.inputSchema.required).toEqual(["old_file_path", "new_file_path", "new_file_contents", "tab_name"]);
	});

	test("a tool's answer is MCP text items; an error is JSON-RPC's, its message cut", () => {
		expect(textResult("FILE_SAVED", "a\n")).toEqual({
			content: [
				{ type: "text", text: "FILE_SAVED" },
				{ type: "text", text: "a\n" },
			],
		});
		expect(toolAnswerOf(textResult("TAB_CLOSED"))).toEqual({ text: "TAB_CLOSED" });
		expect(errorMessage(7, -32602, "x".repeat(400)).error.message).toHaveLength(300);
	});
});
