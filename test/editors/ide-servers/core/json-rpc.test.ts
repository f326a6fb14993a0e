import { describe, expect, test } from "vitest";
import {
	dirtyOf,
	initializeParams,
	MCP_PROTOCOL_VERSION,
	mentionOf,
	methodNotFoundText,
	notificationText,
	readServerMessage,
	requestText,
	resultText,
	type ServerMessage,
	serverInfoOf,
	toolAnswerOf,
	toolNamesOf,
} from "../../../../src/editors/ide-servers/core/json-rpc.ts";

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

	test("initialize asks for 2024-11-05 and serves nothing back", () => {
		expect(MCP_PROTOCOL_VERSION).toBe("2024-11-05");
		expect(initializeParams()).toEqual({
			protocolVersion: "2024-11-05",
			capabilities: {},
			clientInfo: { name: "pi-ide-context", version: expect.any(String) },
		});
	});
});

describe("serverInfoOf: initialize's answer", () => {
	test.each<[string, unknown, ReturnType<typeof serverInfoOf>]>([
		[
			"VS Code's",
			{
				protocolVersion: "2024-11-05",
				capabilities: { tools: { listChanged: true } },
				serverInfo: { name: "Claude Code VSCode MCP", version: "1.0.100" },
			},
			{ name: "Claude Code VSCode MCP", version: "1.0.100" },
		],
		["no serverInfo", { protocolVersion: "2025-06-18" }, { name: "unnamed", version: "unknown" }],
		[
			"an empty name",
			{ protocolVersion: "2024-11-05", serverInfo: { name: "", version: 3 } },
			{ name: "unnamed", version: "unknown" },
		],
		[
			"a long name cut at 100",
			{ protocolVersion: "2024-11-05", serverInfo: { name: "n".repeat(150), version: "1" } },
			{ name: "n".repeat(100), version: "1" },
		],
		["no protocolVersion: not an initialize answer", { serverInfo: { name: "x", version: "1" } }, undefined],
		["a protocolVersion that is a number", { protocolVersion: 20241105 }, undefined],
		["not an object", "ok", undefined],
		["null", null, undefined],
	])("%s", (_name, result, info) => {
		expect(serverInfoOf(result)).toEqual(info);
	});
});

describe("toolNamesOf: tools/list's names", () => {
	test.each<[string, unknown, string[] | undefined]>([
		[
			"names in order",
			{ tools: [{ name: "openDiff", inputSchema: {} }, { name: "getDiagnostics" }] },
			["openDiff", "getDiagnostics"],
		],
		["an empty list", { tools: [] }, []],
		[
			"entries without a name skipped",
			{ tools: [{ title: "x" }, null, "openFile", { name: 5 }, { name: "close_tab" }] },
			["close_tab"],
		],
		["no list", { tools: {} }, undefined],
		["no tools field", {}, undefined],
		["not an object", [], undefined],
	])("%s", (_name, result, names) => {
		expect(toolNamesOf(result)).toEqual(names);
	});

	test("at most 200 tools, names cut at 100", () => {
		const names = toolNamesOf({ tools: Array.from({ length: 250 }, (_, i) => ({ name: `${"t".repeat(120)}${i}` })) });
		expect(names?.length).toBe(200);
		expect(names?.[0]).toBe("t".repeat(100));
	});
});

describe("toolAnswerOf and dirtyOf: a tool's text content", () => {
	const content = (text: unknown) => ({ content: [{ type: "text", text }] });
	test.each<[string, unknown, ReturnType<typeof toolAnswerOf>, boolean | undefined]>([
		[
			"checkDocumentDirty: dirty",
			content(JSON.stringify({ success: true, filePath: "/p/a.ts", isDirty: true, isUntitled: false })),
			{ json: { success: true, filePath: "/p/a.ts", isDirty: true, isUntitled: false } },
			true,
		],
		[
			"checkDocumentDirty: saved",
			content(JSON.stringify({ success: true, isDirty: false })),
			{ json: { success: true, isDirty: false } },
			false,
		],
		[
			"a document not open: not dirty",
			content("Document not open: /p/a.ts"),
			{ text: "Document not open: /p/a.ts" },
			false,
		],
		["another plain text: unknown", content("Opened file: /p/a.ts"), { text: "Opened file: /p/a.ts" }, undefined],
		[
			"JSON without isDirty: unknown",
			content(JSON.stringify({ success: false })),
			{ json: { success: false } },
			undefined,
		],
		[
			"isDirty a string: unknown",
			content(JSON.stringify({ isDirty: "true" })),
			{ json: { isDirty: "true" } },
			undefined,
		],
		["a JSON array", content("[1,2]"), { json: [1, 2] }, undefined],
		["no content list", { content: "x" }, undefined, undefined],
		["an empty content list", { content: [] }, undefined, undefined],
		["a content block without text (an image)", { content: [{ type: "image", data: "…" }] }, undefined, undefined],
		["text not a string", content(5), undefined, undefined],
		["not an object", null, undefined, undefined],
	])("%s", (_name, result, answer, dirty) => {
		expect(toolAnswerOf(result)).toEqual(answer);
		expect(dirtyOf(toolAnswerOf(result))).toBe(dirty);
	});

	test("a long plain text is cut at 300", () => {
		expect(toolAnswerOf(content(`Document not open: /${"a".repeat(400)}`))).toEqual({
			text: `Document not open: /${"a".repeat(280)}`,
		});
	});

	test("only the first content block counts", () => {
		expect(
			toolAnswerOf({
				content: [
					{ type: "text", text: "FILE_SAVED" },
					{ type: "text", text: "{}" },
				],
			}),
		).toEqual({
			text: "FILE_SAVED",
		});
	});
});

