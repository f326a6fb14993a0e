import { describe, expect, test } from "vitest";
import {
	unsavedFiles,
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
			{ itemId: 100, workspaceId: "2", path: "/q/other.ts", unsaved: true, contents: "another workspace's" },
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
	test.each([
		["the focused pane's active editor", snapshot({ focusedPane: 10 }), false, { kind: "editor", file: "/p/a.ts" }],
		[
			"another tab made active",
			snapshot({ focusedPane: 10, activeInPane10: 101 }),
			true,
			{ kind: "editor", file: "/p/b.ts" },
		],
		[
			"focus in the terminal, with a last state: kept",
			snapshot({ focusedPane: 20 }),
			true,
			{ kind: "keep", why: "the focused tab is not an editor" },
		],
		["no pane focused, with a last state: kept", snapshot({}), true, { kind: "keep", why: "no pane has focus" }],
		[
			"focus in the terminal, nothing shown yet: the first pane's active editor",
			snapshot({ focusedPane: 20 }),
			false,
			{ kind: "editor", file: "/p/a.ts" },
		],
		[
			"no selection rows (Zed rewriting them), with a last state: kept",
			snapshot({ focusedPane: 10, selections: [] }),
			true,
			{ kind: "keep", why: "no selection rows (Zed is rewriting them)" },
		],
		[
			"no selection rows and nothing shown yet: the editor, no cursor",
			snapshot({ focusedPane: 10, selections: [] }),
			false,
			{ kind: "editor", file: "/p/a.ts" },
		],
	] as const)("%s", (_name, rows, hasLast, expected) => {
		const focus = zedFocus(rows, "1", hasLast);
		if (expected.kind === "keep") expect(focus).toEqual(expected);
		else expect(focus.kind === "editor" && focus.editor.path).toBe(expected.file);
	});

	test("selections come as [start, end] in order, for the shown editor only", () => {
		const rows = snapshot({
			focusedPane: 10,
			selections: [
				[9, 3],
				[1, 1],
			],
		});
		const focus = zedFocus(rows, "1", false);
		expect(focus.kind === "editor" && focus.selections).toEqual([
			[3, 9],
			[1, 1],
		]);
	});

	test("no editor tab anywhere: none", () => {
		const rows = snapshot({ focusedPane: 20 });
		rows.items = rows.items.filter((item) => item.kind !== "Editor");
		expect(zedFocus(rows, "1", false)).toEqual({ kind: "none" });
	});

	test("every unsaved file of the workspace, not another workspace's", () => {
		expect(unsavedFiles(snapshot({ dirty: true }), "1")).toEqual(["/p/b.ts"]);
		expect(unsavedFiles(snapshot({}), "1")).toEqual([]);
	});
});
