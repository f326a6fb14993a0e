import type { Ask, BufferRef, Span } from "../../../../src/asks/core/ask-messages.ts";
import { placeholdersIn } from "../../../../src/asks/core/placeholders.ts";
import type { AskNews } from "../../../../src/editors/editor-asks.ts";
import type { ClientOffer } from "../../../../src/editors/state-dir/core/suggestion-offer.ts";
import { isFields } from "../../../../src/shared/core/fields.ts";
import { isSameOrInside } from "../../../../src/shared/core/paths.ts";
import { diagnosticsOf, type EditorSnapshot, type TextPosition } from "./client-state.ts";
import { byteColumn } from "./columns.ts";
import { readQuestionNews } from "./questions.ts";

/**
 * Asks as the client sends them (pure): which pi an ask goes to, the ask's params (the prompt and the text each
 * placeholder it uses stands for now, in pi's `ask` shape), and pi's news read back for the status bar, the log,
 * the reply's view and pi's questions. The types are pi's own (src/asks/core/ask-messages.ts), imported as types only: the
 * bundle carries no schema library, pi checks every field.
 */

/** What the user may type at most (UTF-8), as pi takes it (its MAX_TYPED_BYTES; a test keeps them equal). */
export const MAX_TYPED_BYTES = 64 * 1024;
/** `@buffers` names at most this many (pi's MAX_LISTED_BUFFERS). */
export const MAX_LISTED_BUFFERS = 50;
/** A placeholder's text at most (pi's schema refuses a longer one; pi cuts it to 64 KiB after). */
export const MAX_SPAN_CHARS = 1024 * 1024;
/** The reply's view holds at most this much (pi sends 256 KiB at most). */
export const MAX_REPLY_CHARS = 512 * 1024;
/** A status line is cut to this for the status bar (the log and the tooltip keep MAX_STATUS_CHARS). */
export const STATUS_BAR_CHARS = 80;
const MAX_STATUS_CHARS = 400;

/** A pi's offer as the client holds it: its connection's id, and `order` growing with each offer made. */
export interface HeldAsker {
	id: number;
	offer: ClientOffer;
	order: number;
}

/**
 * The pis an ask of this window may go to: those that offered asks, of the deepest project holding the document
 * (by any of its names) or, with no document, a workspace folder; when no project holds any, every pi that
 * offered asks to this window (each offered itself because the window works in its project).
 */
export function askersFor<T extends HeldAsker>(held: Iterable<T>, names: readonly string[]): T[] {
	const asking = [...held].filter((candidate) => candidate.offer.asks);
	let deepest: T[] = [];
	for (const candidate of asking) {
		if (!names.some((name) => isSameOrInside(name, candidate.offer.project))) continue;
		const depth = candidate.offer.project.length - (deepest[0]?.offer.project.length ?? -1);
		if (depth > 0) deepest = [candidate];
		else if (depth === 0) deepest.push(candidate);
	}
	return deepest.length > 0 ? deepest : asking;
}

export type AskerChoice<T> = { kind: "one"; asker: T } | { kind: "pick"; among: T[] } | { kind: "none" };

/**
 * Which of them: the one connected to this window; else the only one; else the one the user picked before (while
 * its offer stands); else the user picks (the latest offer first).
 */
export function chooseAsker<T extends HeldAsker>(candidates: readonly T[], remembered?: number): AskerChoice<T> {
	if (candidates.length === 0) return { kind: "none" };
	const connected = candidates.filter((candidate) => candidate.offer.connected);
	const pool = connected.length > 0 ? connected : candidates;
	const only = pool.length === 1 ? pool[0] : pool.find((candidate) => candidate.id === remembered);
	if (only) return { kind: "one", asker: only };
	return { kind: "pick", among: [...pool].sort((a, b) => b.order - a.order) };
}

/** A document as an ask names it: its file, else VS Code's name for it (`Untitled-1`), and its text when asked. */
export interface ViewedDocument {
	/** The absolute path of a `file:` document; none for an untitled one or another scheme's. */
	file?: string;
	name: string;
	text: () => string;
}

/** What VS Code shows when the user asks, as plain data and readers (the rules below never touch `vscode`). */
export interface AskView {
	active?: ViewedDocument & {
		/** A line's text, 0-based. */
		lineText: (line: number) => string;
		cursor: TextPosition;
		/** The primary selection when not empty (VS Code's end is exclusive). */
		selection?: { start: TextPosition; end: TextPosition };
		diagnostics: NonNullable<EditorSnapshot["editor"]>["diagnostics"];
	};
	/** The documents of the window's tabs, in their order. */
	buffers: readonly ViewedDocument[];
}

type Active = NonNullable<AskView["active"]>;

