import { describe, expect, test } from "vitest";
import {
	chooseSuggestionModel,
	type ModelChoice,
	type ModelRef,
	NO_MODEL_REASON,
	parseModelRef,
} from "../../../src/suggestions/core/model-choice.ts";

describe("parseModelRef: provider/id, split at the first slash", () => {
	test.each<[string, ModelRef | undefined]>([
		["openai/gpt-4o", { provider: "openai", id: "gpt-4o" }],
		["openrouter/meta-llama/llama-3.1-8b", { provider: "openrouter", id: "meta-llama/llama-3.1-8b" }],
		["openai-codex/gpt-5.4-mini", { provider: "openai-codex", id: "gpt-5.4-mini" }],
		["a/b", { provider: "a", id: "b" }],
		["gpt-4o", undefined],
		["/gpt-4o", undefined],
		["openai/", undefined],
		["/", undefined],
		["", undefined],
		["open ai/gpt", undefined],
		["openai/gpt 4o", undefined],
		["openai/gpt\t4o", undefined],
		["openai/gpt-4o\n", undefined],
		["openai/\u001b[31mgpt", undefined],
		["openai/gpt\u202e", undefined],
		[`a/${"b".repeat(198)}`, { provider: "a", id: "b".repeat(198) }],
		[`a/${"b".repeat(199)}`, undefined],
	])("%j → %j", (ref, parsed) => {
		expect(parseModelRef(ref)).toEqual(parsed);
	});
});

const HAS = new Set(["openai/gpt-4o-mini", "anthropic/claude-haiku", "deepseek/deepseek-v4-flash"]);
const known = (ref: string) => HAS.has(ref);

describe("chooseSuggestionModel: the flag, the request's, the setting's, the session's", () => {
	test.each<[string, Parameters<typeof chooseSuggestionModel>[0], ModelChoice]>([
		[
			"the flag wins over every other",
			{
				flag: "openai/gpt-4o-mini",
				requestModel: "anthropic/claude-haiku",
				settingModel: "deepseek/deepseek-v4-flash",
				sessionModel: "anthropic/claude-opus",
				known,
			},
			{ ok: true, ref: "openai/gpt-4o-mini", from: "flag" },
		],
		[
			"a flag pi does not have is an error, not a fallback",
			{ flag: "openai/gpt-9", requestModel: "anthropic/claude-haiku", sessionModel: "anthropic/claude-opus", known },
			{ ok: false, reason: "--pi-ide-suggestion-model names openai/gpt-9, which pi does not have" },
		],
		[
			"a flag that is no ref is an error",
			{ flag: "gpt-4o", sessionModel: "anthropic/claude-opus", known },
			{ ok: false, reason: "--pi-ide-suggestion-model names gpt-4o, which is not <provider>/<id>" },
		],
		[
			"an empty flag is no flag",
			{ flag: "", sessionModel: "anthropic/claude-opus", known },
			{ ok: true, ref: "anthropic/claude-opus", from: "session" },
		],
		[
			"the request's over the setting's and the session's",
			{
				requestModel: "anthropic/claude-haiku",
				settingModel: "deepseek/deepseek-v4-flash",
				sessionModel: "anthropic/claude-opus",
				known,
			},
			{ ok: true, ref: "anthropic/claude-haiku", from: "request" },
		],
		[
			"a request's model pi does not have is skipped",
			{ requestModel: "other/model", settingModel: "deepseek/deepseek-v4-flash", known },
			{ ok: true, ref: "deepseek/deepseek-v4-flash", from: "setting" },
		],
		[
			"a request's malformed model is skipped",
			{ requestModel: "nonsense", sessionModel: "anthropic/claude-opus", known },
			{ ok: true, ref: "anthropic/claude-opus", from: "session" },
		],
		[
			"the setting's over the session's",
			{ settingModel: "deepseek/deepseek-v4-flash", sessionModel: "anthropic/claude-opus", known },
			{ ok: true, ref: "deepseek/deepseek-v4-flash", from: "setting" },
		],
		[
			"a setting pi does not have is an error: the user chose it, another model would bill",
			{ settingModel: "openai/gpt-9", sessionModel: "anthropic/claude-opus", known },
			{ ok: false, reason: 'the "suggestions" setting names openai/gpt-9, which pi does not have' },
		],
		[
			"the session's, asked of no one",
			{ sessionModel: "anthropic/claude-opus", known },
			{ ok: true, ref: "anthropic/claude-opus", from: "session" },
		],
		[
			"surrounding spaces dropped",
			{ flag: " openai/gpt-4o-mini ", known },
			{ ok: true, ref: "openai/gpt-4o-mini", from: "flag" },
		],
		["none at all", { known }, { ok: false, reason: NO_MODEL_REASON }],
		[
			"only an unknown request's model",
			{ requestModel: "other/model", known },
			{ ok: false, reason: "no model: pi has no session model and none is named" },
		],
	])("%s", (_name, input, choice) => {
		expect(chooseSuggestionModel(input)).toEqual(choice);
	});

	test("a hostile flag is shown safely in the reason", () => {
		const choice = chooseSuggestionModel({ flag: `x/\u001b]0;title\u0007${"y".repeat(300)}`, known });
		expect(choice.ok).toBe(false);
		if (!choice.ok) {
			expect(choice.reason).not.toContain("\u001b");
			expect(choice.reason.length).toBeLessThan(160);
		}
	});
});
