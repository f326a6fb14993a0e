import { Compile } from "typebox/compile";
import { describe, expect, test } from "vitest";
import { EditorStateSchema } from "../../../../src/editors/core/protocol-state.ts";
import {
	isWholeLineSelection,
	parseSnapshot,
	type Snapshot,
	selectionMoment,
	stateFromSnapshot,
} from "../../../../src/editors/neovim/core/snapshot.ts";

const snapshot = (over: Partial<Snapshot> = {}): Snapshot => ({
	cwd: "/p",
	argv: ["nvim", "--clean", "src/main.ts"],
	ui: true,
	mode: "n",
	unsaved: [],
	buffer: {
		file: "/p/src/main.ts",
		language: "typescript",
		cursor: { line: 3, column: 2 },
		modified: false,
		lines_total: 6,
		autoread: true,
		diagnostics: [],
	},
	...over,
});

const selection = {
	start: { line: 2, column: 1 },
	end: { line: 4, column: 5 },
	text: "a\nb\nc",
	visual: false,
	linewise: false,
};

describe("what Neovim answers, checked", () => {
	test("a snapshot as the Lua returns it", () => {
		expect(parseSnapshot(snapshot())).toEqual({ ok: true, snapshot: snapshot(), cuts: [] });
	});
	test.each([
		["the Lua failed", { error: "E5108: boom" }, "Neovim could not describe its state: E5108: boom"],
		["not a table", "x", "unexpected state from Neovim"],
		["a relative cwd", { ...snapshot(), cwd: "p" }, "unexpected state from Neovim at /cwd"],
		[
			"a negative line",
			{ ...snapshot(), buffer: { ...snapshot().buffer, cursor: { line: -1, column: 1 } } },
			"/buffer/cursor/line",
		],
		["an unsaved entry that is not a name", { ...snapshot(), unsaved: [7] }, "/unsaved"],
		["a selection's text that is not text", { ...snapshot(), selection: { ...selection, text: 7 } }, "/selection"],
	])("%s: a reason, no throw", (_name, raw, reason) => {
		const parsed = parseSnapshot(raw);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.reason).toContain(reason);
	});
});

describe("whole lines, as a line reference may use them", () => {
	const at = (start: number, end: number, linewise = false) => ({
		...selection,
		start: { line: start, column: 3 },
		end: { line: end, column: 4 },
		linewise,
	});
	test.each([
		["V on one line", at(4, 4, true), true],
		["V over lines", at(2, 4, true), true],
		["charwise or block over lines (the Lua sends them as whole lines)", at(2, 4), true],
		["charwise or block inside one line: a fragment", at(4, 4), false],
		["no selection", undefined, false],
	])("%s", (_name, given, whole) => expect(isWholeLineSelection(given)).toBe(whole));
});

describe("when the selection was made, as pi's pushes saw it", () => {
	const withSelection = (over: Partial<Snapshot>) => snapshot({ selection, ...over });
	test.each([
		["in visual mode: now", withSelection({ mode: "v" }), undefined, { file: "/p/src/main.ts", atSeconds: 100 }],
		["block visual: now", withSelection({ mode: "\u0016" }), undefined, { file: "/p/src/main.ts", atSeconds: 100 }],
		[
			"just left visual mode: now",
			withSelection({ left_visual: true }),
			undefined,
			{ file: "/p/src/main.ts", atSeconds: 100 },
		],
		["marks from before pi connected: unknown", withSelection({}), undefined, undefined],
		[
			"the marks pi saw made: their moment stays",
			withSelection({}),
			{ file: "/p/src/main.ts", atSeconds: 40 },
			{ file: "/p/src/main.ts", atSeconds: 40 },
		],
	])("%s", (_name, snap, previous, expected) => {
		expect(selectionMoment(snap, previous, 100)).toEqual(expected);
	});
});

describe("the protocol state a state file would hold", () => {
	const check = Compile(EditorStateSchema);
	test("valid against pi's own schema, keyed by pid, with the launch args", () => {
		const state = stateFromSnapshot(snapshot(), { pid: 42, nowSeconds: 100, moment: undefined });
		expect(check.Check(state)).toBe(true);
		expect(state).toMatchObject({ pid: 42, app: "nvim", cwd: "/p", argv: ["src/main.ts"], timestamp: 100 });
		expect(state.active_buffer).toMatchObject({ name: "main.ts", cursor: { line: 3, column: 2 }, selection: null });
	});
	test("a selection made in this file carries its moment; in another file it is stale", () => {
		const made = { file: "/p/src/main.ts", atSeconds: 90 };
		const here = stateFromSnapshot(snapshot({ selection }), { pid: 1, nowSeconds: 100, moment: made });
		expect(here.active_buffer?.selection).toEqual({
			start: selection.start,
			end: selection.end,
			text: selection.text,
			selected_at: 90,
		});
		const elsewhere = stateFromSnapshot(snapshot({ selection }), {
			pid: 1,
			nowSeconds: 100,
			moment: { file: "/p/other.ts", atSeconds: 90 },
		});
		expect(elsewhere.active_buffer?.selection?.selected_at).toBeNull();
	});
	test("line 0 (a headless start before its first redraw) is no cursor yet", () => {
		const buffer = { ...snapshot().buffer, cursor: { line: 0, column: 1 } } as Snapshot["buffer"];
		expect(
			stateFromSnapshot(snapshot({ buffer }), { pid: 1, nowSeconds: 1, moment: undefined }).active_buffer?.cursor,
		).toBeNull();
	});
	test("an unnamed buffer has no file and no selection; no normal window at all is no buffer", () => {
		const unnamed = { ...snapshot().buffer, file: undefined } as Snapshot["buffer"];
		const state = stateFromSnapshot(snapshot({ buffer: unnamed, selection }), {
			pid: 1,
			nowSeconds: 1,
			moment: undefined,
		});
		expect(state.active_buffer).toMatchObject({ file: null, name: "[No Name]", selection: null });
		expect(
			stateFromSnapshot(snapshot({ buffer: undefined }), { pid: 1, nowSeconds: 1, moment: undefined }).active_buffer,
		).toBeNull();
	});
	test("diagnostics go along only when there are some", () => {
		const diagnostics = [{ line: 2, column: 1, severity: "error" as const, message: "x" }];
		const buffer = { ...snapshot().buffer, diagnostics } as Snapshot["buffer"];
		expect(
			stateFromSnapshot(snapshot({ buffer }), { pid: 1, nowSeconds: 1, moment: undefined }).active_buffer?.diagnostics,
		).toEqual(diagnostics);
		expect(
			stateFromSnapshot(snapshot(), { pid: 1, nowSeconds: 1, moment: undefined }).active_buffer,
		).not.toHaveProperty("diagnostics");
	});
});
