import { redactedText } from "../safety/secret-scanner.ts";
import type { SuggestionRequest } from "./core/request.ts";

/** The text with its credentials redacted, or undefined when it could not be scanned (it then stays here). */
export type Redact = (text: string) => Promise<string | undefined>;

/** Selections' redaction (secretlint), or none when the user's global settings turned `redactSecrets` off. */
export function suggestionRedaction(redactSecrets: boolean): Redact {
	return redactSecrets ? async (text) => (await redactedText(text))?.text : async (text) => text;
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
