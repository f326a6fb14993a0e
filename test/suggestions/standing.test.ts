import { beforeEach, describe, expect, test } from "vitest";
import { suggestionsMemory } from "../../src/shared/process-memory.ts";
import {
	firstAnswerNotice,
	setSuggestionsForProcess,
	standingWhy,
	suggestionStandingNow,
} from "../../src/suggestions/standing.ts";
import { forgetProcessMemory } from "./service-fixture.ts";

beforeEach(forgetProcessMemory);

describe("/ide suggestions on|off: for this pi process, over the settings", () => {
	test("off over a global model, on again with that model; kept on globalThis for the next session", () => {
		const setting = { mode: "on", model: "openai/gpt-4o-mini", source: "global" } as const;
		expect(suggestionStandingNow(setting)).toEqual(setting);
		expect(setSuggestionsForProcess(false)).toBe(
			"pi-ide: inline suggestions off for this pi process: no editor's request reaches a model",
		);
		expect(suggestionStandingNow(setting)).toEqual({ mode: "off", source: "process" });
		expect(suggestionsMemory().override).toBe(false);
		expect(setSuggestionsForProcess(true)).toContain("inline suggestions on for this pi process");
		expect(suggestionStandingNow({ mode: "off", source: "project" })).toEqual({ mode: "on", source: "process" });
		expect(suggestionStandingNow(setting)).toEqual({ mode: "on", model: "openai/gpt-4o-mini", source: "process" });
	});

	test("why, in /ide status's words", () => {
		expect(standingWhy({ mode: "off", source: "process" })).toBe("/ide suggestions, for this pi process");
		expect(standingWhy({ mode: "off", source: "project" })).toBe("the project's settings");
	});

	test("the first answer's notice names the model, terminal-safe, and how to stop it", () => {
		const notice = firstAnswerNotice("fake/\u001b]0;owned\u0007coder", 30);
		expect(notice).not.toContain("\u001b");
		expect(notice).toContain("at most 30 a minute per editor");
		expect(notice).toContain('/ide suggestions off stops it for this pi process, "suggestions": false');
	});
});
