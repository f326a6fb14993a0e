import { INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, REQUEST_CANCELLED } from "../editors/core/json-rpc.ts";
import type { EditorRequest, EditorRequestAnswer, EditorRequests } from "../editors/editor-source.ts";
import { realFile } from "../editors/real-paths.ts";
import type { SecretFileMatch } from "../safety/core/secret-files.ts";
import type { SuggestionStanding } from "../settings/core/settings.ts";
import { guarded } from "../shared/background.ts";
import type { Clock } from "../shared/core/clock.ts";
import { show } from "../shared/core/display-text.ts";
import { SUGGESTION_TIMEOUT_MS } from "../shared/core/timing.ts";
import { firstTimeInProcess, type SuggestionCounts, suggestionsMemory } from "../shared/process-memory.ts";
import type { RequestId } from "./core/early-cancels.ts";
import { chooseSuggestionModel, type ModelChoice, type ModelSource, parseModelRef } from "./core/model-choice.ts";
import { parseSuggestions } from "./core/parse.ts";
import { SUGGESTION_MAX_TOKENS, suggestionPrompt } from "./core/prompt.ts";
import { parseSuggestionRequest, type SuggestionRequest } from "./core/request.ts";
import { suggestionStatusLines } from "./core/status-texts.ts";
import { availableModels, callSuggestionModel, type ModelAccess } from "./model-call.ts";
import { type Redact, redactedRequest } from "./redacted-request.ts";
import { RequestsByEditor } from "./requests-by-editor.ts";
import { firstAnswerNotice, setSuggestionsForProcess, standingWhy } from "./standing.ts";

/** What one session's suggestions read of the rest of pi, each a function or a value (never pi's `ctx`). */
export interface SuggestionServiceInputs {
	/** On, off or asked-only right now (the settings, `/ide suggestions`). */
	standing: () => SuggestionStanding;
	/** Requests a minute per editor. */
	perMinute: () => number;
	/** `--pi-ide-suggestion-model`, as read at `session_start`. */
	flagModel: () => string | undefined;
	/** The session's model as `provider/id`. */
	sessionModel: () => string | undefined;
	models: ModelAccess;
	/**
	 * The secret-file rules of selections and references, over a file's names (as the editor names it, its real
	 * path): a match gets no suggestion and sends nothing.
	 */
	isSecretFile: (paths: readonly string[]) => SecretFileMatch | undefined;
	redact: Redact;
	clock: Clock;
	/** The one notice of a pi process whose suggestions nobody turned on. */
	notify: (message: string) => void;
	/** Each model call is given up after this long (tests shorten it). */
	timeoutMs?: number;
}

type Outcome = Exclude<keyof SuggestionCounts, "requests" | "inputTokens" | "outputTokens">;

const NOTICE_ONCE_KEY = "suggestions: the first answer of asked-only";

const MODEL_WHY: Record<ModelSource, string> = {
	flag: "--pi-ide-suggestion-model",
	request: "the editor's request",
	setting: "global settings",
	session: "the session's model, unless the editor names one pi has",
};

/** No suggestions; with why when the editor should be told (a rate limit shows nothing else in VS Code). */
const noSuggestions = (reason?: string): EditorRequestAnswer => ({
	result: { suggestions: [], ...(reason && { reason }) },
});
const cancelledAnswer = (): EditorRequestAnswer => ({
	error: { code: REQUEST_CANCELLED, message: "request cancelled" },
});

/**
 * Inline suggestions for one session: an editor's `getSuggestions` answered by a model, `listSuggestionModels`,
 * its cancels. Nothing is sent for a secret file, a request with no file or when suggestions are off; every
 * text field is redacted before it leaves; one request per editor at a time, each call timed out, each editor
 * held to its rate. Knows no editor: a source hands it requests by the editor's key.
 */
export class SuggestionService {
	private readonly editors = new RequestsByEditor();
	private readonly running = new Set<Promise<EditorRequestAnswer>>();
	private readonly standingListeners = new Set<() => void>();
	private closed = false;

	constructor(private readonly inputs: SuggestionServiceInputs) {}

