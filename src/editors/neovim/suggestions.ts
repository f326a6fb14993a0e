import type { SuggestionKeyAction, SuggestionKeys } from "../../settings/core/settings.ts";
import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { NEOVIM_SUGGEST_CLAIM_RETRY_MS } from "../../shared/core/timing.ts";
import { REQUEST_CANCELLED } from "../core/json-rpc.ts";
import type { EditorRequests } from "../editor-source.ts";
import type { NeovimSuggestionsReport } from "./core/status.ts";
import { SUGGEST_COUNT } from "./core/suggest-context-lua.ts";
import { SUGGEST_SHOW_LUA, SUGGEST_START_LUA, SUGGEST_STOP_LUA } from "./core/suggest-lua.ts";
import {
	parseSuggestAsk,
	parseSuggestCancel,
	parseSuggestStart,
	type SuggestAsk,
	showOutcome,
	suggestionTexts,
	suggestLuaOptions,
} from "./core/suggest-protocol.ts";
import { lua, type NeovimRequest } from "./requests.ts";
import type { RpcAnswer } from "./rpc.ts";

/** The settings of Neovim's ghost text: the pause after typing before Neovim asks, and the keys. */
export interface NeovimSuggestionOptions {
	debounceMs: number;
	keys: SuggestionKeys;
}

/** What one Neovim's suggestions need of its session. */
export interface SuggestionSessionParts {
	/** The editor's key: what the suggestions' feature knows it by. */
	key: string;
	requests: EditorRequests;
	options: NeovimSuggestionOptions;
	clock: Clock;
	/** pi's channel in that Neovim, once known. */
	channel: () => number | undefined;
	/** A request when Neovim is free (its mode first). */
	run: (what: string, request: NeovimRequest) => Promise<RpcAnswer>;
}

type State = NeovimSuggestionsReport["state"] | "off";

/**
 * pi's ghost text in one Neovim: the Lua started while wanted (suggestions on and pushes live) and stopped
 * otherwise, Neovim's asks handed to the suggestions' feature under the editor's key and each answer sent back to
 * be drawn (Neovim draws only what still fits). An ask that crosses a stop reaches no model.
 */
export class NeovimSuggestions {
	private state: State = "off";
	private wanted = false;
	/** A stop Neovim did not confirm (or a start it may still run): stop is sent again while off is wanted. */
	private unsure = false;
	private settling?: Promise<void>;
	private triedAtMs = Number.NEGATIVE_INFINITY;
	private owner?: number;
	private reason?: string;
	private problem?: string;
	private unoffered: SuggestionKeyAction[] = [];
	private readonly counts = { asked: 0, shown: 0, stale: 0, empty: 0, cancelled: 0 };

	/** What the Lua is started with: the settings as Neovim takes them, fixed for the session. */
	private readonly luaOptions: ReturnType<typeof suggestLuaOptions>;

	constructor(private readonly parts: SuggestionSessionParts) {
		this.luaOptions = suggestLuaOptions(parts.options.debounceMs, parts.options.keys);
	}

	/** Started or stopped as wanted; idempotent. A claim another pi holds is asked again every few seconds. */
	set(on: boolean): Promise<void> {
		this.wanted = on;
		this.settling ??= this.settle().finally(() => {
			this.settling = undefined;
		});
		return this.settling;
	}

	get isOn(): boolean {
		return this.state === "on";
	}

	/** A notification of the Lua's: true when it was one (handled here). */
	notification(method: string, params: unknown): boolean {
		if (method === "pi_ide_suggest") {
			this.asked(params);
			return true;
		}
		if (method !== "pi_ide_suggest_cancel") return false;
		const id = parseSuggestCancel(params);
		if (id === undefined) this.problem = "a cancel without its id";
		else if (this.state === "on") {
			this.counts.cancelled++;
			this.parts.requests.cancelled(this.parts.key, id);
		}
		return true;
	}

	/** The connection ended: what Neovim asked is abandoned. */
	closed(): void {
		if (this.state === "on") this.parts.requests.gone(this.parts.key);
		this.state = "off";
		this.unsure = false;
	}

	report(): NeovimSuggestionsReport | undefined {
		if (this.state === "off") return this.wanted ? this.reportOf("starting") : undefined;
		return this.reportOf(this.state);
	}

