import { runInBackground } from "../../shared/background.ts";
import type { Cancel, Clock } from "../../shared/core/clock.ts";
import { ASK_REGISTER_RETRY_MS } from "../../shared/core/timing.ts";
import { isAskMethod } from "../core/ask-methods.ts";
import type { AskingEditor, AskNews, EditorAsks } from "../editor-asks.ts";
import {
	ASK_COMMANDS,
	ASK_FOLLOW_DISK_LUA,
	ASK_NOTIFICATION,
	ASK_REPLY_LUA,
	ASK_SAY_LUA,
	ASK_START_LUA,
	ASK_STOP_LUA,
} from "./core/ask-lua.ts";
import type { NeovimAsksReport } from "./core/status.ts";
import { NeovimQuestions } from "./questions.ts";
import { lua, type NeovimRequest } from "./requests.ts";
import type { RpcAnswer } from "./rpc.ts";

/** Registering again after a failure stops after this many tries in a row (a minute at one a second). */
const MAX_REGISTER_RETRIES = 60;

/** What one Neovim's asks need of its session. */
export interface AskSessionParts {
	asks: EditorAsks;
	/** The editor as asks/ knows it (its key and label); `tell` is added here. */
	editor: Omit<AskingEditor, "tell">;
	/** pi's pid and project, as the list of pis in Neovim shows them. */
	pi: { pid: number; project: string };
	/** pi's channel in that Neovim, once known. */
	channel: () => number | undefined;
	/** pi runs in this Neovim's terminal (`$NVIM`). */
	piInside: () => boolean;
	clock: Clock;
	/** A request when Neovim is free (its mode first), within an optional deadline (the hooks' clock). */
	run: (what: string, request: NeovimRequest, deadlineMs?: number) => Promise<RpcAnswer>;
}

/**
 * Asks from one Neovim: pi's channel registered in the Lua's list of pis (the commands defined once per Neovim),
 * again when whether pi is connected to it changes; Neovim's notifications handed to asks/ under the editor's
 * key; pi's words and the reply sent back. Removed when asks are not wanted and when pi's session closes.
 */
export class NeovimAsks {
	private state: NeovimAsksReport["state"] | "off" = "off";
	private registered?: { connected: boolean };
	private defined: string[] = [];
	private taken: string[] = [];
	private reason?: string;
	private settling?: Promise<void>;
	private readonly questions: NeovimQuestions;
	private registerAgain?: Cancel;
	private registerFailures = 0;
	private wanted?: { on: boolean; connected: boolean };
	/** pi-bridge.nvim was loaded in this Neovim when pi registered. */
	private runsPiBridge = false;
	readonly editor: AskingEditor;

	constructor(private readonly parts: AskSessionParts) {
		const asks = this;
		this.editor = {
			...parts.editor,
			tell: (news) => this.tell(news),
			get piBridge() {
				return asks.runsPiBridge ? ("host" as const) : undefined;
			},
		};
		this.questions = new NeovimQuestions({
			channel: parts.channel,
			on: () => this.state === "on",
			piInside: parts.piInside,
			run: (what, request) => parts.run(what, request),
			clock: parts.clock,
		});
	}

	/** Registered (with `connected`) or removed as wanted; idempotent, one change at a time. */
	set(on: boolean, connected: boolean): Promise<void> {
		this.wanted = { on, connected };
		this.settling ??= this.settle().finally(() => {
			this.settling = undefined;
		});
		return this.settling;
	}

	/** A notification of the Lua's: true when it was one (handed to asks/). */
	notification(method: string, params: unknown): boolean {
		if (method !== ASK_NOTIFICATION) return false;
		const [askMethod, askParams] = Array.isArray(params) ? params : [];
		if (this.state !== "on" || typeof askMethod !== "string" || !isAskMethod(askMethod)) return true;
		this.parts.asks.received(this.editor, askMethod, askParams);
		return true;
	}

	/** The connection ended: nothing more is told this Neovim. */
	closed(): void {
		if (this.state === "on") this.parts.asks.gone(this.editor.key);
		this.state = "off";
		this.registered = undefined;
		this.registerAgain?.();
		this.registerAgain = undefined;
	}

