/**
 * Zed's rows as pi reads them in one transaction, and which of them say what a workspace shows. The tables
 * (`workspaces`, `panes`, `items`, `editors`, `editor_selections`, `kv_store`) are as Zed's own migrations
 * leave them (crates `workspace` and `editor`, their `persistence` modules); docs/editors.md says how pi
 * reads them.
 */

export interface ZedWorkspaceRow {
	/** `workspace_id` as text: the integers are large. */
	id: string;
	/** The root folders, sorted, joined by `\n`; `''` for a window with no folder. */
	paths: string;
	/** The roots' original order (comma-separated indices), when the schema has it. */
	pathsOrder?: string | null;
	remote: boolean;
	/** `YYYY-MM-DD HH:MM:SS`, UTC. */
	timestamp: string | null;
	sessionId: string | null;
	/** The window that holds it (`window_id`), when the schema has it. */
	windowId?: string | null;
}

export interface ZedPaneRow {
	paneId: number;
	workspaceId: string;
	/** The pane had keyboard focus when Zed saved it. */
	active: boolean;
}

export interface ZedItemRow {
	itemId: number;
	workspaceId: string;
	paneId: number;
	kind: string;
	position: number;
	/** The pane's active tab. */
	active: boolean;
}

export interface ZedEditorRow {
	itemId: number;
	workspaceId: string;
	/** The buffer's file, decoded from `editors.path`; null when unnamed or not valid UTF-8. */
	path: string | null;
	/** The buffer has unsaved changes (Zed keeps `contents` only then). */
	unsaved: boolean;
	/**
	 * The text the user sees while unsaved, as its UTF-8 bytes (the offsets count them); null when saved, not
	 * its pane's active tab, or too large to be read on pi's thread.
	 */
	contents: Uint8Array | null;
	language?: string | null;
}

export interface ZedSelectionRow {
	editorId: number;
	workspaceId: string;
	/** UTF-8 byte offsets into the buffer's text. */
	start: number;
	end: number;
}

export interface ZedSnapshot {
	/** `kv_store`'s `session_id`: Zed's current session. */
	sessionId: string | undefined;
	/**
	 * Each window's shown workspace (`scoped_kv_store`, namespace `multi_workspace_state`): a window of Zed's
	 * sidebar holds several workspaces and shows one. Absent in a Zed before the sidebar.
	 */
	shownInWindow?: ReadonlyMap<string, string>;
	workspaces: ZedWorkspaceRow[];
	panes: ZedPaneRow[];
	items: ZedItemRow[];
	editors: ZedEditorRow[];
	selections: ZedSelectionRow[];
}

/** `zed:<database path>#<workspace_id>`: a workspace's key, stable across Zed's restarts. */
export const zedKey = (databasePath: string, workspaceId: string) => `zed:${databasePath}#${workspaceId}`;

/** The workspace id in a window's `multi_workspace_state` JSON, or undefined when it names none or is malformed. */
export function shownWorkspaceOf(json: string): string | undefined {
	try {
		const value: unknown = JSON.parse(json);
		if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
	} catch {
		return undefined;
	}
	// The digits as written: workspace ids are 64-bit, past what a JSON number keeps exactly.
	return /"active_workspace_id"\s*:\s*(\d{1,20})\s*[,}]/.exec(json)?.[1];
}

/** A workspace its window does not show now: another workspace of the same window is the shown one. */
export function workspaceHidden(workspace: ZedWorkspaceRow, snapshot: Pick<ZedSnapshot, "shownInWindow">): boolean {
	const window = workspace.windowId;
	if (window === null || window === undefined) return false;
	const shown = snapshot.shownInWindow?.get(window);
	return shown !== undefined && shown !== workspace.id;
}

/** Why a workspace row is not an editor pi offers, or undefined when it is one. */
export function workspaceNotOffered(workspace: ZedWorkspaceRow, sessionId: string | undefined): string | undefined {
	if (workspace.remote) return "a remote workspace: its paths are not this machine's";
	if (sessionId === undefined) return "Zed has no current session";
	if (workspace.sessionId !== sessionId) return "not in Zed's current session (a closed window, or an earlier run)";
	return undefined;
}

