import { runInBackground } from "../../shared/background.ts";
import type { Cancel, Clock } from "../../shared/core/clock.ts";
import { ASK_REGISTER_RETRY_MS, QUESTION_RETRY_MS } from "../../shared/core/timing.ts";
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
import { QUESTION_CLOSE_LUA, QUESTION_SHOW_LUA } from "./core/question-lua.ts";
import type { NeovimAsksReport } from "./core/status.ts";
import { lua, type NeovimRequest } from "./requests.ts";
import type { RpcAnswer } from "./rpc.ts";

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
	/** The question (or notice) this Neovim should show now: a retry stops once it is closed. */
	private question?: number;
	private registerAgain?: Cancel;
	private wanted?: { on: boolean; connected: boolean };
	readonly editor: AskingEditor;

	constructor(private readonly parts: AskSessionParts) {
		this.editor = { ...parts.editor, tell: (news) => this.tell(news) };
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
		const value = answer.value as { defined?: unknown; taken?: unknown; unsupported?: unknown };
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
		this.registered = { connected };
		this.defined = names(value.defined);
		this.taken = names(value.taken);
	}

	private registerAgainSoon(): void {
		if (this.registerAgain) return;
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
		if (channel !== undefined) await this.parts.run("stop asks", lua(ASK_STOP_LUA, channel));
	}

	private tell(news: AskNews): void {
		const channel = this.parts.channel();
		if (this.state !== "on" || channel === undefined) return;
		if (news.kind === "question" || news.kind === "notice") {
			this.question = news.id;
			void runInBackground("neovim question", () => this.showQuestion(this.newsRequest(channel, news), news.id));
			return;
		}
		if (news.kind === "questionClosed" && this.question === news.id) this.question = undefined;
		void runInBackground("neovim ask news", () => this.parts.run("ask news", this.newsRequest(channel, news)));
	}

	/**
	 * A question is shown once Neovim can take it: sent again while it stays open and Neovim waits for the user
	 * (a prompt: pi's requests wait) or for Normal mode (the Lua's own wait misses a prompt's end).
	 */
	private async showQuestion(request: NeovimRequest, id: number): Promise<void> {
		while (this.question === id && this.state === "on") {
			const answer = await this.parts.run("show a question", request);
			if (answer.ok && answer.value === "shown") return;
			await new Promise<void>((resume) => this.parts.clock.after(QUESTION_RETRY_MS, resume));
		}
	}

	private newsRequest(channel: number, news: AskNews): NeovimRequest {
		switch (news.kind) {
			case "status":
				return lua(ASK_SAY_LUA, news.text, news.level);
			case "reply":
				return lua(ASK_REPLY_LUA, channel, news.text, news.streaming);
			case "question":
				return lua(QUESTION_SHOW_LUA, channel, { id: news.id, title: news.title, choices: news.choices }, this.quiet());
			case "notice":
				return lua(QUESTION_SHOW_LUA, channel, { id: news.id, text: news.text, choices: [] }, this.quiet());
			case "questionClosed":
				return lua(QUESTION_CLOSE_LUA, news.id);
		}
	}

	/** pi runs in this Neovim's own terminal: its question opens without taking the focus from pi. */
	private quiet(): boolean {
		return this.parts.piInside();
	}
}

/** The command names the Lua reported, checked. */
function names(value: unknown): string[] {
	if (!Array.isArray(value)) return [];
	return value.filter((name): name is string => typeof name === "string" && /^[A-Z][A-Za-z]{0,30}$/.test(name));
}
