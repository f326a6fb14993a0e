import type { SuggestionKeyAction, SuggestionKeys } from "../../../settings/core/settings.ts";
import { isFields } from "../../../shared/core/fields.ts";
import { headChars } from "../../../shared/core/text-cuts.ts";

/**
 * What pi and the ghost text's Lua (core/suggest-lua.ts) say to each other, checked field by field where it
 * enters: Neovim's `pi_ide_suggest` and `pi_ide_suggest_cancel` notifications, the start chunk's answer, the show
 * chunk's. The request inside an ask is not read here: the suggestions' own schema checks it (it is an editor's
 * `getSuggestions` like any other). Nonsense is a reason, never a throw.
 */

/** The Lua's options: the pause before asking and the keys (an action without a key is left out). */
export interface SuggestLuaOptions {
	debounce_ms: number;
	keys: Partial<Record<SuggestionKeyAction, string>>;
}

export function suggestLuaOptions(debounceMs: number, keys: SuggestionKeys): SuggestLuaOptions {
	const mapped: Partial<Record<SuggestionKeyAction, string>> = {};
	for (const [action, lhs] of Object.entries(keys) as [SuggestionKeyAction, string | false][])
		if (lhs !== false) mapped[action] = lhs;
	return { debounce_ms: debounceMs, keys: mapped };
}

/** Request ids the Lua counts from 1 per start: a whole number, well inside what msgpack and JSON carry. */
const isId = (value: unknown): value is number =>
	typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

const ACTIONS: ReadonlySet<string> = new Set<SuggestionKeyAction>(["accept", "next", "previous", "dismiss", "ask"]);

/** The keys the Lua could not offer (a mapping of the user's): known actions only, each once. */
function actionsOf(value: unknown): SuggestionKeyAction[] {
	if (!Array.isArray(value)) return [];
	const actions = value.filter((item): item is SuggestionKeyAction => typeof item === "string" && ACTIONS.has(item));
	return [...new Set(actions)];
}

/** One ask of the Lua: what the answer must echo (`id`, `tick`), and the request for the suggestions' schema. */
export interface SuggestAsk {
	id: number;
	tick: number;
	byHand: boolean;
	unoffered: SuggestionKeyAction[];
	request: unknown;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** `pi_ide_suggest`'s params: `[{ id, tick, buf, cursor, by_hand, unoffered, request }]`. */
export function parseSuggestAsk(params: unknown): Parsed<SuggestAsk> {
	const payload = Array.isArray(params) ? params[0] : undefined;
	if (!isFields(payload)) return { ok: false, reason: "a suggestion's ask that is not a table" };
	if (!isId(payload.id) || !isId(payload.tick))
		return { ok: false, reason: "a suggestion's ask without its id or tick" };
	if (!isFields(payload.request)) return { ok: false, reason: "a suggestion's ask without its request" };
	return {
		ok: true,
		value: {
			id: payload.id,
			tick: payload.tick,
			byHand: payload.by_hand === true,
			unoffered: actionsOf(payload.unoffered),
			request: payload.request,
		},
	};
}

/** `pi_ide_suggest_cancel`'s params: `[{ id }]`; undefined when that is not what came. */
export function parseSuggestCancel(params: unknown): number | undefined {
	const payload = Array.isArray(params) ? params[0] : undefined;
	return isFields(payload) && isId(payload.id) ? payload.id : undefined;
}

/** What the start chunk answered: the suggestions are pi's now, another pi's, or this Neovim cannot draw them. */
export type SuggestStart =
	| { kind: "mine"; unoffered: SuggestionKeyAction[] }
	| { kind: "elsewhere"; owner: number }
	| { kind: "unsupported"; reason: string };

export function parseSuggestStart(value: unknown, channel: number): Parsed<SuggestStart> {
	if (!isFields(value)) return { ok: false, reason: "Neovim's answer to starting suggestions is not a table" };
	if (typeof value.unsupported === "string")
		return { ok: true, value: { kind: "unsupported", reason: value.unsupported.slice(0, 200) } };
	if (!isId(value.owner)) return { ok: false, reason: "Neovim's answer to starting suggestions names no owner" };
	if (value.owner !== channel) return { ok: true, value: { kind: "elsewhere", owner: value.owner } };
	return { ok: true, value: { kind: "mine", unoffered: actionsOf(value.unoffered) } };
}

/** What became of an answer in Neovim (the show chunk's word). */
export type ShowOutcome = "shown" | "stale" | "empty" | "gone";

const OUTCOMES: ReadonlySet<string> = new Set<ShowOutcome>(["shown", "stale", "empty", "gone"]);

export const showOutcome = (value: unknown): ShowOutcome | undefined =>
	typeof value === "string" && OUTCOMES.has(value) ? (value as ShowOutcome) : undefined;

/** A drawn text is cut here (a model's answer is a few hundred tokens; a screenful is far less). */
export const SHOWN_TEXT_MAX_CHARS = 16_384;

/**
 * The texts of a `getSuggestions` result to draw: strings only, at most `count`, each cut at
 * `SHOWN_TEXT_MAX_CHARS`; anything else is none. The suggestions' feature made them display text already.
 */
export function suggestionTexts(result: unknown, count: number): string[] {
	if (!isFields(result) || !Array.isArray(result.suggestions)) return [];
	return result.suggestions
		.filter((text): text is string => typeof text === "string" && text !== "")
		.slice(0, count)
		.map((text) => headChars(text, SHOWN_TEXT_MAX_CHARS));
}
