import type { AskingEditor, AskNews } from "../editors/editor-asks.ts";
import type { BridgeConnection } from "./bridge-socket.ts";
import type { UiPromptAnswer } from "./core/bridge-messages.ts";
import { BRIDGE_LABEL, errorCodeOf } from "./core/bridge-texts.ts";

/** What an answer of the plugin's is to pi's question mirror: a choice (from 1), the copy closed, or a key. */
export type MirrorReply = { id: number; choice?: number } | { id: number; key: string };

/** The question mirror's way back from the plugin (questions/question-mirror.ts). */
export interface BridgeReplies {
	replied(editor: AskingEditor, reply: { id: number; choice?: number }): void;
	keyed(editor: AskingEditor, reply: { id: number; key: string }): void;
	gone(key: string): void;
}

/**
 * One connection of the plugin's as the asks and the question mirror see an editor: a refused ask becomes an
 * `error` with pi-bridge's code, a question a `ui_prompt_request` (its end `ui_prompt_resolved`). Run news
 * (working, done, the reply) is not sent here: every client gets `agent_start` / `agent_end` of every run.
 */
export class BridgeEditor implements AskingEditor {
	readonly key: string;
	readonly label = BRIDGE_LABEL;
	readonly piBridge = "plugin" as const;
	/** The choices of each question it shows, to read a `value` back as the choice it is. */
	private readonly choices = new Map<number, readonly string[]>();

	constructor(
		private readonly connection: BridgeConnection,
		/** Why the plugin gets no questions whatever it says (`PI_BRIDGE_UI_PROMPT_MIRROR=0`), if so. */
		private readonly mirrorOff: string | undefined,
	) {
		this.key = `pi-bridge:${connection.id}`;
	}

	get noQuestions(): string | undefined {
		if (this.mirrorOff !== undefined) return this.mirrorOff;
		return this.connection.mirrorReady ? undefined : "the plugin has not said mirror_ready";
	}

	tell(news: AskNews): void {
		const send = this.connection.send;
		if (news.kind === "status") {
			if (news.level === "error") send({ type: "error", message: news.text, code: errorCodeOf(news.notSent) });
		} else if (news.kind === "question") {
			this.choices.set(news.id, news.choices);
			const kind = news.confirm ? "confirm" : "select";
			send({ type: "ui_prompt_request", id: news.id, kind, title: news.title, options: news.choices });
		} else if (news.kind === "notice") {
			this.choices.set(news.id, []);
			send({ type: "ui_prompt_request", id: news.id, kind: "custom", title: news.text, lines: news.lines ?? [] });
		} else if (news.kind === "questionClosed") {
			this.choices.delete(news.id);
			send({ type: "ui_prompt_resolved", id: news.id });
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
