import type { EditorNow } from "./context-message.ts";
import { clip, sanitizeForDisplay } from "./display-text.ts";
import { bufferFields, type EditorFields } from "./editor-block.ts";
import { absoluteFile, freshSelection } from "./editor-view.ts";
import { isInside } from "./path-match.ts";
import type { SelectionPayload, SelectionSource } from "./selection-payload.ts";
import type { EditorState } from "./state-schema.ts";

const MAX_LABEL_CHARS = 120;

export interface EditorDescription {
	fields: EditorFields;
	fileLabel: string;
	cursorLine?: number;
	/** The selection that counts for this prompt, still to be cut, checked and redacted. */
	fresh?: SelectionSource;
}

/**
 * The connected editor as the prompt will describe it, or undefined when it shows no named buffer. The
 * transcript names the file relative to the project when it is inside it.
 */
export function describeEditor(
	state: EditorState,
	selectionFirstSeenSeconds: number,
	nowSeconds: number,
	projectDir: string,
): EditorDescription | undefined {
	const fields = bufferFields(state);
	const file = absoluteFile(state);
	if (!fields || file === undefined) return undefined;
	const shown = isInside(file, projectDir) ? file.slice(projectDir.replace(/\/+$/, "").length + 1) : file;
	const cursorLine = state.active_buffer?.cursor?.line;
	const fresh = freshSelection(state, selectionFirstSeenSeconds, nowSeconds);
	return {
		fields,
		fileLabel: clip(sanitizeForDisplay(shown), MAX_LABEL_CHARS),
		...(typeof cursorLine === "number" && { cursorLine }),
		...(fresh && { fresh: { file, language: state.active_buffer?.language, selection: fresh.selection } }),
	};
}

/** The description plus its prepared selection: what `contextMessage` decides on. */
export function editorNow(editor: EditorDescription, selection: SelectionPayload | undefined): EditorNow {
	return {
		kind: "editor",
		fields: editor.fields,
		fileLabel: editor.fileLabel,
		...(editor.cursorLine !== undefined && { cursorLine: editor.cursorLine }),
		...(selection && { selection }),
	};
}
