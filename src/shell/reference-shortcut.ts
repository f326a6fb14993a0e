import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { insertedReference } from "../core/code-reference.ts";
import { absoluteFile } from "../core/editor-view.ts";
import { isInside } from "../core/path-match.ts";
import type { IdeController } from "./ide-controller.ts";

/** The key that inserts a reference to what the editor shows, as Claude Code's ctrl+alt+k does. */
export const REFERENCE_SHORTCUT = "ctrl+alt+k";

/**
 * Inserts at the cursor of pi's input a reference to the connected editor's selection (fresh or stale), else
 * to its cursor line. Nothing connected, or no named buffer: a notice, nothing inserted. Synchronous on
 * purpose: pi redraws after the key's handler returns, and an insertion after an `await` would show only
 * with the next key (seen on both pi lines in tmux). The widget shows the same in-memory state.
 */
export function insertEditorReference(ctx: ExtensionContext, controller: IdeController): void {
	if (!ctx.hasUI) return;
	const editor = controller.connectedEditor();
	const file = editor && absoluteFile(editor.state);
	if (!editor || file === undefined) {
		const why = editor ? "the editor shows no file" : "no editor is connected (/ide picks one)";
		ctx.ui.notify(`pi-ide: nothing to reference: ${why}`, "info");
		return;
	}
	const buffer = editor.state.active_buffer;
	const selection = buffer?.selection;
	const cursorLine = buffer?.cursor?.line;
	const lines = selection
		? { startLine: selection.start.line, endLine: selection.end.line }
		: typeof cursorLine === "number"
			? { startLine: cursorLine, endLine: cursorLine }
			: undefined;
	if (!lines) {
		ctx.ui.notify("pi-ide: nothing to reference: the editor reports no selection and no cursor", "info");
		return;
	}
	const cwd = isInside(file, ctx.cwd) ? ctx.cwd : controller.project;
	ctx.ui.pasteToEditor(insertedReference({ file, cwd, ...lines, inputBefore: ctx.ui.getEditorText() }));
}

/** The reference to the connected editor's selection (fresh or stale) as `@` completion offers it, if any. */
export function selectionReference(controller: IdeController, cwd: string): string | undefined {
	const editor = controller.connectedEditor();
	const file = editor && absoluteFile(editor.state);
	const selection = editor?.state.active_buffer?.selection;
	if (file === undefined || !selection) return undefined;
	const base = isInside(file, cwd) ? cwd : controller.project;
	const lines = { startLine: selection.start.line, endLine: selection.end.line };
	return insertedReference({ file, cwd: base, ...lines, inputBefore: "" }).trimEnd();
}
