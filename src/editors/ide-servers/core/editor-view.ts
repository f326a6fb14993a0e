import { posix } from "node:path";
import { fileURLToPath } from "node:url";
import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";

/**
 * A selection's text is cut here, above pi's own 64 KiB cut (shared/core/text-cuts.ts), so a select-all of a big
 * file keeps the editor and the block gets its usual note (as Neovim's Lua cuts at the same size).
 */
export const IDE_SELECTION_CHARS = 66_000;

const Count = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
const Point = Type.Object({ line: Count, character: Count });
const Range = Type.Object({ start: Point, end: Point, isEmpty: Type.Optional(Type.Boolean()) });

/** `selection_changed`'s params and `getCurrentSelection`'s answer: every field optional, as the CLI reads it (§4). */
export const SelectionPayloadSchema = Type.Object({
	success: Type.Optional(Type.Boolean()),
	text: Type.Optional(Type.String()),
	filePath: Type.Optional(Type.String({ maxLength: 4096 })),
	fileUrl: Type.Optional(Type.String({ maxLength: 8192 })),
	selection: Type.Optional(Type.Union([Range, Type.Null()])),
});
export type SelectionPayload = Static<typeof SelectionPayloadSchema>;

const Tab = Type.Object({
	uri: Type.Optional(Type.String({ maxLength: 8192 })),
	isActive: Type.Optional(Type.Boolean()),
	isDirty: Type.Optional(Type.Boolean()),
	languageId: Type.Optional(Type.String({ maxLength: 200 })),
	lineCount: Type.Optional(Count),
	selection: Type.Optional(Type.Union([Range, Type.Null()])),
});
/** `getOpenEditors`' answer (§3): the active tab and every dirty document. */
export const OpenEditorsSchema = Type.Object({ tabs: Type.Array(Tab, { maxItems: 5000 }) });

const selectionCheck = Compile(SelectionPayloadSchema);
const editorsCheck = Compile(OpenEditorsSchema);

/** 0-based line and character, as the servers count (after a 1-based server's are moved down). */
export interface Point0 {
	line: number;
	character: number;
}

/** What pi knows of the editor behind an IDE server: each field as last told, positions 0-based. */
export interface ServerView {
	file?: string;
	languageId?: string;
	lineCount?: number;
	cursor?: Point0;
	selection?: { start: Point0; end: Point0; text: string; atSeconds: number | null };
	/** Files with unsaved changes, absolute paths, as `getOpenEditors` last said. */
	dirty?: readonly string[];
}

/** A `file://` URI or an absolute path as an absolute path; undefined for anything else (an untitled tab). */
export function pathOfUri(uri: string | undefined): string | undefined {
	if (uri === undefined) return undefined;
	if (uri.startsWith("/")) return posix.normalize(uri);
	if (!uri.startsWith("file://")) return undefined;
	try {
		const path = fileURLToPath(uri);
		return path.startsWith("/") ? path : undefined;
	} catch {
		return undefined;
	}
}

const down = (point: Point0, oneBased: boolean): Point0 =>
	oneBased ? { line: Math.max(0, point.line - 1), character: Math.max(0, point.character - 1) } : point;

export type ViewUpdate = { ok: true; view: ServerView } | { ok: false; reason: string };

/**
 * A selection payload over the view: the file, the cursor (the selection's end) and a non-empty selection, timed
 * `atSeconds` (null when pi did not see it being made). A payload that names no file says no editor is active.
 */
export function withSelectionPayload(
	view: ServerView,
	raw: unknown,
	facts: { oneBased: boolean; atSeconds: number | null },
): ViewUpdate {
	if (!selectionCheck.Check(raw)) {
		const first = selectionCheck.Errors(raw)[0];
		return {
			ok: false,
			reason: `unexpected selection${first ? ` at ${first.instancePath || "/"}: ${first.message}` : ""}`,
		};
	}
	if (raw.success === false) return { ok: true, view: { dirty: view.dirty } };
	const file = pathOfUri(raw.filePath) ?? pathOfUri(raw.fileUrl);
	if (file === undefined) return { ok: true, view: { dirty: view.dirty } };
	const sameFile = file === view.file;
	const range = raw.selection;
	const next: ServerView = {
		file,
		dirty: view.dirty,
		...(sameFile && view.languageId !== undefined && { languageId: view.languageId }),
		...(sameFile && view.lineCount !== undefined && { lineCount: view.lineCount }),
	};
	if (!range) return { ok: true, view: next };
	const start = down(range.start, facts.oneBased);
	const end = down(range.end, facts.oneBased);
	const text = (raw.text ?? "").slice(0, IDE_SELECTION_CHARS);
	const empty = range.isEmpty ?? (start.line === end.line && start.character === end.character);
	next.cursor = end;
	if (!empty && text !== "") {
		const same = view.selection && sameRange(view.selection, start, end) && view.selection.text === text;
		// The same selection told again (a replay, an answer to a query) keeps the time pi saw it made; one first
		// read by a query (no time) takes the time of the push that says it was just made.
		const known = same && sameFile ? view.selection?.atSeconds : undefined;
		next.selection = { start, end, text, atSeconds: known ?? facts.atSeconds };
	}
	return { ok: true, view: next };
}

function sameRange(selection: { start: Point0; end: Point0 }, start: Point0, end: Point0): boolean {
	return (
		selection.start.line === start.line &&
		selection.start.character === start.character &&
		selection.end.line === end.line &&
		selection.end.character === end.character
	);
}

/** `getOpenEditors` over the view: the dirty list, and the active tab's file, language and line count. */
export function withOpenEditors(view: ServerView, raw: unknown, oneBased: boolean): ViewUpdate {
	if (!editorsCheck.Check(raw)) {
		const first = editorsCheck.Errors(raw)[0];
		return {
			ok: false,
			reason: `unexpected open editors${first ? ` at ${first.instancePath || "/"}: ${first.message}` : ""}`,
		};
	}
	const dirty = raw.tabs.flatMap((tab) => {
		const path = tab.isDirty ? pathOfUri(tab.uri) : undefined;
		return path === undefined ? [] : [path];
	});
	const active = raw.tabs.find((tab) => tab.isActive);
	const file = pathOfUri(active?.uri);
	if (!active || file === undefined) return { ok: true, view: { dirty } };
	const base: ServerView = { ...(file === view.file ? view : {}), file, dirty };
	if (active.languageId !== undefined) base.languageId = active.languageId;
	if (active.lineCount !== undefined) base.lineCount = active.lineCount;
	// The active tab's selection moves the cursor only: its text is not in the answer.
	if (active.selection && file !== view.file) base.cursor = down(active.selection.end, oneBased);
	return { ok: true, view: base };
}
