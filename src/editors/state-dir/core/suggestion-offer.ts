import { isFields } from "../../../shared/core/fields.ts";
import { normalizePath } from "../../../shared/core/paths.ts";

/**
 * pi's offer over the VS Code client's channel (client 0.5.0 on; the file keeps the name it had when inline
 * completions were all it offered): while suggestions or asks are on, pi keeps a connection to each client of
 * its project's editors and offers itself on it (`pi/offerSuggestions`: its project and pid, which of the two it
 * offers, whether it is connected to that window, the pause after typing, how long an answer may take, the
 * secret-file globs), again whenever one of those changes. The client then asks pi `getSuggestions` (the seed's
 * shape) and, from 0.6.0 on, sends the asks' messages (`ask`, `add`, `stop`, `reply`, `replyClosed`; from 0.7.0
 * `answer` and `dismiss` for pi's questions) on that connection; pi tells it what became of an ask (and, to a 0.7.0
 * client, its questions) with `pi/askNews` notifications and withdraws by closing it.
 * Both sides read the offer with `readOffer` below (the client through its core/suggestions.ts).
 */

/** The offer's method: 0.5.0 clients know it by this name, so it keeps it. */
export const OFFER_METHOD = "pi/offerSuggestions";

/** pi's news of an ask, to the window that asked (`AskNews`: a status line, the reply's text, a question of pi's). */
export const ASK_NEWS_METHOD = "pi/askNews";

/** What pi tells the client when it offers itself. */
export interface ClientOffer {
	/** pi's project dir: the client asks this pi only about documents inside it (the deepest project wins). */
	project: string;
	/** pi's pid, for the client's log and its choice between pis of one project (the latest offer wins). */
	pid: number;
	/** Inline completions are offered (absent in an offer of a pi before asks: it offered nothing else). */
	suggestions: boolean;
	/** Asks are offered: the window's "pi: Ask…" may send here. */
	asks: boolean;
	/** pi is connected to this window: its asks go to this pi first. */
	connected: boolean;
	/** The pause after typing before the client asks (the `suggestionDebounceMs` setting). */
	debounceMs: number;
	/** How long the client waits for an answer before it gives up (pi's own model timeout, and a margin). */
	timeoutMs: number;
	/** The secret-file globs pi applies: the client never asks about a file they match. */
	secretFiles: string[];
}

/** What pi's settings put in every offer (the rest is the link's to say). */
export type OfferSettings = Pick<ClientOffer, "debounceMs" | "timeoutMs" | "secretFiles">;

/** The client's wait beyond pi's own model timeout: pi answers "cancelled" or an error by then. */
export const CLIENT_TIMEOUT_MARGIN_MS = 2000;

const MAX_PATH_CHARS = 4096;
const MAX_DEBOUNCE_MS = 10_000;
const MAX_TIMEOUT_MS = 120_000;
const MAX_GLOBS = 500;
const MAX_GLOB_CHARS = 500;

export type OfferRead = { ok: true; offer: ClientOffer } | { ok: false; reason: string };

const wholeIn = (value: unknown, min: number, max: number): value is number =>
	typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

/** An optional flag: absent is `absent`; anything but a boolean is no flag. */
const flag = (value: unknown, absent: boolean): boolean | undefined =>
	value === undefined ? absent : typeof value === "boolean" ? value : undefined;

/**
 * An offer as the client takes it (hand-checked: the client's bundle carries no schema library), and as pi checks
 * its own before it sends it: an offer the client would refuse is never sent, and says why in `/ide status`.
 */
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
	const suggestions = flag(params.suggestions, true);
	const asks = flag(params.asks, false);
	const connected = flag(params.connected, false);
	if (suggestions === undefined || asks === undefined || connected === undefined)
		return { ok: false, reason: "suggestions, asks and connected are each true or false" };
	if (!wholeIn(debounceMs, 0, MAX_DEBOUNCE_MS)) return { ok: false, reason: `debounceMs is not 0..${MAX_DEBOUNCE_MS}` };
	if (!wholeIn(timeoutMs, 1, MAX_TIMEOUT_MS)) return { ok: false, reason: `timeoutMs is not 1..${MAX_TIMEOUT_MS}` };
	if (
		!Array.isArray(secretFiles) ||
		secretFiles.length > MAX_GLOBS ||
		!secretFiles.every((glob) => typeof glob === "string" && glob.length <= MAX_GLOB_CHARS)
	)
		return {
			ok: false,
			reason: `secretFiles is not a list of at most ${MAX_GLOBS} globs of ${MAX_GLOB_CHARS} characters`,
		};
	// Depth is compared by length: `/a/b/` or `/a/./b` must not beat `/a/b`.
	const offer = {
		project: normalizePath(project),
		pid,
		suggestions,
		asks,
		connected,
		debounceMs,
		timeoutMs,
		secretFiles: secretFiles as string[],
	};
	return { ok: true, offer };
}
