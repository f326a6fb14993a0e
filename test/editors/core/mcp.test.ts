import { describe, expect, test } from "vitest";
import { initializeParams, MCP_PROTOCOL_VERSION, serverInfoOf, toolNamesOf } from "../../../src/editors/core/mcp.ts";

describe("the MCP handshake", () => {
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
