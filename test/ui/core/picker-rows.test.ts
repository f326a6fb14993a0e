import { describe, expect, test } from "vitest";
import { formatAgo } from "../../../src/shared/core/display-text.ts";
import { launchText, pickerRows, pickerRowText } from "../../../src/ui/core/picker-rows.ts";
import { editorState } from "../../support/fixtures.ts";

const NOW = 1_800_000_000;

test.each([
	[0, "just now"],
	[2.9, "just now"],
	[3, "3s ago"],
	[12, "12s ago"],
	[59, "59s ago"],
	[60, "1m ago"],
	[185, "3m ago"],
	[3599, "59m ago"],
	[7200, "2h ago"],
	[86_400 * 3, "3d ago"],
	[-30, "just now"],
])("formatAgo(%d) = %s", (age, text) => {
	expect(formatAgo(age)).toBe(text);
});

describe("launchText", () => {
	test.each([
		["argv", editorState({ argv: ["pi-ide-context/"] }), "pi-ide-context/"],
		["several args", editorState({ argv: ["-O", "a.ts", "b.ts"] }), "-O a.ts b.ts"],
		["no argv: cwd", editorState({ argv: [] }), "/home/dev/proj"],
		["argv missing: cwd", editorState({ argv: undefined }), "/home/dev/proj"],
		["escape sequences stripped", editorState({ argv: ["\u001b[2Jx"] }), "x"],
		["long args clipped", editorState({ argv: ["a".repeat(100)] }), `${"a".repeat(57)}...`],
	])("%s", (_name, state, text) => {
		expect(launchText(state)).toBe(text);
	});
});

describe("pickerRows", () => {
	const older = { key: "pid:100", pid: 100, state: editorState({ pid: 100, timestamp: NOW - 185, argv: ["pi/"] }) };
	const newer = {
		key: "pid:200",
		pid: 200,
		state: editorState({ pid: 200, timestamp: NOW - 12, argv: ["pi-ide-context/"], buffer: { name: "index.ts" } }),
	};
	const unnamed = {
		key: "pid:300",
		pid: 300,
		state: editorState({ pid: 300, timestamp: NOW, argv: [], buffer: { file: null, name: "[No Name]" } }),
	};

	test("newest first, connected marked, Disconnect last", () => {
		expect(pickerRows([older, newer, unnamed], "pid:100", NOW)).toEqual([
			{ value: "pid:300", label: "  nvim 300  /home/dev/proj", description: "no file, active just now" },
			{ value: "pid:200", label: "  nvim 200  pi-ide-context/", description: "index.ts, active 12s ago" },
			{ value: "pid:100", label: "* nvim 100  pi/", description: "main.ts, active 3m ago  (connected)" },
			{ value: "disconnect", label: "  Disconnect", description: "stop sending editor context" },
		]);
	});

	test("a workspace its window does not show is marked hidden", () => {
		expect(pickerRows([{ ...newer, hidden: true }], undefined, NOW)[0]?.description).toBe(
			"index.ts, active 12s ago  (hidden in its window)",
		);
	});

	test("not connected: no marker, no Disconnect row", () => {
		const rows = pickerRows([older, newer], undefined, NOW);
		expect(rows.map((row) => row.value)).toEqual(["pid:200", "pid:100"]);
		expect(rows.every((row) => row.label.startsWith("  "))).toBe(true);
	});

	test("select fallback strings are unique and carry the description", () => {
		const texts = pickerRows([older, newer], "pid:200", NOW).map(pickerRowText);
		expect(texts).toEqual([
			"* nvim 200  pi-ide-context/ - index.ts, active 12s ago  (connected)",
			"nvim 100  pi/ - main.ts, active 3m ago",
			"Disconnect - stop sending editor context",
		]);
	});

	test("hostile app and name are stripped", () => {
		const evil = {
			key: "pid:9",
			pid: 9,
			state: editorState({ pid: 9, timestamp: NOW, app: "\u001b]0;x\u0007vim", buffer: { name: "a\u202Eb.ts" } }),
		};
		const [row] = pickerRows([evil], undefined, NOW);
		expect(row?.label).toBe("  vim 9  src/main.ts");
		expect(row?.description).toBe("a b.ts, active just now");
	});

	describe("IDE servers", () => {
		const server = (pid: number, connected: boolean, more: object = {}) => ({
			key: `pid:${pid}`,
			pid,
			state: editorState({ pid, app: "vscode", timestamp: NOW - 185, argv: [], ...more }),
			ideServer: { connected },
		});
		const unconnected = server(500, false, { active_buffer: null });

		test.each<[string, Parameters<typeof pickerRows>[0][number], string | undefined, string]>([
			[
				"not connected: no file yet, connects when picked",
				unconnected,
				undefined,
				"file shown once connected, active 3m ago  (IDE server: connects when picked)",
			],
			[
				"connected: its file, marked as an IDE server and connected",
				server(501, true),
				"pid:501",
				"main.ts, active 3m ago  (IDE server)  (connected)",
			],
			[
				"connected but no file shown",
				server(502, true, { active_buffer: null }),
				"pid:502",
				"no file, active 3m ago  (IDE server)  (connected)",
			],
			[
				"hidden and an IDE server: both notes, in that order",
				{ ...server(503, false), hidden: true },
				undefined,
				"main.ts, active 3m ago  (hidden in its window)  (IDE server: connects when picked)",
			],
			["not an IDE server: no note", { ...older, byHand: true }, undefined, "main.ts, active 3m ago"],
		])("%s", (_name, editor, connectedKey, description) => {
			expect(pickerRows([editor], connectedKey, NOW)[0]?.description).toBe(description);
		});

		test("the editor pi runs in comes first, then newest first", () => {
			const enclosing = { ...unconnected, enclosing: true };
			const rows = pickerRows([newer, older, enclosing, unnamed], undefined, NOW);
			expect(rows.map((row) => row.value)).toEqual(["pid:500", "pid:300", "pid:200", "pid:100"]);
			expect(rows[0]).toEqual({
				value: "pid:500",
				label: "  vscode 500  /home/dev/proj",
				description: "file shown once connected, active 3m ago  (IDE server: connects when picked)",
			});
		});

		test("enclosing false sorts as unset", () => {
			const rows = pickerRows([{ ...older, enclosing: false }, newer], undefined, NOW);
			expect(rows.map((row) => row.value)).toEqual(["pid:200", "pid:100"]);
		});
	});
});