	private reportOf(state: NeovimSuggestionsReport["state"]): NeovimSuggestionsReport {
		return {
			state,
			...(this.owner !== undefined && state === "elsewhere" && { owner: this.owner }),
			...(this.reason !== undefined && { reason: this.reason }),
			keys: this.luaOptions.keys,
			unoffered: this.unoffered,
			counts: { ...this.counts },
			...(this.problem !== undefined && { problem: this.problem }),
		};
	}

	private async settle(): Promise<void> {
		// Each round acts on what is wanted now; a change while Neovim was asked is acted on by the next round.
		for (;;) {
			const want = this.wanted;
			if (want) {
				if (!this.startDue()) return;
				await this.start();
			} else {
				if (this.state !== "on" && this.state !== "failed" && !this.unsure) {
					this.state = "off";
					return;
				}
				await this.stop();
			}
			if (this.wanted === want) return;
		}
	}

	private startDue(): boolean {
		if (this.state === "off") return true;
		if (this.state === "elsewhere" || this.state === "failed")
			return this.parts.clock.nowMs() - this.triedAtMs >= NEOVIM_SUGGEST_CLAIM_RETRY_MS;
		return false;
	}

	private async start(): Promise<void> {
		const channel = this.parts.channel();
		if (channel === undefined) return;
		this.triedAtMs = this.parts.clock.nowMs();
		// Ids start again at 1 in a new start: what the feature remembers of the old ones goes.
		this.parts.requests.gone(this.parts.key);
		const answer = await this.parts.run("start suggestions", lua(SUGGEST_START_LUA, channel, this.luaOptions));
		const parsed = answer.ok ? parseSuggestStart(answer.value, channel) : answer;
		if (!parsed.ok) {
			this.state = "failed";
			this.reason = parsed.reason;
			// A request that timed out may still run once Neovim is free: stopped again when off is wanted.
			this.unsure = true;
			return;
		}
		this.reason = undefined;
		const started = parsed.value;
		if (started.kind === "mine") {
			this.state = "on";
			this.unoffered = started.unoffered;
			this.unsure = false;
		} else if (started.kind === "elsewhere") {
			this.state = "elsewhere";
			this.owner = started.owner;
		} else {
			this.state = "unsupported";
			this.reason = started.reason;
		}
	}

	private async stop(): Promise<void> {
		const channel = this.parts.channel();
		const wasOn = this.state === "on";
		this.state = "off";
		if (wasOn) this.parts.requests.gone(this.parts.key);
		if (channel === undefined) return;
		const answer = await this.parts.run("stop suggestions", lua(SUGGEST_STOP_LUA, channel));
		this.unsure = !answer.ok;
	}

	/** Neovim asked: handed to the feature (only while on), its answer sent back to be drawn if it still fits. */
	private asked(params: unknown): void {
		const parsed = parseSuggestAsk(params);
		if (!parsed.ok) {
			this.problem = parsed.reason;
			return;
		}
		if (this.state !== "on" || !this.parts.requests.ownEditors()) return;
		const ask = parsed.value;
		this.counts.asked++;
		// The ask key's standing is the start's word; the others are judged in the buffer asking.
		this.unoffered = [...ask.unoffered.filter((action) => action !== "ask"), ...this.askUnoffered()];
		void runInBackground("neovim suggestion", () => this.answer(ask));
	}

	private askUnoffered(): SuggestionKeyAction[] {
		return this.unoffered.includes("ask") ? ["ask"] : [];
	}

	private async answer(ask: SuggestAsk): Promise<void> {
		const { requests, key } = this.parts;
		const answer = await requests.answer(key, { id: ask.id, method: "getSuggestions", params: ask.request });
		if ("error" in answer && answer.error.code === REQUEST_CANCELLED) return;
		const channel = this.parts.channel();
		if (this.state !== "on" || channel === undefined) return;
		const texts = "result" in answer ? suggestionTexts(answer.result, SUGGEST_COUNT) : [];
		const shown = await this.parts.run("suggestion", lua(SUGGEST_SHOW_LUA, channel, ask.id, ask.tick, texts));
		const outcome = shown.ok ? showOutcome(shown.value) : undefined;
		if (outcome === "shown" || outcome === "stale" || outcome === "empty") this.counts[outcome]++;
	}
}
