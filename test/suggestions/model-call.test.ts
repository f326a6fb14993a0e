import { type Api, type Context, type Model, streamSimple } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, test } from "vitest";
import {
	availableModels,
	callSuggestionModel,
	type ModelAccess,
	modelAccessOf,
	modelRefOf,
	type RegistryStreamSimple,
} from "../../src/suggestions/model-call.ts";
import { type FakeModelServer, messageText, startFakeModelServer } from "../support/fake-model-server.ts";
import { waitFor } from "../support/wait-for.ts";
import { fakeRegistry } from "./service-fixture.ts";

const PROMPT = { systemPrompt: "You complete code.", userText: "<request>...</request>" };
const OPTIONS = { timeoutMs: 5000, maxTokens: 256 };

let fake: FakeModelServer | undefined;
afterEach(async () => {
	await fake?.close();
	fake = undefined;
});

async function rig() {
	fake = await startFakeModelServer(() => "<SUGGESTION>x</SUGGESTION>");
	const registry = fakeRegistry(fake.baseUrl);
	const modelOf = (id: string) => registry.find("fake", id) as Model<Api>;
	return { fake, registry, access: modelAccessOf(registry), modelOf };
}

describe("pi 0.73: pi-ai's completeSimple with the key the registry resolves", () => {
	test("the model's text and usage; the prompt sent as system and user; one try, a short cache", async () => {
		const { fake, access, modelOf } = await rig();
		expect(access.streamSimple).toBeUndefined();
		const signal = new AbortController().signal;
		const result = await callSuggestionModel(access, modelOf("coder"), PROMPT, { ...OPTIONS, signal });
		expect(result).toEqual({ ok: true, text: "<SUGGESTION>x</SUGGESTION>", usage: { input: 1, output: 1 } });
		const [request] = fake.requests;
		expect(request?.messages.map((message) => [message.role, messageText(message)])).toEqual([
			["system", PROMPT.systemPrompt],
			["user", PROMPT.userText],
		]);
		expect(request?.max_completion_tokens ?? request?.max_tokens).toBe(256);
		expect(request).not.toHaveProperty("reasoning_effort");
	});

	test("a reasoning model is asked for minimal reasoning", async () => {
		const { fake, access, modelOf } = await rig();
		const signal = new AbortController().signal;
		await callSuggestionModel(access, modelOf("thinker"), PROMPT, { ...OPTIONS, signal });
		expect(fake.requests[0]?.reasoning_effort).toBe("minimal");
	});

	test("no key: a failure before any request", async () => {
		const { fake, access, modelOf } = await rig();
		const noKey: ModelAccess = {
			...access,
			getApiKeyAndHeaders: async () => ({ ok: false, error: "no key for fake" }),
		};
		const signal = new AbortController().signal;
		expect(await callSuggestionModel(noKey, modelOf("coder"), PROMPT, { ...OPTIONS, signal })).toEqual({
			ok: false,
			reason: "no key for fake",
			aborted: false,
		});
		expect(fake.requests).toEqual([]);
	});

	test("a registry that throws, a model that cannot be reached: failures, never a throw", async () => {
		const { access, modelOf } = await rig();
		const signal = new AbortController().signal;
		const throwing: ModelAccess = {
			...access,
			getApiKeyAndHeaders: () => {
				throw new Error("registry broke");
			},
		};
		expect(await callSuggestionModel(throwing, modelOf("coder"), PROMPT, { ...OPTIONS, signal })).toEqual({
			ok: false,
			reason: "registry broke",
			aborted: false,
		});
		const unreachable = { ...modelOf("coder"), baseUrl: "http://127.0.0.1:9/v1" };
		const result = await callSuggestionModel(access, unreachable, PROMPT, { ...OPTIONS, signal });
		expect(result).toMatchObject({ ok: false, aborted: false });
	});

	test("aborted by the caller: before the call no request; during it the HTTP request closed", async () => {
		const { fake, access, modelOf } = await rig();
		const before = new AbortController();
		before.abort();
		const early = await callSuggestionModel(access, modelOf("coder"), PROMPT, { ...OPTIONS, signal: before.signal });
		expect(early).toEqual({ ok: false, reason: "cancelled", aborted: true });
		expect(fake.requests).toEqual([]);
		fake.delayMs = 10_000;
		const during = new AbortController();
		const calling = callSuggestionModel(access, modelOf("coder"), PROMPT, { ...OPTIONS, signal: during.signal });
		await waitFor("the model request", () => fake.requests.length === 1);
		during.abort();
		expect(await calling).toEqual({ ok: false, reason: "cancelled", aborted: true });
		await waitFor("the request closed by pi", () => fake.aborts.length === 1);
	});

	test("the timeout: a failure, not a cancel; the HTTP request closed", async () => {
		const { fake, access, modelOf } = await rig();
		fake.delayMs = 10_000;
		const signal = new AbortController().signal;
		const result = await callSuggestionModel(access, modelOf("coder"), PROMPT, { ...OPTIONS, timeoutMs: 100, signal });
		expect(result).toEqual({ ok: false, reason: "no answer within 100 ms", aborted: false });
		await waitFor("the request closed by pi", () => fake.aborts.length === 1);
	});
});

