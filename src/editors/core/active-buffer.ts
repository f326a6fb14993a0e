import { posix } from "node:path";
import { type Freshness, selectionFreshness } from "./freshness.ts";
import type { EditorState, Selection } from "./protocol-state.ts";

/**
 * The active buffer's file as an absolute path. Obsidian writes vault-relative paths; handing the model a
 * relative one makes it resolve against pi's cwd and write a shadow tree, so resolve against the editor's cwd.
 */
export function absoluteFile(state: EditorState): string | undefined {
	const file = state.active_buffer?.file;
	if (typeof file !== "string" || file.length === 0) return undefined;
	if (posix.isAbsolute(file)) return posix.normalize(file);
	return posix.isAbsolute(state.cwd) ? posix.join(state.cwd, file) : undefined;
}

export function selectionLineCount(selection: Pick<Selection, "start" | "end">): number {
	return Math.max(1, selection.end.line - selection.start.line + 1);
}

/** A selection that counts for this prompt, or undefined when there is none or it is stale. */
export function freshSelection(
	state: EditorState,
	selectionFirstSeenSeconds: number,
	nowSeconds: number,
): { selection: Selection; freshness: Freshness & { kind: "fresh" } } | undefined {
	const selection = state.active_buffer?.selection;
	const freshness = selectionFreshness(selection, selectionFirstSeenSeconds, nowSeconds);
	if (!selection || freshness.kind !== "fresh") return undefined;
	return { selection, freshness };
}
