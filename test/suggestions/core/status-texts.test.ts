import { describe, expect, test } from "vitest";
import { type SuggestionStatusInput, suggestionStatusLines } from "../../../src/suggestions/core/status-texts.ts";

const NOTHING_YET: SuggestionStatusInput = {
	standing: "asked-only",
	standingWhy: "the default",
	model: "anthropic/claude-haiku",
	modelWhy: "the session's model",
	requests: 0,
	answered: 0,
	empty: 0,
	cancelled: 0,
	refused: 0,
	errors: 0,
	rateLimited: 0,
	tokens: { input: 0, output: 0 },
};

describe("/ide status: the suggestions' section", () => {
	test.each<[string, Partial<SuggestionStatusInput>, string[]]>([
		[
			"the default, nothing asked yet",
			{},
			[
				"Suggestions: answered when an editor asks on its own (the default)",
				"  model: anthropic/claude-haiku (the session's model)",
				"  requests: none yet",
			],
		],
		[
			"on, with every outcome",
			{
				standing: "on",
				standingWhy: "global settings",
				model: "openai/gpt-4o-mini",
				modelWhy: "--pi-ide-suggestion-model",
				requests: 20,
				answered: 9,
				empty: 2,
				cancelled: 3,
				refused: 1,
				errors: 1,
				rateLimited: 2,
				lastError: "the model answered 429",
				tokens: { input: 12_400, output: 830 },
			},
			[
				"Suggestions: on (global settings)",
				"  model: openai/gpt-4o-mini (--pi-ide-suggestion-model)",
				"  requests: 20: 9 answered, 2 empty, 3 cancelled, 1 refused (no model call), 1 error, 2 over the rate limit, 2 in flight",
				"  tokens: 12400 in, 830 out",
				"  last error: the model answered 429",
			],
		],
		[
			"off: no model line; what was refused still counted",
			{ standing: "off", standingWhy: "/ide suggestions, for this pi process", requests: 4, refused: 4 },
			["Suggestions: off (/ide suggestions, for this pi process)", "  requests: 4: 4 refused (no model call)"],
		],
		[
			"no model, and why",
			{ model: undefined, modelWhy: "no model: pi has no session model and none is named" },
			[
				"Suggestions: answered when an editor asks on its own (the default)",
				"  model: none (no model: pi has no session model and none is named)",
				"  requests: none yet",
			],
		],
		[
			"errors counted in the plural",
			{ requests: 2, errors: 2, lastError: "timed out after 10 s" },
			[
				"Suggestions: answered when an editor asks on its own (the default)",
				"  model: anthropic/claude-haiku (the session's model)",
				"  requests: 2: 2 errors",
				"  last error: timed out after 10 s",
			],
		],
	])("%s", (_name, input, lines) => {
		expect(suggestionStatusLines({ ...NOTHING_YET, ...input })).toEqual(lines);
	});

	test("an editor's or a model's words are shown safely: no escape sequences, cut", () => {
		const lines = suggestionStatusLines({
			...NOTHING_YET,
			requests: 1,
			errors: 1,
			model: "x/\u001b[2Jwipe",
			lastError: `\u001b]0;title\u0007${"e".repeat(500)}`,
		});
		for (const line of lines) {
			expect(line).not.toMatch(/[\u0000-\u001f]/);
			expect(line.length).toBeLessThan(200);
		}
	});
});
