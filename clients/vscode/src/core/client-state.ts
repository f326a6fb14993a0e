import type { ActiveBuffer, EditorState } from "../../../../src/editors/core/protocol-state.ts";
import type { AppId } from "./app-name.ts";
import { byteColumn } from "./columns.ts";

/** A position as VS Code gives it: 0-based line, 0-based UTF-16 character. */
export interface TextPosition {
	line: number;
	character: number;
}

/** What the extension reads from VS Code for one write, as plain data (the rules below never touch `vscode`). */
export interface EditorSnapshot {
	pid: number;
	nowSeconds: number;
	app: AppId;
	cwd: string;
	/** Every workspace folder: a multi-root window matches any of its projects. */
	argv: string[];
	/** The active text editor; undefined when there is none (welcome page, settings, all tabs closed). */
	editor?: {
		/** The file's path for a `file:` URI; undefined for untitled buffers and other schemes. */
		file?: string;
		language: string;
		lineCount: number;
		dirty: boolean;
		cursor: TextPosition;
		cursorLineText: string;
		/** The primary selection when not empty; `lines` the full lines it touches, first to last. */
		selection?: { start: TextPosition; end: TextPosition; lines: string[]; selectedAt: number | null };
		diagnostics: readonly {
			start: TextPosition;
			lineText: string;
			/** VS Code's DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint. */
			severity: number;
			message: string;
			source?: string;
		}[];
	};
	unsavedFiles: string[];
	client: string;
}

const SEVERITIES = ["error", "warning", "info", "hint"] as const;
export const MAX_DIAGNOSTICS = 100;
export const MAX_MESSAGE_CHARS = 1024;
export const MAX_UNSAVED_FILES = 1000;
/** More selected text than this is not written: pi sends 64 KiB at most, and a select-all must stay cheap. */
export const MAX_SELECTION_CHARS = 1024 * 1024;

const cut = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max));

/** The protocol v0.2 state this client writes (PROTOCOL.md), with its optional fields. */
export function clientState(snapshot: EditorSnapshot): EditorState {
	return {
		pid: snapshot.pid,
		cwd: snapshot.cwd,
		timestamp: snapshot.nowSeconds,
		app: snapshot.app,
		argv: snapshot.argv,
		active_buffer: activeBuffer(snapshot.editor),
		unsaved_files: snapshot.unsavedFiles.slice(0, MAX_UNSAVED_FILES),
		client: snapshot.client,
	};
}

const NO_FILE: ActiveBuffer = {
	file: null,
	name: "[No File]",
	language: null,
	cursor: null,
	selection: null,
	modified: false,
	lines_total: 0,
};

function activeBuffer(editor: EditorSnapshot["editor"]): ActiveBuffer {
	if (!editor?.file) return NO_FILE;
	return {
		file: editor.file,
		name: editor.file.slice(editor.file.lastIndexOf("/") + 1),
		language: editor.language || null,
		cursor: { line: editor.cursor.line + 1, column: byteColumn(editor.cursorLineText, editor.cursor.character) },
		selection: editor.selection ? selection(editor.selection) : null,
		modified: editor.dirty,
		lines_total: editor.lineCount,
		diagnostics: diagnosticsOf(editor.diagnostics),
	};
}

/**
 * One line: the exact bytes; several: whole lines (the protocol's rule). VS Code's end is exclusive: a
 * selection ending at a line's start does not take that line.
 */
function selection(selected: NonNullable<NonNullable<EditorSnapshot["editor"]>["selection"]>) {
	const { start, lines } = selected;
	const end =
		selected.end.line > start.line && selected.end.character === 0
			? { line: selected.end.line - 1, character: (lines[lines.length - 2] ?? "").length }
			: selected.end;
	const kept = lines.slice(0, end.line - start.line + 1);
	const first = kept[0] ?? "";
	const last = kept[kept.length - 1] ?? "";
	const text = end.line === start.line ? first.slice(start.character, end.character) : kept.join("\n");
	return {
		start: { line: start.line + 1, column: byteColumn(first, start.character) },
		end: { line: end.line + 1, column: byteColumn(last, Math.max(end.character - 1, 0)) },
		text: cut(text, MAX_SELECTION_CHARS),
		selected_at: selected.selectedAt,
	};
}

/** Errors first, at most 100, each message cut to 1024 characters (the state file's, and an ask's `@diagnostics`). */
export function diagnosticsOf(items: NonNullable<EditorSnapshot["editor"]>["diagnostics"]) {
	return [...items]
		.sort((a, b) => a.severity - b.severity || a.start.line - b.start.line)
		.slice(0, MAX_DIAGNOSTICS)
		.map((item) => ({
			line: item.start.line + 1,
			column: byteColumn(item.lineText, item.start.character),
			severity: SEVERITIES[item.severity] ?? "hint",
			message: cut(item.message, MAX_MESSAGE_CHARS),
			...(item.source ? { source: cut(item.source, 200) } : {}),
		}));
}