describe("pi 1.x: the registry's own streamSimple (auth per request)", () => {
	test("called with the model, the context and the options; the key is the registry's business", async () => {
		const { fake, access, modelOf } = await rig();
		const calls: { model: string; context: Context; options: Record<string, unknown> }[] = [];
		// As pi 1.x's registry does: the provider's stream with the auth it resolves itself.
		const registryStream: RegistryStreamSimple = (model, context, options) => {
			calls.push({ model: model.id, context, options: { ...options } });
			return streamSimple(model, context, { ...options, apiKey: "fake-key" });
		};
		const asked: string[] = [];
		const pi1: ModelAccess = {
			...access,
			streamSimple: registryStream,
			getApiKeyAndHeaders: async (model) => {
				asked.push(model.id);
				return { ok: false, error: "not asked on pi 1.x" };
			},
		};
		const signal = new AbortController().signal;
		const result = await callSuggestionModel(pi1, modelOf("thinker"), PROMPT, { ...OPTIONS, signal });
		expect(result).toMatchObject({ ok: true, text: "<SUGGESTION>x</SUGGESTION>" });
		expect(asked).toEqual([]);
		expect(calls).toHaveLength(1);
		expect(calls[0]?.context.systemPrompt).toBe(PROMPT.systemPrompt);
		expect(calls[0]?.options).toMatchObject({
			maxTokens: 256,
			reasoning: "minimal",
			cacheRetention: "short",
			timeoutMs: 5000,
			maxRetries: 0,
		});
		expect(calls[0]?.options.signal).toBeInstanceOf(AbortSignal);
		expect(fake.requests).toHaveLength(1);
	});

	test("an error or aborted stop reason is no answer", async () => {
		const { access, modelOf } = await rig();
		const ending =
			(stopReason: "error" | "aborted"): RegistryStreamSimple =>
			(model, context, options) => {
				const stream = streamSimple(model, context, { ...options, apiKey: "fake-key" });
				return {
					result: async () => ({ ...(await stream.result()), stopReason, errorMessage: "provider said no" }),
				};
			};
		const signal = new AbortController().signal;
		for (const [stopReason, expected] of [
			["error", { ok: false, reason: "provider said no", aborted: false }],
			["aborted", { ok: false, reason: "cancelled", aborted: true }],
		] as const) {
			const pi1 = { ...access, streamSimple: ending(stopReason) };
			expect(await callSuggestionModel(pi1, modelOf("coder"), PROMPT, { ...OPTIONS, signal })).toEqual(expected);
		}
	});

	test("modelAccessOf finds streamSimple on the registry and calls it bound", async () => {
		const { registry } = await rig();
		const seen: unknown[] = [];
		const pi1Registry = Object.assign(Object.create(registry), {
			streamSimple(this: unknown) {
				seen.push(this);
				return { result: async () => ({}) };
			},
		});
		const access = modelAccessOf(pi1Registry);
		expect(access.streamSimple).toBeTypeOf("function");
		access.streamSimple?.({} as Model<Api>, { messages: [] }, {});
		expect(seen).toEqual([pi1Registry]);
	});
});

describe("the models an editor may choose", () => {
	test("every model pi has a key for, as the seed lists them; a registry that throws lists none", async () => {
		const { access } = await rig();
		expect(availableModels(access).map((model) => model.model)).toEqual(["fake/coder", "fake/other", "fake/thinker"]);
		expect(availableModels({ getAvailable: () => [] })).toEqual([]);
		const broken = () => {
			throw new Error("models.json broke");
		};
		expect(availableModels({ getAvailable: broken })).toEqual([]);
	});

	test("modelRefOf: provider/id, or none", () => {
		expect(modelRefOf({ provider: "openai", id: "gpt-4o" })).toBe("openai/gpt-4o");
		expect(modelRefOf(undefined)).toBeUndefined();
	});
});
