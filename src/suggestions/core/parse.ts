import { withoutControlCharacters } from "../../shared/core/display-text.ts";

/**
 * The model's answer made into what the editor shows as ghost text, as the seed pi-ide reads it: only closed
 * `<SUGGESTION>` blocks (an unclosed one was cut by the token limit and is not what the model meant), each
 * cleaned of what models add anyway (a fence, the current line written again), dropped when an editor cannot
 * draw it, and stripped of control characters: the answer is display text, never run.
 */

export interface SuggestionContext {
	language?: string;
	cursorBefore: string;
	cursorAfter: string;
	/** At most this many are kept (the request's `suggestionCount`). */
	count: number;
	/** Comment mode (pi-ide.nvim's `cursorInComment`): the first line only, a repeated comment marker dropped. */
	cursorInComment?: boolean;
}

const BLOCK = /<SUGGESTION>([\s\S]*?)<\/SUGGESTION>/g;

/** A whole candidate in a backtick fence (its info string and blank lines around it allowed). */
const FENCED = /^[ \t\n]*(`{3,})[^`\n]*\n([\s\S]*?)\n?\1[ \t\n]*$/;

/** In these a fence is the text itself, not a wrapper the model added. */
const MARKDOWN_LANGUAGE = /^(?:markdown|md|mdx|rmd|rmarkdown|quarto|qmd)$/i;

/** The markers a comment line starts with, a candidate's leading one caught with the space after it. */
const LEADING_COMMENT_MARKER = /^[ \t]*(\/\/[/!]?|\/\*+|\*+|--+|#+|;+|%+)([ \t]?)/;

/** The candidates, in the model's order, each at most once: 0 to `count` of them. */
export function parseSuggestions(modelText: string, context: SuggestionContext): string[] {
	const count = Math.trunc(context.count);
	if (!(count > 0)) return [];
	const text = modelText.replace(/\r\n?/g, "\n");
	const linePrefix = context.cursorBefore.slice(context.cursorBefore.lastIndexOf("\n") + 1);
	const lineRest = context.cursorAfter.split("\n", 1)[0] ?? "";
	const markdown = context.language !== undefined && MARKDOWN_LANGUAGE.test(context.language.trim());
	const kept: string[] = [];
	for (const match of text.matchAll(BLOCK)) {
		let candidate = match[1] ?? "";
		if (!markdown) candidate = FENCED.exec(candidate)?.[2] ?? candidate;
		// Only an exact repeat: any other leading whitespace is part of the insertion.
		if (linePrefix !== "" && candidate.startsWith(linePrefix)) candidate = candidate.slice(linePrefix.length);
		if (context.cursorInComment === true) candidate = commentContinuation(candidate, linePrefix);
		// An editor cannot move the rest of the line below lines it only draws (Neovim's virtual lines).
		if (candidate.includes("\n") && lineRest.trim() !== "") continue;
		candidate = displayText(candidate);
		if (candidate.trim() === "" || kept.includes(candidate)) continue;
		kept.push(candidate);
		if (kept.length >= count) break;
	}
	return kept;
}

/**
 * The first line only, and a comment marker the model wrote again dropped when the line already has it; the
 * space after it stays when the line does not end in one.
 */
function commentContinuation(candidate: string, linePrefix: string): string {
	const firstLine = candidate.split("\n", 1)[0] ?? "";
	const marker = LEADING_COMMENT_MARKER.exec(firstLine);
	if (!marker?.[1] || !linePrefix.includes(marker[1])) return firstLine;
	const space = marker[2] !== "" && !/[ \t]$/.test(linePrefix) ? " " : "";
	return space + firstLine.slice(marker[0].length);
}

/**
 * Text an editor draws: newlines and tabs kept; escape sequences, other C0 and C1 controls, DEL, bidi
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the bidi marks and line separators
 * dropped. Cut at newlines and tabs first, so an escape sequence cannot swallow one.
 */
export function displayText(text: string): string {
	return text
		.split(/([\n\t])/)
		.map((piece, index) => (index % 2 === 1 ? piece : withoutControlCharacters(piece)))
		.join("");
}