/** The roots in the order the user added them (`paths_order`), else as stored. */
export function workspaceRoots(workspace: ZedWorkspaceRow): string[] {
	const sorted = workspace.paths.split("\n").filter((path) => path.startsWith("/"));
	const order = (workspace.pathsOrder ?? "").split(",").map((index) => Number(index));
	if (order.length !== sorted.length || order.some((index) => !Number.isInteger(index))) return sorted;
	const original: string[] = [];
	for (const [sortedIndex, originalIndex] of order.entries()) original[originalIndex] = sorted[sortedIndex] as string;
	return original.length === sorted.length && original.every((path) => path !== undefined) ? original : sorted;
}

/** Unix seconds of Zed's UTC `timestamp` text, or undefined when it is not one. */
export function zedTimestampSeconds(text: string | null): number | undefined {
	if (text === null || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text)) return undefined;
	const ms = Date.parse(`${text.replace(" ", "T")}Z`);
	return Number.isNaN(ms) ? undefined : ms / 1000;
}

/** Why a tab's state is kept while its selection rows are gone: Zed deletes them, then inserts the new ones. */
export const REWRITING = "no selection rows (Zed is rewriting them)";

/** What a workspace shows, as its rows tell it. */
export type ZedFocus =
	| { kind: "editor"; editor: ZedEditorRow; selections: [number, number][] }
	/** The last state stands: focus is in a terminal or panel, or Zed is between deleting and writing selections. */
	| { kind: "keep"; why: string }
	/** No editor tab in any pane. */
	| { kind: "none" };

/**
 * The focused pane's active tab when it is an editor. Focus elsewhere (Zed's terminal, where the user may be
 * typing into pi) keeps the last state; with none yet, the first pane's active editor tab. An editor with no
 * selection rows keeps the last state only while it is the tab last shown (Zed deletes and rewrites its rows):
 * another tab is shown at once, with its file and no cursor (Zed writes no rows for a tab whose cursor has not
 * moved, nor any under `"restore_on_startup": "empty_tab"`). `lastItemId` is the tab shown last.
 */
export function zedFocus(snapshot: ZedSnapshot, workspaceId: string, lastItemId: number | undefined): ZedFocus {
	const hasLast = lastItemId !== undefined;
	const panes = snapshot.panes.filter((pane) => pane.workspaceId === workspaceId).sort((a, b) => a.paneId - b.paneId);
	const items = snapshot.items.filter((item) => item.workspaceId === workspaceId);
	const activeEditorOf = (paneId: number) => {
		const item = items.find((candidate) => candidate.paneId === paneId && candidate.active);
		if (item?.kind !== "Editor") return undefined;
		return snapshot.editors.find((editor) => editor.workspaceId === workspaceId && editor.itemId === item.itemId);
	};
	const focused = panes.find((pane) => pane.active);
	let editor = focused ? activeEditorOf(focused.paneId) : undefined;
	if (!editor) {
		if (hasLast) return { kind: "keep", why: focused ? "the focused tab is not an editor" : "no pane has focus" };
		editor = panes.map((pane) => activeEditorOf(pane.paneId)).find((candidate) => candidate !== undefined);
		if (!editor) return { kind: "none" };
	}
	const selections = snapshot.selections
		.filter((row) => row.workspaceId === workspaceId && row.editorId === editor.itemId)
		.map((row): [number, number] => [Math.min(row.start, row.end), Math.max(row.start, row.end)]);
	if (selections.length === 0 && editor.itemId === lastItemId) return { kind: "keep", why: REWRITING };
	return { kind: "editor", editor, selections };
}

/** Every file of the workspace with unsaved changes (its editor rows with `contents`, however large). */
export function unsavedFiles(snapshot: ZedSnapshot, workspaceId: string): string[] {
	return snapshot.editors.flatMap((editor) =>
		editor.workspaceId === workspaceId && editor.unsaved && editor.path !== null ? [editor.path] : [],
	);
}
