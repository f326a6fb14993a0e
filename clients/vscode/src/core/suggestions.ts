import type { ClientOffer } from "../../../../src/editors/state-dir/core/suggestion-offer.ts";
import { isFields } from "../../../../src/shared/core/fields.ts";
import { isSameOrInside } from "../../../../src/shared/core/paths.ts";

/** pi's offer is read by the same checks on both sides: pi checks its own before it connects. */
export { readOffer } from "../../../../src/editors/state-dir/core/suggestion-offer.ts";

/**
 * Inline completions as the client asks pi for them (pure): which pi a document asks (the deepest project holding it, the latest offer of equals), the request in the seed's
 * `getSuggestions` shape, and pi's answer read back as at most `count` display texts.
 */

/** Each side of the cursor the request carries at most this much (pi caps it again: ~8 KB each side). */
export const CONTEXT_CHARS = 8000;
/** An automatic trigger shows one suggestion; asked by hand (Alt+\ or the command), up to this many to cycle. */
export const INVOKED_COUNT = 3;
/** A suggestion longer than this is no inline completion: dropped. */
const MAX_SUGGESTION_CHARS = 20_000;

/** An offer as the client holds it: `order` grows with each offer made. */
export interface HeldOffer {
	offer: ClientOffer;
	order: number;
}

/**
 * The pi a document asks: the deepest project holding it by any of its names (as VS Code names it, its real
 * path), the latest offer of equals; none outside them all.
 */
export function offerFor<T extends HeldOffer>(held: Iterable<T>, names: readonly string[]): T | undefined {
	let best: T | undefined;
	for (const candidate of held) {
		if (!names.some((name) => isSameOrInside(name, candidate.offer.project))) continue;
		const depth = candidate.offer.project.length - (best?.offer.project.length ?? -1);
		if (depth > 0 || (depth === 0 && best && candidate.order > best.order)) best = candidate;
	}
	return best;
}

/** Where the cursor is, as plain data: the file, its language, the text each side (already cut to CONTEXT_CHARS). */
export interface CursorContext {
	filePath: string;
	language: string;
	before: string;
	after: string;
}

/** `getSuggestions`' params, the seed's shape. */
export function suggestionRequest(context: CursorContext, count: number) {
	return {
		filePath: context.filePath,
		language: context.language,
		cursorBefore: context.before.slice(-CONTEXT_CHARS),
		cursorAfter: context.after.slice(0, CONTEXT_CHARS),
		suggestionCount: count,
	};
}

/** Control characters but tab and newline: pi strips them already; the client never shows them either way. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Why pi answered no suggestion, when it says (`{ suggestions: [], reason: "rate limited" }`); cut to one line. */
export function noSuggestionReason(result: unknown): string | undefined {
	if (!isFields(result) || typeof result.reason !== "string") return undefined;
	const reason = result.reason.replace(/\s+/g, " ").replace(CONTROL, "").trim().slice(0, 300);
	return reason === "" ? undefined : reason;
}

/** pi's `{ suggestions: [...] }`: the non-empty strings, at most `count`, duplicates once; anything else none. */
export function suggestionTexts(result: unknown, count: number): string[] {
	if (count < 1 || !isFields(result) || !Array.isArray(result.suggestions)) return [];
	const texts: string[] = [];
	for (const entry of result.suggestions) {
		if (typeof entry !== "string" || entry.length > MAX_SUGGESTION_CHARS) continue;
		const text = entry.replace(/\r\n?/g, "\n").replace(CONTROL, "");
		if (text.trim() !== "" && !texts.includes(text)) texts.push(text);
		if (texts.length >= count) break;
	}
	return texts;
}
