import type { SuggestionsMode } from "../../settings/core/settings.ts";
import { show } from "../../shared/core/display-text.ts";

/**
 * The suggestions' section of `/ide status`: whether pi answers and why, which model and why, and what this pi
 * process's answers came to (so a bill can be traced to its requests). The widget says nothing of them.
 */

export interface SuggestionStatusInput {
	/** `asked-only`: pi answers an editor that asks on its own (pi-ide.nvim), and asks none of its own editors. */
	standing: SuggestionsMode;
	/** Where the standing comes from, in words: "the default", "global settings", "/ide suggestions, for this pi process". */
	standingWhy: string;
	/** The model the next request would use (`provider/id`); none when pi has none to use. */
	model?: string;
	/** Why that model ("--pi-ide-suggestion-model", "the session's model"), or why none. */
	modelWhy?: string;
	/**
	 * Requests of this pi process. Each ends in one of the counts below, none in two: `answered` with one or more
	 * suggestions, `empty` answered with none, `cancelled` by the editor, `refused` with no model call (a secret
	 * file, no path, suggestions off), `errors` (the model failed, no model), `rateLimited`. The rest are in flight.
	 */
	requests: number;
	answered: number;
	empty: number;
	cancelled: number;
	refused: number;
	errors: number;
	rateLimited: number;
	lastError?: string;
	/** The model's tokens over this pi process's suggestions, as the provider counted them. */
	tokens: { input: number; output: number };
}

const STANDING_WORDS: Record<SuggestionStatusInput["standing"], string> = {
	on: "on",
	off: "off",
	"asked-only": "answered when an editor asks on its own",
};

/** `Suggestions: on (global settings)`, then the model, the requests, the tokens and the last error, indented. */
export function suggestionStatusLines(input: SuggestionStatusInput): string[] {
	const lines = [`Suggestions: ${STANDING_WORDS[input.standing]} (${show(input.standingWhy)})`];
	if (input.standing !== "off") {
		const why = input.modelWhy ? ` (${show(input.modelWhy)})` : "";
		lines.push(`  model: ${input.model === undefined ? "none" : show(input.model, 80)}${why}`);
	}
	lines.push(`  requests: ${requestsText(input)}`);
	if (input.tokens.input > 0 || input.tokens.output > 0)
		lines.push(`  tokens: ${input.tokens.input} in, ${input.tokens.output} out`);
	if (input.lastError) lines.push(`  last error: ${show(input.lastError)}`);
	return lines;
}

/** `none yet`, or `12: 7 answered, 2 empty, 1 cancelled, 2 in flight`: the counts that are not 0. */
function requestsText(input: SuggestionStatusInput): string {
	if (input.requests <= 0) return "none yet";
	const ended = input.answered + input.empty + input.cancelled + input.refused + input.errors + input.rateLimited;
	const parts = [
		[input.answered, "answered"],
		[input.empty, "empty"],
		[input.cancelled, "cancelled"],
		[input.refused, "refused (no model call)"],
		[input.errors, input.errors === 1 ? "error" : "errors"],
		[input.rateLimited, "over the rate limit"],
		[input.requests - ended, "in flight"],
	] as const;
	const said = parts.filter(([count]) => count > 0).map(([count, words]) => `${count} ${words}`);
	return said.length > 0 ? `${input.requests}: ${said.join(", ")}` : `${input.requests}`;
}
