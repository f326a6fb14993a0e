import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, test } from "vitest";
import { fitWidgetLine, widgetText } from "../../../src/connection/core/widget-line.ts";
import { clientFixture, editorState, nvimFixture, selection } from "../../support/fixtures.ts";

const NOW = 1_800_000_000;

describe("widgetText", () => {
	test.each([
		["no selection", editorState(), "in main.ts"],
		[
			"fresh 1-line selection",
			editorState({ buffer: { name: "a.ts", selection: selection(3, 3, "x", NOW - 5) } }),
			"1 line selected in a.ts",
		],
		[
			"fresh 5-line selection",
			editorState({ buffer: { selection: selection(10, 14, "x", NOW - 59) } }),
			"5 lines selected in main.ts",
		],
		[
			"selection exactly 60 s old",
			editorState({ buffer: { selection: selection(10, 14, "x", NOW - 60) } }),
			"5 lines selected in main.ts",
		],
		["stale selection (61 s)", editorState({ buffer: { selection: selection(10, 14, "x", NOW - 61) } }), "in main.ts"],
		["selected_at unknown", editorState({ buffer: { selection: selection(10, 14, "x", null) } }), "in main.ts"],
		["unnamed buffer", nvimFixture("unnamed-buffer"), undefined],
		["no active buffer", editorState({ active_buffer: null }), undefined],
		["escape sequences in the name", editorState({ buffer: { name: "\u001b[31mmain\u001b[0m.ts" } }), "in main.ts"],
		["a name that is only control characters", editorState({ buffer: { name: "\u0007\u0007" } }), "in untitled"],
		[
			"real visual-line capture",
			nvimFixture("visual-line-selection", { selectedAt: NOW }),
			"3 lines selected in main.ts",
		],
		["real charwise capture", nvimFixture("charwise-selection", { selectedAt: NOW }), "1 line selected in main.ts"],
	])("%s", (_name, state, expected) => {
		expect(widgetText(state, NOW, NOW)).toBe(expected);
	});

	test("a secret file's selection: counted, and said not to be sent; nothing to say without a selection", () => {
		const env = editorState({ buffer: { file: "/p/.env", name: ".env", selection: selection(1, 5, "A=1", NOW) } });
		expect(widgetText(env, NOW, NOW, true)).toBe("5 lines selected in .env (not sent)");
		expect(widgetText(editorState({ buffer: { file: "/p/.env", name: ".env" } }), NOW, NOW, true)).toBe("in .env");
	});

	test.each([
		["VS Code, no editor", clientFixture("vscode-client/no-editor"), undefined],
		["VS Code, untitled document", clientFixture("vscode-client/untitled"), undefined],
		["VS Code, selection of unknown age", clientFixture("vscode-client/restored-selection"), "in main.ts"],
		[
			"Obsidian note (vault-relative)",
			clientFixture("obsidian-client/note", { selectedAt: NOW }),
			"1 line selected in foo.md",
		],
		["Obsidian, no note", clientFixture("obsidian-client/no-note"), undefined],
	])("%s", (_name, state, expected) => {
		expect(widgetText(state, NOW, NOW)).toBe(expected);
	});
});

describe("fitWidgetLine", () => {
	const long = `in ${"a".repeat(200)}.ts`;
	test.each([
		["fits", "in main.ts", 40, "in main.ts"],
		["cut with a plain marker", long, 20, `in ${"a".repeat(14)}...`],
		["width 3", long, 3, "..."],
		["width 0", long, 0, ""],
		["width 2", long, 2, ".."],
		["exact width", "in main.ts", 10, "in main.ts"],
	])("%s", (_name, text, width, expected) => {
		expect(fitWidgetLine(text, width)).toBe(expected);
	});

	const secretLine = `5 lines selected in ${"secret-".repeat(10)}.env (not sent)`;
	test.each([
		[
			"a narrow terminal cuts the name, never the not-sent warning",
			secretLine,
			40,
			"5 lines selected in secret... (not sent)",
		],
		["too narrow for the warning: cut like any line", secretLine, 12, "5 lines s..."],
		["it fits", "5 lines selected in .env (not sent)", 80, "5 lines selected in .env (not sent)"],
		["review on stays whole too", `in ${"a".repeat(60)}.ts, review on`, 30, `in ${"a".repeat(13)}..., review on`],
		["both ends stay whole", `${secretLine}, review on`, 51, "5 lines selected in secret... (not sent), review on"],
	])("%s", (_name, text, width, expected) => {
		expect(fitWidgetLine(text, width)).toBe(expected);
		expect(visibleWidth(fitWidgetLine(text, width))).toBeLessThanOrEqual(width);
	});

	test.each([1, 2, 5, 10, 17, 40, 80])("wide CJK and emoji names never exceed width %d", (width) => {
		const line = fitWidgetLine("12 lines selected in 文件名文件名文件名😀😀😀.ts", width);
		expect(visibleWidth(line)).toBeLessThanOrEqual(width);
	});
});
