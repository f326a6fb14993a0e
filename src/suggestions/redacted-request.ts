import { redactedText } from "../safety/secret-scanner.ts";
import type { SuggestionRequest } from "./core/request.ts";

/** The text with its credentials redacted, or undefined when it could not be scanned (it then stays here). */
export type Redact = (text: string) => Promise<string | undefined>;

/** How many texts' redactions a session keeps: a request's six fields and a few more. */
export const REMEMBERED_REDACTIONS = 8;

/**
 * Selections' redaction (secretlint), or none when the user's global settings turned `redactSecrets` off. The
 * last `REMEMBERED_REDACTIONS` texts scanned are kept with their redaction, the same text is not scanned again:
 * while the user types in one file, its path, language and outline (up to 12 000 characters) come unchanged in
 * every request. A scan that failed is not kept (the next request scans again).
 */
export function suggestionRedaction(redactSecrets: boolean, scan: typeof redactedText = redactedText): Redact {
	if (!redactSecrets) return async (text) => text;
	const remembered = new Map<string, string>();
	return async (text) => {
		const known = remembered.get(text);
		if (known !== undefined) {
			// Used again: the newest, last to go.
			remembered.delete(text);
			remembered.set(text, known);
			return known;
		}
		const redacted = (await scan(text))?.text;
		if (redacted === undefined) return undefined;
		remembered.set(text, redacted);
		for (const oldest of remembered.keys()) {
			if (remembered.size <= REMEMBERED_REDACTIONS) break;
			remembered.delete(oldest);
		}
		return redacted;
	};
}

/** Every text field of a request that goes into the prompt. `model` does not: it only names the model. */
const SENT_FIELDS = ["filePath", "language", "outline", "enclosingScope", "cursorBefore", "cursorAfter"] as const;

/**
 * The request with every text field it sends redacted, each scanned on its own and all at once; undefined
 * when any scan failed: an unscanned field could carry a credential, so nothing of the request leaves.
 */
export async function redactedRequest(
	request: SuggestionRequest,
	redact: Redact,
): Promise<SuggestionRequest | undefined> {
	const present = SENT_FIELDS.filter((name) => request[name] !== undefined && request[name] !== "");
	const scanned = (text: string) =>
		Promise.resolve(text)
			.then(redact)
			.catch(() => undefined);
	const texts = await Promise.all(present.map((name) => scanned(request[name] as string)));
	if (texts.some((text) => text === undefined)) return undefined;
	const redacted: SuggestionRequest = { ...request };
	present.forEach((name, index) => {
		redacted[name] = texts[index] as string;
	});
	return redacted;
}