	/** One request from the editor `editorKey`; never rejects (untrusted input is a reason, not a throw). */
	readonly answer = (editorKey: string, request: EditorRequest): Promise<EditorRequestAnswer> => {
		if (request.method === "listSuggestionModels") return Promise.resolve({ result: this.modelList() });
		if (request.method !== "getSuggestions") {
			const method = show(String(request.method), 60);
			return Promise.resolve({ error: { code: METHOD_NOT_FOUND, message: `pi does not serve ${method}` } });
		}
		const answering = this.getSuggestions(editorKey, request.id, request.params).catch((error: unknown) =>
			this.failed(INTERNAL_ERROR, error instanceof Error ? error.message : String(error)),
		);
		this.running.add(answering);
		void answering.finally(() => this.running.delete(answering));
		return answering;
	};

	/** A `request_cancelled {id}`: its model call aborted (it answers REQUEST_CANCELLED), or remembered when early. */
	readonly cancelled = (editorKey: string, id: RequestId): void => {
		this.editors.cancel(editorKey, id);
	};

	/** The editor's connection ended: its request in flight is aborted. */
	readonly editorGone = (editorKey: string): void => {
		this.editors.gone(editorKey);
	};

	/**
	 * What the editors' side is given (`SourceHooks.requests`): the requests, cancels and gone editors of every
	 * source. `wanted`: a connection kept only to be asked (pi-ide.nvim's server) is worth keeping unless off.
	 * `ownEditors`: pi's own editors (Neovim's ghost text) ask only when suggestions are on, never asked-only.
	 */
	forEditors(): EditorRequests {
		const listeners = this.standingListeners;
		return {
			wanted: () => this.inputs.standing().mode !== "off",
			ownEditors: () => this.inputs.standing().mode === "on",
			onStandingChange: (listener) => {
				// Each subscription its own entry: the same function given twice is two subscriptions.
				const entry = () => listener();
				listeners.add(entry);
				return () => listeners.delete(entry);
			},
			answer: this.answer,
			cancelled: this.cancelled,
			gone: this.editorGone,
		};
	}

	/** `/ide suggestions on|off` for this pi process: what is now true, as one notice; the editors are told. */
	setForProcess(on: boolean): string {
		const notice = setSuggestionsForProcess(on);
		for (const listener of [...this.standingListeners]) guarded("suggestions: the standing's listener", listener)();
		return notice;
	}

	/** The session ends: every model call aborted, every answer given. */
	async close(): Promise<void> {
		this.closed = true;
		this.editors.abortAll();
		await Promise.allSettled([...this.running]);
	}

	statusLines(): string[] {
		const standing = this.inputs.standing();
		const choice = this.modelChoice(undefined);
		const { counts, lastError } = suggestionsMemory();
		return suggestionStatusLines({
			standing: standing.mode,
			standingWhy: standingWhy(standing),
			...(choice.ok ? { model: choice.ref, modelWhy: MODEL_WHY[choice.from] } : { modelWhy: choice.reason }),
			...counts,
			...(lastError !== undefined && { lastError }),
			tokens: { input: counts.inputTokens, output: counts.outputTokens },
		});
	}

	private async getSuggestions(editorKey: string, id: RequestId, params: unknown): Promise<EditorRequestAnswer> {
		suggestionsMemory().counts.requests++;
		if (this.editors.cancelledEarly(editorKey, id)) return this.ended("cancelled", cancelledAnswer());
		const parsed = parseSuggestionRequest(params);
		if (!parsed.ok) return this.failed(INVALID_PARAMS, parsed.reason);
		if (this.closed) return this.ended("refused", noSuggestions());
		// Even a request refused below makes the older one stale: the editor's cursor has moved on.
		const started = this.editors.start(editorKey, id);
		// A throw below is answered by `answer`'s own catch, as any other failure.
		try {
			return await this.suggest(editorKey, parsed.request, started.stop.signal);
		} finally {
			this.editors.end(editorKey, started);
		}
	}

