/**
 * Inline completions over the VS Code client's channel (client 0.5.0 on): while suggestions are on, pi keeps a
 * connection to each client of its project's editors and offers itself once on it (`pi/offerSuggestions`: its
 * project, the pause after typing, how long an answer may take, the secret-file globs). The client then asks pi
 * `getSuggestions` (the seed's shape) on that connection and sends `request_cancelled {id}`; pi withdraws by
 * closing it. The client reads the offer with its own checks (clients/vscode/src/core/suggestions.ts).
 */

export const OFFER_SUGGESTIONS_METHOD = "pi/offerSuggestions";
export const REQUEST_CANCELLED_NOTIFICATION = "request_cancelled";

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