	/** A run ended: its buffers follow the disk; how many changed files stayed as they were. */
	async followDisk(deadlineMs: number): Promise<number | undefined> {
		if (this.state !== "on") return undefined;
		const answer = await this.parts.run("follow the disk", lua(ASK_FOLLOW_DISK_LUA), deadlineMs);
		return answer.ok && typeof answer.value === "number" ? answer.value : undefined;
	}

	report(): NeovimAsksReport | undefined {
		if (this.state === "off" && !this.wanted?.on) return undefined;
		return {
			state: this.state === "off" ? "starting" : this.state,
			defined: this.defined,
			taken: this.taken,
			...(this.reason !== undefined && { reason: this.reason }),
		};
	}

	private async settle(): Promise<void> {
		for (;;) {
			const want = this.wanted;
			if (!want) return;
			if (want.on && (this.state !== "on" || this.registered?.connected !== want.connected))
				await this.register(want.connected);
			else if (!want.on && this.state !== "off") await this.remove();
			if (this.wanted === want) return;
		}
	}

	private async register(connected: boolean): Promise<void> {
		const channel = this.parts.channel();
		if (channel === undefined) return;
		const me = { pid: this.parts.pi.pid, project: this.parts.pi.project, connected };
		const answer = await this.parts.run("start asks", lua(ASK_START_LUA, channel, me, ASK_COMMANDS));
		if (!answer.ok) {
			// Neovim waits for the user (a prompt) or missed it: asked again in a moment; asks on stay on meanwhile.
			if (this.state !== "on") [this.state, this.reason] = ["failed", answer.reason];
			this.registerAgainSoon();
			return;
		}
		const value = answer.value as { defined?: unknown; taken?: unknown; unsupported?: unknown; piBridge?: unknown };
		if (typeof value !== "object" || value === null) {
			this.state = "failed";
			this.reason = "Neovim answered nonsense";
			return;
		}
		if (typeof value.unsupported === "string") {
			this.state = "unsupported";
			this.reason = value.unsupported.slice(0, 200);
			return;
		}
		this.state = "on";
		this.reason = undefined;
		this.registerFailures = 0;
		this.registered = { connected };
		this.defined = names(value.defined);
		this.taken = names(value.taken);
		this.runsPiBridge = value.piBridge === true;
	}

	/** Neovim in a prompt ends it soon; one that keeps failing (a broken Lua, a dead loop) is left with its reason. */
	private registerAgainSoon(): void {
		if (this.registerAgain || ++this.registerFailures > MAX_REGISTER_RETRIES) return;
		this.registerAgain = this.parts.clock.after(ASK_REGISTER_RETRY_MS, () => {
			this.registerAgain = undefined;
			const want = this.wanted;
			if (want?.on && this.state !== "off")
				void runInBackground("neovim asks again", () => this.set(want.on, want.connected));
		});
	}

	private async remove(): Promise<void> {
		const channel = this.parts.channel();
		const wasOn = this.state === "on";
		this.state = "off";
		this.registered = undefined;
		if (wasOn) this.parts.asks.gone(this.editor.key);
		if (channel === undefined) return;
		this.questions.forget();
		await this.parts.run("stop asks", lua(ASK_STOP_LUA, channel));
	}

	private tell(news: AskNews): void {
		const channel = this.parts.channel();
		if (this.state !== "on" || channel === undefined) return;
		if (news.kind === "status") this.send("ask news", lua(ASK_SAY_LUA, news.text, news.level));
		else if (news.kind === "reply") this.send("ask news", lua(ASK_REPLY_LUA, channel, news.text, news.streaming));
		else this.questions.tell(news);
	}

	private send(what: string, request: NeovimRequest): void {
		void runInBackground(`neovim ${what}`, () => this.parts.run(what, request));
	}
}

/** The command names the Lua reported, checked. */
function names(value: unknown): string[] {
	if (!Array.isArray(value)) return [];
	return value.filter((name): name is string => typeof name === "string" && /^[A-Z][A-Za-z]{0,30}$/.test(name));
}
