import { isFields } from "../../../shared/core/fields.ts";
import { normalizePath } from "../../../shared/core/paths.ts";

/**
 * Inline completions over the VS Code client's channel (client 0.5.0 on): while suggestions are on, pi keeps a
 * connection to each client of its project's editors and offers itself once on it (`pi/offerSuggestions`: its
 * project, the pause after typing, how long an answer may take, the secret-file globs). The client then asks pi
 * `getSuggestions` (the seed's shape) on that connection and sends `request_cancelled {id}`; pi withdraws by
 * closing it. Both sides read the offer with `readOffer` below (the client through its core/suggestions.ts).
 */

export const OFFER_SUGGESTIONS_METHOD = "pi/offerSuggestions";

/** What pi tells the client when it offers itself. */
export interface SuggestionOffer {
	/** pi's project dir: the client asks this pi only about documents inside it (the deepest project wins). */
	project: string;
	/** pi's pid, for the client's log and its choice between pis of one project (the latest offer wins). */
	pid: number;
	/** The pause after typing before the client asks (the `suggestionDebounceMs` setting). */
	debounceMs: number;
	/** How long the client waits for an answer before it gives up (pi's own model timeout, and a margin). */
	timeoutMs: number;
	/** The secret-file globs pi applies: the client never asks about a file they match. */
	secretFiles: string[];
}

/** The client's wait beyond pi's own model timeout: pi answers "cancelled" or an error by then. */
export const CLIENT_TIMEOUT_MARGIN_MS = 2000;

const MAX_PATH_CHARS = 4096;
const MAX_DEBOUNCE_MS = 10_000;
const MAX_TIMEOUT_MS = 120_000;
const MAX_GLOBS = 500;
const MAX_GLOB_CHARS = 500;

export type OfferRead = { ok: true; offer: SuggestionOffer } | { ok: false; reason: string };

const wholeIn = (value: unknown, min: number, max: number): value is number =>
	typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

/**
 * An offer as the client takes it (hand-checked: the client's bundle carries no schema library), and as pi checks
 * its own before it connects: an offer the client would refuse is never sent, and says why in `/ide status`.
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
	const offer = { project: normalizePath(project), pid, debounceMs, timeoutMs, secretFiles: secretFiles as string[] };
	return { ok: true, offer };
}
