import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { QUESTION_RETRY_MS } from "../../shared/core/timing.ts";
import type { AskNews } from "../editor-asks.ts";
import { QUESTION_CLOSE_LUA, QUESTION_SHOW_LUA } from "./core/question-lua.ts";
import { lua, type NeovimRequest } from "./requests.ts";
import type { RpcAnswer } from "./rpc.ts";

/** A request that failed outright (not "waiting" or "busy") is tried this many times, then given up. */
const MAX_FAILED_ATTEMPTS = 25;

type QuestionNews = Extract<AskNews, { kind: "question" | "notice" | "questionClosed" }>;

/** What one Neovim's question window needs of its session. */
export interface NeovimQuestionParts {
	/** pi's channel in that Neovim, once known. */
	channel: () => number | undefined;
	/** pi's asks are registered there (its answers come back as asks' notifications). */
	on: () => boolean;
	/** pi runs in this Neovim's terminal (`$NVIM`): the window opens without the focus. */
	piInside: () => boolean;
	run: (what: string, request: NeovimRequest) => Promise<RpcAnswer>;
	clock: Clock;
}

/**
 * pi's question in one Neovim (core/question-lua.ts), driven to what pi wants shown: a question or notice is sent
 * again while Neovim cannot take it (a prompt: pi's requests wait; Insert mode: the Lua waits for Normal mode;
 * another pi's question on screen), and so is its close, until it lands or a newer one replaces it.
 */
export class NeovimQuestions {
	/** The question this Neovim should show now; undefined once closed. */
	private wanted?: number;
	/** The question whose close is still to land. */
	private closing?: number;

	constructor(private readonly parts: NeovimQuestionParts) {}

	tell(news: QuestionNews): void {
		const channel = this.parts.channel();
		if (!this.parts.on() || channel === undefined) return;
		if (news.kind === "questionClosed") {
			if (this.wanted === news.id) this.wanted = undefined;
			this.closing = news.id;
			const close = lua(QUESTION_CLOSE_LUA, channel, news.id);
			void runInBackground("neovim question close", () => this.until(close, () => this.closing === news.id));
			return;
		}
		this.wanted = news.id;
		const view =
			news.kind === "question" ? { title: news.title, choices: news.choices } : { text: news.text, choices: [] };
		const show = lua(QUESTION_SHOW_LUA, channel, { id: news.id, ...view }, this.parts.piInside());
		void runInBackground("neovim question", () => this.until(show, () => this.wanted === news.id, "shown"));
	}

	/** pi's asks left this Neovim: so did its question (the asks' Lua drops it); nothing more is sent. */
	forget(): void {
		this.wanted = undefined;
		this.closing = undefined;
	}

	/** `request` sent until it lands (`landed`: the Lua's answer when it is not just `ok`) or is no longer wanted. */
	private async until(request: NeovimRequest, wanted: () => boolean, landed?: string): Promise<void> {
		let failed = 0;
		while (wanted() && this.parts.on()) {
			const answer = await this.parts.run("a question", request);
			if (answer.ok && (landed === undefined || answer.value === landed)) {
				if (landed === undefined) this.closing = undefined;
				return;
			}
			// Not yet taken ("waiting", "busy", a prompt) is asked again; a real failure only so often.
			if (!answer.ok && ++failed >= MAX_FAILED_ATTEMPTS) return;
			await new Promise<void>((resume) => this.parts.clock.after(QUESTION_RETRY_MS, resume));
		}
	}
}