/** `ask`'s params: the prompt as typed and, for each placeholder it uses, what that stands for now. */
export function askParams(prompt: string, view: AskView): Ask {
	const used = new Set(placeholdersIn(prompt));
	const { active } = view;
	const placeholders: NonNullable<Ask["placeholders"]> = {};
	const selection = active && selectionSpan(active);
	if (active && used.has("this")) placeholders.this = selection ?? lineSpan(active);
	if (selection && used.has("selection")) placeholders.selection = selection;
	if (active && used.has("buffer"))
		placeholders.buffer =
			active.file !== undefined ? { file: active.file } : { name: active.name, text: cut(active.text()) };
	if (used.has("buffers")) placeholders.buffers = listed(view.buffers);
	if (active && used.has("diagnostics"))
		placeholders.diagnostics = { ...where(active), items: diagnosticsOf(active.diagnostics) };
	return { prompt, ...(Object.keys(placeholders).length > 0 && { placeholders }) };
}

/** `add`'s params: the selection's lines, else the cursor's line; none for a document with no file. */
export function addParams(active: AskView["active"]): { file: string; startLine: number; endLine: number } | undefined {
	if (active?.file === undefined) return undefined;
	const span = selectionSpan(active) ?? lineSpan(active);
	return { file: active.file, startLine: span.startLine, endLine: span.endLine };
}

const where = (document: ViewedDocument) =>
	document.file !== undefined ? { file: document.file } : { name: document.name };

const cut = (text: string) => (text.length <= MAX_SPAN_CHARS ? text : text.slice(0, MAX_SPAN_CHARS));

/**
 * One line: exactly the selected text, with its columns (1-based UTF-8 bytes, inclusive, as the state file's);
 * several: the whole lines it touches. A selection ending at a line's start does not take that line; one that
 * holds only a line break is none.
 */
function selectionSpan(active: Active): Span | undefined {
	const selected = active.selection;
	if (!selected) return undefined;
	const { start } = selected;
	const end =
		selected.end.line > start.line && selected.end.character === 0
			? { line: selected.end.line - 1, character: active.lineText(selected.end.line - 1).length }
			: selected.end;
	if (end.line === start.line) {
		const line = active.lineText(start.line);
		const text = line.slice(start.character, end.character);
		if (text === "") return undefined;
		return {
			...where(active),
			startLine: start.line + 1,
			endLine: start.line + 1,
			startColumn: byteColumn(line, start.character),
			endColumn: byteColumn(line, end.character - 1),
			text,
		};
	}
	const lines: string[] = [];
	let chars = 0;
	for (let line = start.line; line <= end.line && chars <= MAX_SPAN_CHARS; line++) {
		const text = active.lineText(line);
		lines.push(text);
		chars += text.length + 1;
	}
	return { ...where(active), startLine: start.line + 1, endLine: end.line + 1, text: cut(lines.join("\n")) };
}

function lineSpan(active: Active): Span {
	const line = active.cursor.line + 1;
	return { ...where(active), startLine: line, endLine: line, text: cut(active.lineText(active.cursor.line)) };
}

/** The tabs' documents, each once, at most MAX_LISTED_BUFFERS: a file by its path, another by its name. */
function listed(buffers: readonly ViewedDocument[]): BufferRef[] {
	const seen = new Set<string>();
	const refs: BufferRef[] = [];
	for (const buffer of buffers) {
		const id = buffer.file ?? `\u0000${buffer.name}`;
		if (seen.has(id)) continue;
		seen.add(id);
		refs.push(where(buffer));
		if (refs.length >= MAX_LISTED_BUFFERS) break;
	}
	return refs;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * pi's `pi/askNews` params, checked: a status line (one line, cut), the reply (cut), or one of pi's questions
 * (core/questions.ts); anything else none.
 */
export function readNews(params: unknown): AskNews | undefined {
	if (!isFields(params)) return undefined;
	if (params.kind === "question" || params.kind === "notice" || params.kind === "questionClosed")
		return readQuestionNews(params);
	if (typeof params.text !== "string") return undefined;
	if (params.kind === "status") {
		const { level } = params;
		if (level !== "info" && level !== "working" && level !== "error") return undefined;
		const text = params.text
			.replace(/\s*[\r\n]+\s*/g, " ")
			.replace(CONTROL, "")
			.trim();
		return { kind: "status", text: clipped(text, MAX_STATUS_CHARS), level };
	}
	if (params.kind === "reply" && typeof params.streaming === "boolean") {
		const text = params.text.replace(/\r\n?/g, "\n").replace(CONTROL, "");
		return { kind: "reply", text: text.slice(0, MAX_REPLY_CHARS), streaming: params.streaming };
	}
	return undefined;
}

const ICONS = { info: "$(check)", working: "$(sync~spin)", error: "$(error)" } as const;

/** The status bar's text: the level's icon, then the line cut to STATUS_BAR_CHARS; pi's `$(` never an icon. */
export function statusBarText(news: { text: string; level: keyof typeof ICONS }): string {
	return `${ICONS[news.level]} ${clipped(news.text, STATUS_BAR_CHARS).replace(/\$\(/g, "$\u200b(")}`;
}

const clipped = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
