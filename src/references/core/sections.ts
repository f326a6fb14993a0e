import { clip, escapeForPrompt, sanitizeForDisplay } from "../../shared/core/display-text.ts";
import { contentId, fencedText, lineSpan } from "../../shared/core/text-cuts.ts";
import { lineAnchor } from "./parse.ts";

/** At most this much referenced text (after cutting) goes with one prompt; further references are named only. */
export const MAX_REFERENCED_BYTES_PER_PROMPT = 256 * 1024;

const OPEN = "<editor-reference>";
const CLOSE = "</editor-reference>";

/** What became of one reference, decided by the shell from the file, the editor and the rules. */
export type ResolvedReference =
	| {
			kind: "text";
			/** Absolute path, and the path shown in the transcript (relative to the project when inside it). */
			file: string;
			shown: string;
			startLine: number;
			endLine: number;
			/** The lines as sent: cut to the cap, credentials redacted. */
			text: string;
			language?: string;
			/** Where the text came from: the editor's selection may hold unsaved edits. */
			from: "selection" | "disk";
			/** A selection inside one line (an editor's ask): the columns it covers, 1-based and inclusive. */
			columns?: { start: number; end: number };
			/** The editor reports unsaved changes in this file, and the text is the file on disk. */
			unsavedInEditor: boolean;
			/** The range asked for ran past the end of the file. */
			clippedFrom?: { endLine: number; lines: number };
			cutNote?: string;
			redactions: number;
	  }
	| { kind: "withheld"; file: string; shown: string; startLine: number; endLine: number; reason: string; label: string }
	| { kind: "problem"; shown: string; problem: string };

/** The identity of a referenced text as sent: the same file, range and text is the same thing to the model. */
export function referenceId(reference: { file: string; startLine: number; endLine: number; text: string }): string {
	const { file, startLine, endLine, text } = reference;
	return contentId(["reference", file, startLine, endLine, text]);
}
const inPrompt = (text: string) => escapeForPrompt(text, false);
const forDisplay = (text: string) => clip(sanitizeForDisplay(text), 80);

export interface ReferenceSections {
	/** What the model reads, one section per reference (empty when there is nothing to say). */
	sections: string[];
	/** The ids of the texts these sections carry in full. */
	sentIds: string[];
	/** The transcript's words: `src/util.ts#L2-3 attached`. */
	summaries: string[];
}

/**
 * The sections of one prompt's references. A text the model already holds (same file, range and text) is
 * one line; so is a text the ambient block carries with this very prompt (the fresh selection); past the
 * per-prompt budget, a reference is named and not attached.
 */
export function referenceSections(
	resolved: readonly ResolvedReference[],
	notes: readonly string[],
	options: {
		alreadySent: ReadonlySet<string>;
		ambientSelection?: { file: string; startLine: number; endLine: number };
	},
): ReferenceSections {
	const sections: string[] = [];
	const sentIds: string[] = [];
	const summaries: string[] = [];
	let bytes = 0;
	for (const note of notes) {
		sections.push(`${OPEN}${inPrompt(note)}${CLOSE}`);
		summaries.push(forDisplay(note));
	}
	for (const reference of resolved) {
		if (reference.kind === "problem") {
			sections.push(`${OPEN}${inPrompt(`${reference.shown}: ${reference.problem}`)}${CLOSE}`);
			summaries.push(`${forDisplay(reference.shown)}: ${reference.problem}`);
			continue;
		}
		const where = `${inPrompt(reference.file)} ${lineSpan(reference.startLine, reference.endLine)}`;
		const label = `${forDisplay(reference.shown)}${lineAnchor(reference.startLine, reference.endLine)}`;
		if (reference.kind === "withheld") {
			sections.push(`${OPEN}${where}: text withheld: ${inPrompt(reference.reason)}${CLOSE}`);
			summaries.push(`${label} withheld (${reference.label})`);
			continue;
		}
		const ambient = options.ambientSelection;
		if (
			ambient &&
			reference.from === "selection" &&
			ambient.file === reference.file &&
			ambient.startLine === reference.startLine &&
			ambient.endLine === reference.endLine
		) {
			sections.push(`${OPEN}${where}: the selection in the editor context above${CLOSE}`);
			summaries.push(`${label} is the selection`);
			continue;
		}
		const id = referenceId(reference);
		if (options.alreadySent.has(id)) {
			sections.push(`${OPEN}${where}: the same text as sent with an earlier prompt${CLOSE}`);
			summaries.push(`${label} unchanged, not resent`);
			continue;
		}
		const size = Buffer.byteLength(reference.text, "utf8");
		if (bytes + size > MAX_REFERENCED_BYTES_PER_PROMPT) {
			sections.push(`${OPEN}${where}: not attached (256 KiB of referenced text per prompt reached)${CLOSE}`);
			summaries.push(`${label} not attached (256 KiB per prompt)`);
			continue;
		}
		bytes += size;
		sentIds.push(id);
		sections.push(textSection(reference, where));
		summaries.push(
			`${label} attached${reference.redactions > 0 ? `, ${reference.redactions} ${reference.redactions === 1 ? "secret" : "secrets"} redacted` : ""}`,
		);
	}
	return { sections, sentIds, summaries };
}

function textSection(reference: Extract<ResolvedReference, { kind: "text" }>, where: string): string {
	const source =
		reference.from === "selection"
			? "from the editor's selection, which may hold unsaved edits"
			: "from the file on disk";
	const columns = reference.columns ? `, columns ${reference.columns.start}-${reference.columns.end}` : "";
	const lines = [`${OPEN}`, `The user referenced ${where}${columns} (${source}):`];
	if (reference.clippedFrom) {
		const { endLine, lines: total } = reference.clippedFrom;
		lines.push(`[asked up to line ${endLine}; the file has ${total} ${total === 1 ? "line" : "lines"}]`);
	}
	if (reference.unsavedInEditor) lines.push("[the editor has unsaved changes to this file; this is the text on disk]");
	lines.push(fencedText(reference.text, reference.language, reference.cutNote), CLOSE);
	return lines.join("\n");
}
