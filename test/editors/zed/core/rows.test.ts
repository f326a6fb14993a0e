import { describe, expect, test } from "vitest";
import {
	shownWorkspaceOf,
	unsavedFiles,
	workspaceHidden,
	workspaceNotOffered,
	workspaceRoots,
	type ZedSnapshot,
	type ZedWorkspaceRow,
	zedFocus,
	zedTimestampSeconds,
} from "../../../../src/editors/zed/core/rows.ts";

const workspace = (overrides: Partial<ZedWorkspaceRow> = {}): ZedWorkspaceRow => ({
	id: "1",
	paths: "/p",
	remote: false,
	timestamp: "2026-11-30 10:00:00",
	sessionId: "s1",
	...overrides,
});

describe("which workspaces are editors", () => {
	test.each([
		["in the current session", workspace(), "s1", undefined],
		["a remote one", workspace({ remote: true }), "s1", "a remote workspace: its paths are not this machine's"],
		[
			"another session's (a closed window)",
			workspace({ sessionId: null }),
			"s1",
			"not in Zed's current session (a closed window, or an earlier run)",
		],
		["Zed has no session yet", workspace(), undefined, "Zed has no current session"],
	])("%s", (_name, row, session, expected) => {
		expect(workspaceNotOffered(row, session)).toBe(expected);
	});
});

describe("roots and timestamps", () => {
	test.each([
		["one root", workspace({ paths: "/p" }), ["/p"]],
		["no folder", workspace({ paths: "" }), []],
		["sorted, back in the user's order", workspace({ paths: "/a\n/b\n/c", pathsOrder: "2,0,1" }), ["/b", "/c", "/a"]],
		["a broken order keeps the stored one", workspace({ paths: "/a\n/b", pathsOrder: "0,7" }), ["/a", "/b"]],
		["relative entries are no roots", workspace({ paths: "/a\nrelative" }), ["/a"]],
	])("%s", (_name, row, roots) => {
		expect(workspaceRoots(row)).toEqual(roots);
	});

	test.each([
		["2026-11-30 10:00:00", Date.UTC(2026, 10, 30, 10) / 1000],
		["2026-11-30T10:00:00", undefined],
		["yesterday", undefined],
		[null, undefined],
	])("timestamp %s", (text, seconds) => {
		expect(zedTimestampSeconds(text)).toBe(seconds);
	});
});

/** Workspace 1: pane 10 (editor tab 100 on a.ts, editor tab 101 on b.ts) and pane 20 (a terminal tab 200). */
function snapshot(options: {
	focusedPane?: 10 | 20;
	activeInPane10?: 100 | 101;
	selections?: [number, number][];
	dirty?: boolean;
}): ZedSnapshot {
	const active = options.activeInPane10 ?? 100;
	return {
		sessionId: "s1",
		workspaces: [workspace()],
		panes: [
			{ paneId: 20, workspaceId: "1", active: options.focusedPane === 20 },
			{ paneId: 10, workspaceId: "1", active: options.focusedPane === 10 },
		],
		items: [
			{ itemId: 100, workspaceId: "1", paneId: 10, kind: "Editor", position: 0, active: active === 100 },
			{ itemId: 101, workspaceId: "1", paneId: 10, kind: "Editor", position: 1, active: active === 101 },
			{ itemId: 200, workspaceId: "1", paneId: 20, kind: "Terminal", position: 0, active: true },
		],
		editors: [
			{ itemId: 100, workspaceId: "1", path: "/p/a.ts", unsaved: false, contents: null },
			// Unsaved but too large to be copied out: still an unsaved file.
			{ itemId: 101, workspaceId: "1", path: "/p/b.ts", unsaved: options.dirty === true, contents: null },
			{
				itemId: 100,
				workspaceId: "2",
				path: "/q/other.ts",
				unsaved: true,
				contents: Buffer.from("another workspace's"),
			},
		],
		selections: (options.selections ?? [[5, 5]]).map(([start, end]) => ({
			editorId: active,
			workspaceId: "1",
			start,
			end,
		})),
	};
}

