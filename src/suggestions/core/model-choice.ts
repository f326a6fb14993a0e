import { show, withoutControlCharacters } from "../../shared/core/display-text.ts";
import { MODEL_REF_MAX_CHARS } from "./request.ts";

/**
 * Which model answers a `getSuggestions`. The user's own words win and are never silently replaced (a model
 * pi does not have, named by the flag or the global setting, is an error: falling back to another model is a
 * bill the user did not choose); an editor's preference counts only when pi has that model.
 */

export interface ModelRef {
	provider: string;
	id: string;
}

/** Whitespace, a control character or a bidi control in a ref is no model's name (status lines show refs). */
const unsafeInRef = (ref: string) => /\s/.test(ref) || withoutControlCharacters(ref) !== ref;

/** `provider/id`, split at the first `/` (an id may hold more: `openrouter/meta/llama`); both parts non-empty. */
export function parseModelRef(ref: string): ModelRef | undefined {
	if (ref.length > MODEL_REF_MAX_CHARS || unsafeInRef(ref)) return undefined;
	const slash = ref.indexOf("/");
	if (slash <= 0 || slash === ref.length - 1) return undefined;
	return { provider: ref.slice(0, slash), id: ref.slice(slash + 1) };
}

export type ModelSource = "flag" | "request" | "setting" | "session";

export type ModelChoice = { ok: true; ref: string; from: ModelSource } | { ok: false; reason: string };

export const NO_MODEL_REASON = "no model: pi has no session model and none is named";

/**
 * The flag (`--pi-ide-suggestion-model`), else the request's model when pi has it (an unknown one is skipped:
 * the editor may list models of another pi), else the setting's (the caller passes it only from the global
 * file: a cloned repository must not choose an expensive model), else the session's. An empty string counts
 * as not named; surrounding spaces are dropped.
 */
export function chooseSuggestionModel(input: {
	flag?: string;
	requestModel?: string;
	settingModel?: string;
	sessionModel?: string;
	known: (ref: string) => boolean;
}): ModelChoice {
	const flag = named(input.flag);
	if (flag !== undefined) {
		const problem = refProblem(flag, input.known);
		return problem
			? { ok: false, reason: `--pi-ide-suggestion-model names ${show(flag, 80)}, ${problem}` }
			: { ok: true, ref: flag, from: "flag" };
	}
	const requested = named(input.requestModel);
	if (requested !== undefined && refProblem(requested, input.known) === undefined)
		return { ok: true, ref: requested, from: "request" };
	const setting = named(input.settingModel);
	if (setting !== undefined) {
		const problem = refProblem(setting, input.known);
		return problem
			? { ok: false, reason: `the "suggestions" setting names ${show(setting, 80)}, ${problem}` }
			: { ok: true, ref: setting, from: "setting" };
	}
	const session = named(input.sessionModel);
	return session === undefined ? { ok: false, reason: NO_MODEL_REASON } : { ok: true, ref: session, from: "session" };
}

function named(ref: string | undefined): string | undefined {
	const trimmed = ref?.trim();
	return trimmed ? trimmed : undefined;
}

function refProblem(ref: string, known: (ref: string) => boolean): string | undefined {
	if (!parseModelRef(ref)) return "which is not <provider>/<id>";
	return known(ref) ? undefined : "which pi does not have";
}
