import { absoluteFile, freshSelection } from "../../editors/core/active-buffer.ts";
import type { GoneReason, UnsavedUnknown } from "../../editors/core/editor.ts";
import type { EditorState } from "../../editors/core/protocol-state.ts";
import { clip, sanitizeForDisplay } from "../../shared/core/display-text.ts";
import { shownPath } from "../../shared/core/paths.ts";
import { bufferFields, type EditorFields } from "./editor-block.ts";
import type { SelectionPayload, SelectionSource } from "./selection-payload.ts";

const MAX_LABEL_CHARS = 120;

/** What pi knows about the connected editor as a prompt starts: what `contextMessage` decides on. */
export type EditorForPrompt =
	| {
			kind: "editor";
			/** The buffer's lines (no selection). */
			fields: EditorFields;
			/** A fresh selection, prepared for the prompt. */
			selection?: SelectionPayload;
			/** Display name of the file for the transcript (sanitised, relative to the project when inside it). */
			fileLabel: string;
			cursorLine?: number;
	  }
	| { kind: "gone"; reason: GoneReason };

/** The selection that counts for this prompt, still to be cut, checked and redacted; undefined when stale. */
export function freshSelectionSource(
	state: EditorState,
	selectionFirstSeenSeconds: number,
	nowSeconds: number,
): SelectionSource | undefined {
	const file = absoluteFile(state);
	const fresh = freshSelection(state, selectionFirstSeenSeconds, nowSeconds);
	if (!fresh || file === undefined) return undefined;
	return { file, language: state.active_buffer?.language, selection: fresh.selection };
}

/**
 * The connected editor as the prompt describes it, with its prepared selection; "no file" when it shows no
 * named buffer. The transcript names the file relative to the project when it is inside it.
 */
export function editorForPrompt(
	state: EditorState,
	projectDir: string,
	selection: SelectionPayload | undefined,
	options: { unsavedUnknown?: UnsavedUnknown; diagnostics?: string } = {},
): EditorForPrompt {
	const buffer = bufferFields(state, options);
	const fields = buffer && options.diagnostics !== undefined ? { ...buffer, Diagnostics: options.diagnostics } : buffer;
	const file = absoluteFile(state);
	if (!fields || file === undefined) return { kind: "gone", reason: "no-file" };
	const shown = shownPath(file, projectDir);
	const cursorLine = state.active_buffer?.cursor?.line;
	return {
		kind: "editor",
		fields,
		fileLabel: clip(sanitizeForDisplay(shown), MAX_LABEL_CHARS),
		...(typeof cursorLine === "number" && { cursorLine }),
		...(selection && { selection }),
	};
}