describe("what a workspace shows: the focused pane's active tab, else the last state", () => {
	// The last cell is the tab shown last (undefined: nothing shown yet).
	test.each([
		["the focused pane's active editor", snapshot({ focusedPane: 10 }), undefined, { kind: "editor", file: "/p/a.ts" }],
		[
			"another tab made active",
			snapshot({ focusedPane: 10, activeInPane10: 101 }),
			100,
			{ kind: "editor", file: "/p/b.ts" },
		],
		[
			"focus in the terminal, with a last state: kept",
			snapshot({ focusedPane: 20 }),
			100,
			{ kind: "keep", why: "the focused tab is not an editor" },
		],
		["no pane focused, with a last state: kept", snapshot({}), 100, { kind: "keep", why: "no pane has focus" }],
		[
			"focus in the terminal, nothing shown yet: the first pane's active editor",
			snapshot({ focusedPane: 20 }),
			undefined,
			{ kind: "editor", file: "/p/a.ts" },
		],
		[
			"the tab shown last has no selection rows (Zed rewriting them): kept",
			snapshot({ focusedPane: 10, selections: [] }),
			100,
			{ kind: "keep", why: "no selection rows (Zed is rewriting them)" },
		],
		[
			"a newly opened tab with no selection rows: shown at once, its file and no cursor",
			snapshot({ focusedPane: 10, activeInPane10: 101, selections: [] }),
			100,
			{ kind: "editor", file: "/p/b.ts", selections: [] },
		],
		[
			"no selection rows and nothing shown yet: the editor, no cursor",
			snapshot({ focusedPane: 10, selections: [] }),
			undefined,
			{ kind: "editor", file: "/p/a.ts", selections: [] },
		],
	] as const)("%s", (_name, rows, lastItemId, expected) => {
		const focus = zedFocus(rows, "1", lastItemId);
		if (expected.kind === "keep") expect(focus).toEqual(expected);
		else {
			expect(focus.kind === "editor" && focus.editor.path).toBe(expected.file);
			if ("selections" in expected) expect(focus.kind === "editor" && focus.selections).toEqual(expected.selections);
		}
	});

	test("selections come as [start, end] in order, for the shown editor only", () => {
		const rows = snapshot({
			focusedPane: 10,
			selections: [
				[9, 3],
				[1, 1],
			],
		});
		const focus = zedFocus(rows, "1", undefined);
		expect(focus.kind === "editor" && focus.selections).toEqual([
			[3, 9],
			[1, 1],
		]);
	});

	test("no editor tab anywhere: none", () => {
		const rows = snapshot({ focusedPane: 20 });
		rows.items = rows.items.filter((item) => item.kind !== "Editor");
		expect(zedFocus(rows, "1", undefined)).toEqual({ kind: "none" });
	});

	test("every unsaved file of the workspace, not another workspace's", () => {
		expect(unsavedFiles(snapshot({ dirty: true }), "1")).toEqual(["/p/b.ts"]);
		expect(unsavedFiles(snapshot({}), "1")).toEqual([]);
	});
});

describe("one window, several workspaces (Zed's sidebar): the one its window shows", () => {
	const shown = new Map([["w1", "4294967444"]]);
	test.each<[string, Partial<ZedWorkspaceRow>, ReadonlyMap<string, string> | undefined, boolean]>([
		["the window's shown workspace", { id: "4294967444", windowId: "w1" }, shown, false],
		["another workspace of that window", { id: "7", windowId: "w1" }, shown, true],
		["a workspace of a window with no sidebar state", { id: "7", windowId: "w2" }, shown, false],
		["no window recorded", { id: "7", windowId: null }, shown, false],
		["a Zed before the sidebar", { id: "7", windowId: "w1" }, undefined, false],
	])("%s: hidden %s", (_name, row, shownInWindow, hidden) => {
		expect(workspaceHidden(workspace(row), { shownInWindow })).toBe(hidden);
	});

	test.each([
		['{"active_workspace_id":4294967444,"sidebar_open":false}', "4294967444"],
		['{"sidebar_open":true,"active_workspace_id":12}', "12"],
		['{"active_workspace_id":18446744073709551615}', "18446744073709551615"],
		['{"active_workspace_id":null}', undefined],
		['{"active_workspace_id":"4"}', undefined],
		["[4]", undefined],
		["not json", undefined],
		['{"active_workspace_id":4', undefined],
	])("%s names %s", (json, id) => {
		expect(shownWorkspaceOf(json)).toBe(id);
	});
});
