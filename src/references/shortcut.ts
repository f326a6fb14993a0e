import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { absoluteFile } from "../editors/core/active-buffer.ts";
import type { Editor } from "../editors/core/editor.ts";
import { isInside } from "../shared/core/paths.ts";
import { insertedReference } from "./core/parse.ts";

/** The connected editor (undefined while none, or its latest write is rejected) and the project it serves. */
export interface EditorInProject {
	editor: Pick<Editor, "state">;
	projectDir: string;
}

/** The key that inserts a reference to what the editor shows, as Claude Code's ctrl+alt+k does. */
export const REFERENCE_SHORTCUT = "ctrl+alt+k";

/**
 * Inserts at the cursor of pi's input a reference to the connected editor's selection (fresh or stale), else
 * to its cursor line. Nothing connected, or no named buffer: a notice, nothing inserted. Synchronous on
 * purpose: pi redraws after the key's handler returns, and an insertion after an `await` would show only
 * with the next key (seen on both pi lines in tmux). The widget shows the same in-memory state.
 */
export function insertEditorReference(ctx: ExtensionContext, editor: EditorInProject | undefined): void {
	if (!ctx.hasUI) return;
	const target = referenceTarget(editor, ctx.cwd, { cursorLine: true });
	if (typeof target === "string") {
		ctx.ui.notify(`pi-ide: nothing to reference: ${target}`, "info");
		return;
	}
	ctx.ui.pasteToEditor(insertedReference({ ...target, inputBefore: ctx.ui.getEditorText() }));
}

/** The reference to the connected editor's selection (fresh or stale) as `@` completion offers it, if any. */
export function selectionReference(editor: EditorInProject | undefined, cwd: string): string | undefined {
	const target = referenceTarget(editor, cwd, { cursorLine: false });
	return typeof target === "string" ? undefined : insertedReference({ ...target, inputBefore: "" }).trimEnd();
}

/**
 * What a reference to the connected editor names: its file (relative to pi's cwd when inside it, else to the
 * project) and the selection's lines, else (when asked) the cursor line; or why there is nothing.
 */
function referenceTarget(
	connected: EditorInProject | undefined,
	cwd: string,
	options: { cursorLine: boolean },
): { file: string; cwd: string; startLine: number; endLine: number } | string {
	const editor = connected?.editor;
	const file = editor && absoluteFile(editor.state);
	if (!editor || file === undefined)
		return editor ? "the editor shows no file" : "no editor is connected (/ide picks one)";
	const buffer = editor.state.active_buffer;
	const line = options.cursorLine ? buffer?.cursor?.line : undefined;
	const lines = buffer?.selection
		? { startLine: buffer.selection.start.line, endLine: buffer.selection.end.line }
		: typeof line === "number"
			? { startLine: line, endLine: line }
			: undefined;
	if (!lines) return "the editor reports no selection and no cursor";
	return { file, cwd: referenceBase(file, { cwd, projectDir: connected.projectDir }), ...lines };
}

/**
 * The connected editor's own "send to agent" (an IDE server's `at_mentioned`: VS Code's ctrl+alt+K,
 * claudecode.nvim's send): `@path#La-b`, or `@path` without lines, at the cursor of pi's input. The text goes in
 * through `paste` of the current session; the caller asks pi to redraw (a paste from a socket callback does not
 * redraw by itself on pi 1.x).
 */
export function mentionText(
	mention: { file: string; lines?: { start: number; end: number } },
	place: { cwd: string; projectDir: string; inputBefore: string },
): string {
	return insertedReference({
		file: mention.file,
		cwd: referenceBase(mention.file, place),
		startLine: mention.lines?.start,
		endLine: mention.lines?.end,
		inputBefore: place.inputBefore,
	});
}

/** What a reference's path is relative to: pi's cwd when the file is inside it, else the project. */
function referenceBase(file: string, place: { cwd: string; projectDir: string }): string {
	return isInside(file, place.cwd) ? place.cwd : place.projectDir;
}