	private async suggest(
		editorKey: string,
		request: SuggestionRequest,
		signal: AbortSignal,
	): Promise<EditorRequestAnswer> {
		const { inputs } = this;
		const standing = inputs.standing();
		if (standing.mode === "off" || !request.filePath || request.suggestionCount <= 0)
			return this.ended("refused", noSuggestions());
		// A link to a secret file is one: its real path is asked too, as a reference's is.
		if (inputs.isSecretFile([request.filePath, await realFile(request.filePath)]))
			return this.ended("refused", noSuggestions());
		const perMinute = inputs.perMinute();
		if (!this.editors.admit(editorKey, inputs.clock.nowMs(), perMinute))
			return this.ended("rateLimited", noSuggestions(`rate limited: at most ${perMinute} a minute`));
		const redacted = await redactedRequest(request, inputs.redact);
		if (signal.aborted) return this.ended("cancelled", cancelledAnswer());
		if (!redacted) return this.ended("refused", noSuggestions());
		const choice = this.modelChoice(request.model);
		const model = choice.ok ? this.lookup(choice.ref) : undefined;
		if (!choice.ok || !model)
			return this.failed(INTERNAL_ERROR, choice.ok ? "pi no longer has the model" : choice.reason);
		// A notice that fails (a UI gone) is recorded for /ide status; the answer does not wait on it.
		if (standing.mode === "asked-only" && firstTimeInProcess(NOTICE_ONCE_KEY))
			guarded("suggestions: the first answer's notice", () =>
				inputs.notify(firstAnswerNotice(choice.ref, perMinute)),
			)();
		const result = await callSuggestionModel(inputs.models, model, suggestionPrompt(redacted), {
			signal,
			timeoutMs: inputs.timeoutMs ?? SUGGESTION_TIMEOUT_MS,
			maxTokens: SUGGESTION_MAX_TOKENS,
		});
		if (!result.ok)
			return result.aborted ? this.ended("cancelled", cancelledAnswer()) : this.failed(INTERNAL_ERROR, result.reason);
		const { counts } = suggestionsMemory();
		counts.inputTokens += result.usage.input;
		counts.outputTokens += result.usage.output;
		const suggestions = parseSuggestions(result.text, {
			...(redacted.language !== undefined && { language: redacted.language }),
			cursorBefore: redacted.cursorBefore,
			cursorAfter: redacted.cursorAfter,
			count: redacted.suggestionCount,
			...(redacted.cursorInComment !== undefined && { cursorInComment: redacted.cursorInComment }),
		});
		return this.ended(suggestions.length > 0 ? "answered" : "empty", { result: { suggestions } });
	}

	/** `listSuggestionModels`, as the seed answers it. */
	private modelList(): { cliOverride?: string; currentModel?: string; models: ReturnType<typeof availableModels> } {
		const flag = this.inputs.flagModel()?.trim();
		const session = this.sessionModel();
		return {
			...(flag && { cliOverride: flag }),
			...(session && { currentModel: session }),
			models: availableModels(this.inputs.models),
		};
	}

	private modelChoice(requestModel: string | undefined): ModelChoice {
		return chooseSuggestionModel({
			flag: this.inputs.flagModel(),
			requestModel,
			settingModel: this.inputs.standing().model,
			sessionModel: this.sessionModel(),
			known: (ref) => this.lookup(ref) !== undefined,
		});
	}

	/** pi's `ctx.model`, read now: the session may have switched models since the last request. */
	private sessionModel(): string | undefined {
		try {
			return this.inputs.sessionModel();
		} catch {
			return undefined;
		}
	}

	private lookup(ref: string) {
		const parsed = parseModelRef(ref);
		try {
			return parsed && this.inputs.models.find(parsed.provider, parsed.id);
		} catch {
			return undefined;
		}
	}

	private ended(outcome: Outcome, answer: EditorRequestAnswer): EditorRequestAnswer {
		suggestionsMemory().counts[outcome]++;
		return answer;
	}

	private failed(code: number, reason: string): EditorRequestAnswer {
		const message = show(reason, 200);
		suggestionsMemory().lastError = message;
		return this.ended("errors", { error: { code, message } });
	}
}
