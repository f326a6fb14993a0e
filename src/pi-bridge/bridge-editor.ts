import type { AskingEditor, AskNews } from "../editors/editor-asks.ts";
import type { BridgeOutgoing, UiPromptAnswer } from "./core/bridge-messages.ts";
import { BRIDGE_LABEL, errorCodeOf } from "./core/bridge-texts.ts";

/** What an answer of the plugin's is to pi's question mirror: a choice (from 1), the copy closed, or a key. */
export type MirrorReply = { id: number; choice?: number } | { id: number; key: string };

/** The question mirror's way back from the plugin (questions/question-mirror.ts). */
export interface BridgeReplies {
	replied(editor: AskingEditor, reply: { id: number; choice?: number }): void;
	keyed(editor: AskingEditor, reply: { id: number; key: string }): void;
	gone(key: string): void;
}

/** How the editor reaches the plugin's connections (bridge-socket.ts), each a function. */
export interface BridgeClients {
	/** To every connection; `questions`: only to those that said `mirror_ready`. */
	send(message: BridgeOutgoing, to?: "questions"): void;
	/** A connection said `mirror_ready`. */
	mirrorReady(): boolean;
}

/**
 * The plugin as the asks and the question mirror see an editor: one for all its connections (pi-bridge.ext
 * broadcasts every message; a question may be answered from any of them, the first answer wins). A refused ask
 * becomes an `error` with pi-bridge's code, a question a `ui_prompt_request` (its end `ui_prompt_resolved`).
 * Run news (working, done, the reply) is not sent here: `agent_start` / `agent_end` of every run are.
 */
export class BridgeEditor implements AskingEditor {
	readonly key = "pi-bridge";
	readonly label = BRIDGE_LABEL;
	readonly piBridge = "plugin" as const;
	/** The choices of each question it shows, to read a `value` back as the choice it is. */
	private readonly choices = new Map<number, readonly string[]>();

	constructor(
		private readonly clients: BridgeClients,
		/** Why the plugin gets no questions whatever it says (`PI_BRIDGE_UI_PROMPT_MIRROR=0`), if so. */
		private readonly mirrorOff: string | undefined,
	) {}

	get noQuestions(): string | undefined {
		if (this.mirrorOff !== undefined) return this.mirrorOff;
		return this.clients.mirrorReady() ? undefined : "the plugin has not said mirror_ready";
	}

	tell(news: AskNews): void {
		const { send } = this.clients;
		if (news.kind === "status") {
			if (news.level === "error") send({ type: "error", message: news.text, code: errorCodeOf(news.notSent) });
		} else if (news.kind === "question") {
			this.choices.set(news.id, news.choices);
			const kind = news.confirm ? "confirm" : "select";
			send({ type: "ui_prompt_request", id: news.id, kind, title: news.title, options: news.choices }, "questions");
		} else if (news.kind === "notice") {
			this.choices.set(news.id, []);
			const lines = news.lines ?? [];
			send({ type: "ui_prompt_request", id: news.id, kind: "custom", title: news.text, lines }, "questions");
		} else if (news.kind === "questionClosed") {
			this.choices.delete(news.id);
			send({ type: "ui_prompt_resolved", id: news.id }, "questions");
		}
	}

	/** A `ui_prompt_response` as the mirror takes it; undefined for an id it does not show or a value not offered. */
	reply(id: unknown, answer: UiPromptAnswer): MirrorReply | undefined {
		if (typeof id !== "number") return undefined;
		const choices = this.choices.get(id);
		if (choices === undefined) return undefined;
		if ("key" in answer) return { id, key: answer.key };
		if ("cancelled" in answer) return { id };
		const index = choices.indexOf(answer.value);
		return index < 0 ? undefined : { id, choice: index + 1 };
	}
}
