import type { SuggestionOffer } from "../../../../src/editors/state-dir/core/suggestion-offer.ts";
import { isSameOrInside, normalizePath } from "../../../../src/shared/core/paths.ts";

/**
 * Inline completions as the client asks pi for them (pure): pi's offer read with the client's own checks, which
 * pi a document asks (the deepest project holding it, the latest offer of equals), the request in the seed's
 * `getSuggestions` shape, and pi's answer read back as at most `count` display texts.
 */

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields =>
	typeof value === "object" && value !== null && !Array.isArray(value);

const MAX_PATH_CHARS = 4096;
const MAX_DEBOUNCE_MS = 10_000;
const MAX_TIMEOUT_MS = 120_000;
const MAX_GLOBS = 500;
const MAX_GLOB_CHARS = 500;
/** Each side of the cursor the request carries at most this much (pi caps it again: ~8 KB each side). */
export const CONTEXT_CHARS = 8000;
/** An automatic trigger shows one suggestion; asked by hand (Alt+\ or the command), up to this many to cycle. */
export const INVOKED_COUNT = 3;
/** A suggestion longer than this is no inline completion: dropped. */
const MAX_SUGGESTION_CHARS = 20_000;

export type OfferRead = { ok: true; offer: SuggestionOffer } | { ok: false; reason: string };

const wholeIn = (value: unknown, min: number, max: number): value is number =>
	typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

export function readOffer(params: unknown): OfferRead {
	if (!isFields(params)) return { ok: false, reason: "the offer is no object" };
	const { project, pid, debounceMs, timeoutMs, secretFiles } = params;
	if (
		typeof project !== "string" ||
		!project.startsWith("/") ||
		project.length > MAX_PATH_CHARS ||
		project.includes("\0")
	)
		return { ok: false, reason: "the offer's project is no absolute path" };
	if (!wholeIn(pid, 1, 2 ** 31)) return { ok: false, reason: "the offer's pid is no pid" };
	if (!wholeIn(debounceMs, 0, MAX_DEBOUNCE_MS)) return { ok: false, reason: `debounceMs is not 0..${MAX_DEBOUNCE_MS}` };
	if (!wholeIn(timeoutMs, 1, MAX_TIMEOUT_MS)) return { ok: false, reason: `timeoutMs is not 1..${MAX_TIMEOUT_MS}` };
	if (
		!Array.isArray(secretFiles) ||
		secretFiles.length > MAX_GLOBS ||
		!secretFiles.every((glob) => typeof glob === "string" && glob.length <= MAX_GLOB_CHARS)
	)
		return { ok: false, reason: `secretFiles is not a list of at most ${MAX_GLOBS} globs` };
	// Depth is compared by length: `/a/b/` or `/a/./b` must not beat `/a/b`.
	const offer = { project: normalizePath(project), pid, debounceMs, timeoutMs, secretFiles: secretFiles as string[] };
	return { ok: true, offer };
}

/** An offer as the client holds it: `order` grows with each offer made. */
export interface HeldOffer {
	offer: SuggestionOffer;
	order: number;
}

/** The pi a document at `path` asks: the deepest project holding it, the latest offer of equals; none outside them all. */
export function offerFor<T extends HeldOffer>(held: Iterable<T>, path: string): T | undefined {
	let best: T | undefined;
	for (const candidate of held) {
		if (!isSameOrInside(path, candidate.offer.project)) continue;
		const deeper = !best || candidate.offer.project.length > best.offer.project.length;
		const same = best && candidate.offer.project.length === best.offer.project.length;
		if (deeper || (same && best && candidate.order > best.order)) best = candidate;
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
