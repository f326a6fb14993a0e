import { type Api, type AssistantMessage, type Context, completeSimple, type Model } from "@mariozechner/pi-ai";
import type { ModelRegistry } from "@mariozechner/pi-coding-agent";

/**
 * One model call for a suggestion, on both pi lines. pi 1.x calls through `ctx.modelRegistry.streamSimple`
 * (auth resolved per request, providers other extensions register included); pi 0.73's registry has no such
 * method, so there pi-ai's `completeSimple` runs with the key and headers the registry resolves. Which one is
 * told by the registry itself, never by a version number.
 */

type SimpleOptions = NonNullable<Parameters<typeof completeSimple>[2]>;

/** pi 1.x's `modelRegistry.streamSimple`, as far as a suggestion uses it (absent from 0.73's types). */
export type RegistryStreamSimple = (
	model: Model<Api>,
	context: Context,
	options: SimpleOptions,
) => { result(): Promise<AssistantMessage> };

/** What a suggestion needs of pi's model registry, as functions (never the `ctx` that holds it). */
export interface ModelAccess {
	/** pi 1.x only. */
	streamSimple?: RegistryStreamSimple;
	getApiKeyAndHeaders: ModelRegistry["getApiKeyAndHeaders"];
	getAvailable: () => Model<Api>[];
	find: (provider: string, id: string) => Model<Api> | undefined;
}

/** The registry of the session of the moment, its methods bound; read again at each `session_start`. */
export function modelAccessOf(registry: ModelRegistry): ModelAccess {
	const streamSimple = (registry as { streamSimple?: unknown }).streamSimple;
	return {
		...(typeof streamSimple === "function" && {
			streamSimple: (streamSimple as RegistryStreamSimple).bind(registry),
		}),
		getApiKeyAndHeaders: (model) => registry.getApiKeyAndHeaders(model),
		getAvailable: () => registry.getAvailable(),
		find: (provider, id) => registry.find(provider, id),
	};
}

/** `provider/id` of pi's model of the moment, as `listSuggestionModels` and the model choice name it. */
export const modelRefOf = (model: { provider: string; id: string } | undefined): string | undefined =>
	model ? `${model.provider}/${model.id}` : undefined;

type ModelCallResult =
	| { ok: true; text: string; usage: { input: number; output: number } }
	/** `aborted`: the caller's signal ended it (a cancel, a newer request); a timeout is a failure. */
	| { ok: false; reason: string; aborted: boolean };

interface ModelCallOptions {
	signal: AbortSignal;
	timeoutMs: number;
	maxTokens: number;
}

/**
 * The model's answer to one prompt. Never throws: a failure, a timeout or an abort is a result. Every call ends
 * by `timeoutMs` (pi's own abort, whatever the provider's client does) and is tried once: a suggestion that comes
 * late or on a retry is of no use.
 */
export async function callSuggestionModel(
	access: ModelAccess,
	model: Model<Api>,
	prompt: { systemPrompt: string; userText: string },
	options: ModelCallOptions,
): Promise<ModelCallResult> {
	const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
	const context: Context = {
		systemPrompt: prompt.systemPrompt,
		messages: [{ role: "user", content: prompt.userText, timestamp: Date.now() }],
	};
	const common: SimpleOptions = {
		maxTokens: options.maxTokens,
		signal,
		cacheRetention: "short",
		timeoutMs: options.timeoutMs,
		maxRetries: 0,
		...(model.reasoning && { reasoning: "minimal" }),
	};
	try {
		if (options.signal.aborted) return aborted();
		const message = await answerOf(access, model, context, common);
		if (typeof message === "string") return failed(message);
		if (options.signal.aborted) return aborted();
		if (signal.aborted) return failed(`no answer within ${options.timeoutMs} ms`);
		if (message.stopReason === "aborted") return aborted();
		if (message.stopReason === "error") return failed(message.errorMessage ?? "the model call failed");
		const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
		return { ok: true, text, usage: { input: message.usage.input, output: message.usage.output } };
	} catch (error) {
		if (options.signal.aborted) return aborted();
		return failed(signal.aborted ? `no answer within ${options.timeoutMs} ms` : errorText(error));
	}
}

/** The final message, or why there is none before the call (no key). */
async function answerOf(
	access: ModelAccess,
	model: Model<Api>,
	context: Context,
	options: SimpleOptions,
): Promise<AssistantMessage | string> {
	if (access.streamSimple) return access.streamSimple(model, context, options).result();
	const auth = await access.getApiKeyAndHeaders(model);
	if (!auth.ok) return auth.error;
	return completeSimple(model, context, { ...options, apiKey: auth.apiKey, headers: auth.headers });
}

const aborted = (): ModelCallResult => ({ ok: false, reason: "cancelled", aborted: true });
const failed = (reason: string): ModelCallResult => ({ ok: false, reason, aborted: false });
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One model as `listSuggestionModels` lists it (the seed's shape). */
interface ListedModel {
	provider: string;
	id: string;
	name: string;
	/** `"<provider>/<id>"`, what an editor sends back as `model`. */
	model: string;
}

/** The models pi has a key for, as an editor may choose among them. */
export function availableModels(access: Pick<ModelAccess, "getAvailable">): ListedModel[] {
	try {
		return access.getAvailable().map((model) => ({
			provider: model.provider,
			id: model.id,
			name: model.name,
			model: `${model.provider}/${model.id}`,
		}));
	} catch {
		return [];
	}
}
