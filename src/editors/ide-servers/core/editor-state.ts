import { posix } from "node:path";
import { fenceLanguageOf } from "../../../shared/core/text-cuts.ts";
import type { ActiveBuffer, Diagnostic, EditorState, Selection } from "../../core/protocol-state.ts";
import type { Point0, ServerView } from "./editor-view.ts";

/** The facts of an IDE server's editor beside what it told: who holds the port, its folders, its `app`. */
export interface ServerFacts {
	pid: number;
	app: string;
	workspaceFolders: readonly string[];
	nowSeconds: number;
	/** The active file's lines when the server did not say (counted on disk by the source), else undefined. */
	linesOnDisk?: number;
	diagnostics?: readonly Diagnostic[];
}

/**
 * The protocol state a state file would hold for this editor. The first workspace folder is its cwd and the
 * others its launch evidence, as the shipped VS Code client writes them; positions become 1-based, a selection's
 * end inclusive (a selection ending at character 0 ends on the line before).
 */
export function stateOfView(view: ServerView, facts: ServerFacts): EditorState {
	const [cwd = "/", ...others] = facts.workspaceFolders;
	return {
		pid: facts.pid,
		cwd,
		timestamp: facts.nowSeconds,
		app: facts.app,
		argv: others,
		active_buffer: view.file === undefined ? null : activeBuffer(view, view.file, facts),
	};
}

function activeBuffer(view: ServerView, file: string, facts: ServerFacts): ActiveBuffer {
	return {
		file,
		name: posix.basename(file),
		// JetBrains tells no language: the file's extension names the fence, as for Zed.
		language: view.languageId ?? fenceLanguageOf(file) ?? null,
		cursor: view.cursor ? { line: view.cursor.line + 1, column: view.cursor.character + 1 } : null,
		selection: view.selection ? protocolSelection(view.selection) : null,
		modified: view.dirty?.includes(file) ?? false,
		lines_total: view.lineCount ?? facts.linesOnDisk ?? 0,
		...(facts.diagnostics && facts.diagnostics.length > 0 && { diagnostics: [...facts.diagnostics] }),
	};
}

function protocolSelection(selection: NonNullable<ServerView["selection"]>): Selection {
	const { start, text } = selection;
	const end = inclusiveEnd(selection.start, selection.end, text);
	return {
		start: { line: start.line + 1, column: start.character + 1 },
		end,
		text,
		selected_at: selection.atSeconds,
	};
}

/** The last character selected, 1-based: the exclusive end moved back, onto the line before at character 0. */
function inclusiveEnd(start: Point0, end: Point0, text: string): Selection["end"] {
	if (end.character > 0 || end.line === start.line) return { line: end.line + 1, column: Math.max(1, end.character) };
	const lines = text.replace(/\r?\n$/, "").split(/\r?\n/);
	const last = lines[lines.length - 1] ?? "";
	const column = lines.length === 1 ? start.character + last.length : last.length;
	return { line: end.line, column: Math.max(1, column) };
}

/** Whole lines: from character 0 to character 0 of a later line (shift+down), which a line reference may quote. */
export function isWholeLineSelection(selection: ServerView["selection"]): boolean {
	return (
		selection !== undefined &&
		selection.start.character === 0 &&
		selection.end.character === 0 &&
		selection.end.line > selection.start.line
	);
}
