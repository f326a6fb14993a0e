import { AuthStorage, ModelRegistry } from "@mariozechner/pi-coding-agent";
import { secretFileMatcher, secretFilePatterns } from "../../src/safety/core/secret-files.ts";
import type { SuggestionStanding } from "../../src/settings/core/settings.ts";
import { suggestionsMemory } from "../../src/shared/process-memory.ts";
import { modelAccessOf } from "../../src/suggestions/model-call.ts";
import { suggestionRedaction } from "../../src/suggestions/redacted-request.ts";
import { SuggestionService, type SuggestionServiceInputs } from "../../src/suggestions/suggestion-service.ts";
import { ManualClock } from "../support/clocks.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model-server.ts";

export const FAKE_PROVIDER = "fake";

const model = (id: string, reasoning = false) => ({
	id,
	name: `Fake ${id}`,
	reasoning,
	input: ["text" as const],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 128_000,
	maxTokens: 4096,
});

/**
 * pi 0.73's own registry (no `streamSimple`: the `completeSimple` path) with a provider on the offline fake model
 * server: `fake/coder` (the session's), `fake/other`, `fake/thinker` (a reasoning model).
 */
export function fakeRegistry(baseUrl: string): ModelRegistry {
	const registry = ModelRegistry.inMemory(AuthStorage.inMemory());
	registry.registerProvider(FAKE_PROVIDER, {
		baseUrl,
		api: "openai-completions",
		apiKey: "fake-key",
		models: [model("coder"), model("other"), model("thinker", true)],
	});
	return registry;
}

/** pi-ide's memory of this pi process (the counts, `/ide suggestions`, the notice said once) as at pi's start. */
export function forgetProcessMemory(): void {
	const store = globalThis as Record<symbol, unknown>;
	delete store[Symbol.for("pi-ide-context.suggestions")];
	(store[Symbol.for("pi-ide-context.said-once")] as Set<string> | undefined)?.clear();
}

export interface ServiceRig {
	fake: FakeModelServer;
	service: SuggestionService;
	clock: ManualClock;
	notices: string[];
	/** What the next request reads: the test changes it. */
	now: { standing: SuggestionStanding; flag?: string; perMinute: number };
	counts: () => ReturnType<typeof suggestionsMemory>["counts"];
	close(): Promise<void>;
}

/** A service of one session on the fake model, every input real but the clock (and the standing, set by the test). */
export async function serviceRig(overrides: Partial<SuggestionServiceInputs> = {}): Promise<ServiceRig> {
	const fake = await startFakeModelServer(() => "<SUGGESTION>fromModel()</SUGGESTION>");
	const registry = fakeRegistry(fake.baseUrl);
	const clock = new ManualClock();
	const notices: string[] = [];
	const now: ServiceRig["now"] = { standing: { mode: "asked-only", source: "default" }, perMinute: 30 };
	const secretFile = secretFileMatcher(secretFilePatterns({ global: [], project: [] }));
	const service = new SuggestionService({
		standing: () => now.standing,
		perMinute: () => now.perMinute,
		flagModel: () => now.flag,
		sessionModel: () => `${FAKE_PROVIDER}/coder`,
		models: modelAccessOf(registry),
		isSecretFile: secretFile,
		redact: suggestionRedaction(true),
		clock,
		notify: (message) => notices.push(message),
		...overrides,
	});
	return {
		fake,
		service,
		clock,
		notices,
		now,
		counts: () => suggestionsMemory().counts,
		close: async () => {
			await service.close();
			await fake.close();
		},
	};
}

/** A `getSuggestions` as pi-ide.nvim sends one, with `params` over its fields. */
export function getSuggestions(id: number | string, params: Record<string, unknown> = {}) {
	return {
		id,
		method: "getSuggestions",
		params: {
			filePath: "/home/dev/proj/src/main.ts",
			language: "typescript",
			cursorBefore: "const value = ",
			cursorAfter: ";\n",
			suggestionCount: 3,
			...params,
		},
	};
}
