import { absoluteFile } from "../../editors/core/active-buffer.ts";
import type { GoneReason, UnsavedUnknown } from "../../editors/core/editor.ts";
import type { EditorState, Selection } from "../../editors/core/protocol-state.ts";
import { escapeForPrompt } from "../../shared/core/display-text.ts";
import { lineSpan } from "../../shared/core/text-cuts.ts";

export const EDITOR_BLOCK_OPEN = "<editor-context>";
export const EDITOR_BLOCK_CLOSE = "</editor-context>";

const FULL_HEADER = `The user's editor state as of this prompt ("this file", "here" and "the selection" refer to it).`;
const DELTA_HEADER =
	"The user's editor changed since the previous editor context; only these lines differ, the rest is as it was:";
const UNCHANGED_TEXT = "The user's editor is still connected and unchanged since the previous editor context.";
const GONE_TAIL = "the previous editor context no longer applies.";

const GONE_TEXT: Record<GoneReason, string> = {
	disconnected: `The editor is disconnected: ${GONE_TAIL}`,
	"no-file": `The editor has no file open now: ${GONE_TAIL}`,
	// Whoever reported it (a state file, Zed's database, a Neovim's server): the words fit every origin.
	rejected: `The editor's state is unknown (the latest state it reported was rejected): ${GONE_TAIL}`,
};

/** The editor cannot tell unsaved changes: said, not guessed, with what the positions count. */
const UNSAVED_UNKNOWN: Record<UnsavedUnknown, string> = {
	"no-unsaved-text":
		"unsaved changes unknown (the editor keeps no unsaved text here: positions are against the file on disk)",
	"not-told": "unsaved changes unknown (the editor does not tell them)",
};

/**
 * The block's lines in order; each value is the whole line the model reads (`Cursor: line 4, column 1`).
 * Diagnostics is a section of lines, read after the selection's text.
 */
export const FIELD_ORDER = ["App", "File", "Language", "Cursor", "Buffer", "Selection", "Diagnostics"] as const;
export type FieldName = (typeof FIELD_ORDER)[number];
export type EditorFields = Partial<Record<FieldName, string>>;

/**
 * What the block says about the buffer, without the selection: undefined for an unnamed buffer or no buffer
 * at all (there is nothing to point the model at).
 */
export function bufferFields(
	state: EditorState,
	options: { unsavedUnknown?: UnsavedUnknown } = {},
): EditorFields | undefined {
	const buffer = state.active_buffer;
	const file = absoluteFile(state);
	if (!buffer || file === undefined) return undefined;
	const line = (text: string) => escapeForPrompt(text, false);
	const fields: EditorFields = { App: `App: ${line(state.app)}`, File: `File: ${line(file)}` };
	if (buffer.language) fields.Language = `Language: ${line(buffer.language)}`;
	const { line: cursorLine, column: cursorColumn } = buffer.cursor ?? {};
	if (typeof cursorLine === "number") {
		fields.Cursor = `Cursor: line ${cursorLine}${typeof cursorColumn === "number" ? `, column ${cursorColumn}` : ""}`;
	}
	fields.Buffer = `Buffer: ${buffer.lines_total} lines, ${
		buffer.modified
			? "unsaved changes"
			: options.unsavedUnknown
				? UNSAVED_UNKNOWN[options.unsavedUnknown]
				: "no unsaved changes"
	}`;
	return fields;
}

/** `lines 2-4 (from line 2 column 1 to line 4 column 5)`. */
export function selectionRange(selection: Pick<Selection, "start" | "end">): string {
	const { start, end } = selection;
	return `${lineSpan(start.line, end.line)} (from line ${start.line} column ${start.column} to line ${end.line} column ${end.column})`;
}

/** The lines, the selection's text after them, then the diagnostics section. */
const blockLines = (fields: EditorFields, body: string | undefined) => [
	...FIELD_ORDER.flatMap((name) => (name === "Diagnostics" || fields[name] === undefined ? [] : [fields[name]])),
	...(body ? [body] : []),
	...(fields.Diagnostics === undefined ? [] : [fields.Diagnostics]),
];

/** Everything the model needs about the editor, with the selection's text when it goes along. */
export function fullBlock(fields: EditorFields, body?: string): string {
	return [EDITOR_BLOCK_OPEN, FULL_HEADER, ...blockLines(fields, body), EDITOR_BLOCK_CLOSE].join("\n");
}

/** Only the lines that differ from what the model has; a selection that went away reads `Selection: none`. */
export function deltaBlock(changed: EditorFields, body?: string): string {
	return [EDITOR_BLOCK_OPEN, DELTA_HEADER, ...blockLines(changed, body), EDITOR_BLOCK_CLOSE].join("\n");
}

export const SELECTION_NONE = "Selection: none";

export function unchangedLine(): string {
	return `${EDITOR_BLOCK_OPEN}${UNCHANGED_TEXT}${EDITOR_BLOCK_CLOSE}`;
}

export function goneLine(reason: GoneReason): string {
	return `${EDITOR_BLOCK_OPEN}${GONE_TEXT[reason]}${EDITOR_BLOCK_CLOSE}`;
}