describe("mentionOf: at_mentioned's file and 1-based lines", () => {
	test.each<[string, unknown, boolean, ReturnType<typeof mentionOf>]>([
		[
			"0-based lines +1 (VS Code, nvim)",
			{ filePath: "/p/a.ts", lineStart: 0, lineEnd: 4 },
			false,
			{ file: "/p/a.ts", lines: { start: 1, end: 5 } },
		],
		[
			"1-based lines kept (claude-code-ide.el)",
			{ filePath: "/p/a.ts", lineStart: 1, lineEnd: 4 },
			true,
			{ file: "/p/a.ts", lines: { start: 1, end: 4 } },
		],
		[
			"a 1-based 0 becomes line 1",
			{ filePath: "/p/a.ts", lineStart: 0, lineEnd: 0 },
			true,
			{ file: "/p/a.ts", lines: { start: 1, end: 1 } },
		],
		[
			"one line",
			{ filePath: "/p/a.ts", lineStart: 9, lineEnd: 9 },
			false,
			{ file: "/p/a.ts", lines: { start: 10, end: 10 } },
		],
		["no lines (an empty selection)", { filePath: "/p/a.ts" }, false, { file: "/p/a.ts" }],
		[
			"only lineStart: one line",
			{ filePath: "/p/a.ts", lineStart: 2 },
			false,
			{ file: "/p/a.ts", lines: { start: 3, end: 3 } },
		],
		["only lineEnd: no lines", { filePath: "/p/a.ts", lineEnd: 2 }, false, { file: "/p/a.ts" }],
		[
			"end before start: the start line",
			{ filePath: "/p/a.ts", lineStart: 8, lineEnd: 3 },
			false,
			{ file: "/p/a.ts", lines: { start: 9, end: 9 } },
		],
		[
			"lines that are not counts: no lines",
			{ filePath: "/p/a.ts", lineStart: -1, lineEnd: "4" },
			false,
			{ file: "/p/a.ts" },
		],
		[
			"a fractional lineEnd: the start line",
			{ filePath: "/p/a.ts", lineStart: 1, lineEnd: 2.5 },
			false,
			{ file: "/p/a.ts", lines: { start: 2, end: 2 } },
		],
		["a relative path: rejected", { filePath: "src/a.ts", lineStart: 0, lineEnd: 1 }, false, undefined],
		["a file URI: rejected", { filePath: "file:///p/a.ts" }, false, undefined],
		["no filePath", { lineStart: 0 }, false, undefined],
		["a path over 4096 characters", { filePath: `/${"a".repeat(4096)}` }, false, undefined],
		["not an object", "/p/a.ts", false, undefined],
		["null", null, false, undefined],
	])("%s", (_name, params, oneBased, mention) => {
		expect(mentionOf(params, oneBased)).toEqual(mention);
	});
});

describe("at_mentioned goes into pi's input as a paste", () => {
	test.each([
		["an ESC (it would end the paste early)", "/p/a\u001b[201~b.ts"],
		["a newline", "/p/a\nb.ts"],
		["a C1 control", "/p/a\u009bb.ts"],
		["DEL", "/p/a\u007fb.ts"],
	])("a path with %s is no mention", (_name, filePath) => {
		expect(mentionOf({ filePath, lineStart: 0, lineEnd: 1 }, false)).toBeUndefined();
	});
});
