import type { Diagnostic } from "../../editors/core/protocol-state.ts";
import { lineAnchor } from "../../references/core/parse.ts";
import { escapeForPrompt } from "../../shared/core/display-text.ts";
import type { Ask, BufferRef, Span } from "./ask-messages.ts";

/** The placeholders an ask may hold, as the user types them after `@`. */
export const PLACEHOLDER_NAMES = ["this", "selection", "buffer", "buffers", "diagnostics"] as const;
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];

/** How a buffer with no name is called, in the editor's words. */
export const NO_NAME = "[No Name]";

// Start of text or whitespace before the `@`, then no word character: `@thistle` and `a@this` stay as typed.
const PLACEHOLDER = new RegExp(`(?<=^|\\s)@(${PLACEHOLDER_NAMES.join("|")})(?![\\w-])`, "g");

/** The placeholders a typed prompt uses, so an editor sends only what is asked for. */
export function placeholdersIn(prompt: string): PlaceholderName[] {
	return [...new Set([...prompt.matchAll(PLACEHOLDER)].map((match) => match[1] as PlaceholderName))];
}

/** A text the ask carries: the shell checks its file, cuts it and redacts it, as a reference's. */
export interface SpanToAttach {
	/** Absolute; none for a buffer with no name. */
	file?: string;
	name: string;
	startLine: number;
	endLine: number;
	/** A selection inside one line: the columns it covers (1-based, inclusive). */
	columns?: { start: number; end: number };
	text: string;
}

/** An ask as pi sends it: the user's words with each placeholder a reference, and what goes along. */
export interface AskPlan {
	/** The user's words, each placeholder replaced by the reference it stands for; nothing else changed. */
	text: string;
	spans: SpanToAttach[];
	diagnostics?: { file?: string; name: string; items: readonly Diagnostic[] };
	/** What the user should know: a placeholder the editor had nothing for. */
	notes: string[];
}

/** Each placeholder in the typed words resolved from what the editor sent with them. */
export function planAsk(ask: Ask): AskPlan {
	const spans: SpanToAttach[] = [];
	const notes: string[] = [];
	const attached = new Set<string>();
	let diagnostics: AskPlan["diagnostics"];
	const attach = (span: SpanToAttach) => {
		const id = `${span.file ?? span.name}\u0000${span.startLine}\u0000${span.endLine}\u0000${span.columns?.start}`;
		if (attached.has(id)) return;
		attached.add(id);
		spans.push(span);
	};
	const given = ask.placeholders ?? {};
	const text = ask.prompt.replace(PLACEHOLDER, (typed, name: PlaceholderName) => {
		if (name === "this" || name === "selection") {
			const span = given[name];
			if (!span)
				return missing(notes, typed, name === "selection" ? "the editor had no selection" : "the editor sent no line");
			const planned = spanOf(span);
			attach(planned);
			return referenceOf(planned);
		}
		if (name === "buffer") {
			if (!given.buffer) return missing(notes, typed, "the editor sent no buffer");
			return bufferReference(given.buffer, attach);
		}
		if (name === "buffers") {
			if (!given.buffers || given.buffers.length === 0) return missing(notes, typed, "the editor listed no buffers");
			return given.buffers.map((buffer) => bufferReference(buffer, undefined)).join(" ");
		}
		if (!given.diagnostics) return missing(notes, typed, "the editor sent no diagnostics");
		const { file, name: bufferName, items } = given.diagnostics;
		diagnostics = { ...(file !== undefined && { file }), name: bufferName ?? NO_NAME, items };
		return `the diagnostics of ${file !== undefined ? pathReference(file) : (bufferName ?? NO_NAME)}`;
	});
	return { text, spans, ...(diagnostics && { diagnostics }), notes };
}

function missing(notes: string[], typed: string, why: string): string {
	if (!notes.some((note) => note.startsWith(`${typed}:`))) notes.push(`${typed}: ${why}, so it stays as typed`);
	return typed;
}

function spanOf(span: Span): SpanToAttach {
	const oneLinePart =
		span.startLine === span.endLine && span.startColumn !== undefined && span.endColumn !== undefined
			? { columns: { start: span.startColumn, end: span.endColumn } }
			: {};
	return {
		...(span.file !== undefined && { file: span.file }),
		name: span.file ?? span.name ?? NO_NAME,
		startLine: span.startLine,
		endLine: span.endLine,
		...oneLinePart,
		text: span.text,
	};
}

/** A buffer with a file is its path; one with no name is `[No Name]`, its text attached when `attach` is given. */
function bufferReference(buffer: BufferRef, attach: ((span: SpanToAttach) => void) | undefined): string {
	if (buffer.file !== undefined) return pathReference(buffer.file);
	const name = buffer.name || NO_NAME;
	if (attach && buffer.text !== undefined) {
		const lines = buffer.text === "" ? 1 : buffer.text.split("\n").length;
		attach({ name, startLine: 1, endLine: lines, text: buffer.text });
	}
	return inline(name);
}

/** `@/abs/a.ts#L2-4` (quoted when the path holds a space), or the nameless buffer's name with its lines. */
export function referenceOf(span: Pick<SpanToAttach, "file" | "name" | "startLine" | "endLine">): string {
	const anchor = lineAnchor(span.startLine, span.endLine);
	return span.file !== undefined ? `${pathReference(span.file)}${anchor}` : `${inline(span.name)}${anchor}`;
}

const pathReference = (file: string) => (/\s/.test(file) ? `@"${inline(file)}"` : `@${inline(file)}`);
const inline = (text: string) => escapeForPrompt(text, false);
