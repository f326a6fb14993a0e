import { AskService } from "../../src/asks/ask-service.ts";
import type { AskMethod } from "../../src/editors/core/ask-methods.ts";
import type { AskingEditor, AskNews, DiskFollowed } from "../../src/editors/editor-asks.ts";
import { DEFAULT_SECRET_FILE_PATTERNS, secretFileMatcher } from "../../src/safety/core/secret-files.ts";
import { ManualClock } from "../support/clocks.ts";
import { waitFor } from "../support/wait-for.ts";

/** An editor that asks: what pi told it, in order. */
export interface FakeEditor extends AskingEditor {
	told: AskNews[];
	/** The status lines told, their text only. */
	statuses(): string[];
	/** The reply views told, in order. */
	replies(): { text: string; streaming: boolean }[];
}

export function fakeEditor(pid: number, label = `Neovim ${pid}`): FakeEditor {
	const told: AskNews[] = [];
	return {
		key: `pid:${pid}`,
		label,
		told,
		tell: (news) => {
			told.push(news);
		},
		statuses: () => told.flatMap((news) => (news.kind === "status" ? [news.text] : [])),
		replies: () =>
			told.flatMap((news) => (news.kind === "reply" ? [{ text: news.text, streaming: news.streaming }] : [])),
	};
}

/** What pi is like for the service, as plain values a test changes. */
export interface PiState {
	on: boolean;
	idle: boolean;
	model: string | undefined;
	aborts: number;
	connected: string[];
	followed: DiskFollowed[];
	followCalls: number;
	inserted: { file: string; lines?: { start: number; end: number } }[];
	/** `send` throws this once when set (pi refusing the message). */
	sendThrows?: Error;
	/** The editors' answers to pi's questions, as asks/ handed them on. */
	questionReplies: { key: string; id: number; choice?: number }[];
}

/**
 * The service on plain function parts: a recorded `send`, `isIdle` and the model from `state`, a ManualClock, the
 * real secret-file matcher and the real credential scanner (secretlint) over the project `projectDir`.
 */
export function askRig(projectDir: string, options: { insertInput?: boolean } = {}) {
	const clock = new ManualClock();
	const sent: string[] = [];
	const state: PiState = {
		on: true,
		idle: true,
		model: "faux/model-1",
		aborts: 0,
		connected: [],
		followed: [],
		followCalls: 0,
		inserted: [],
		questionReplies: [],
	};
	const service = new AskService({
		on: () => state.on,
		send: (text) => {
			const error = state.sendThrows;
			state.sendThrows = undefined;
			if (error) throw error;
			sent.push(text);
		},
		isIdle: () => state.idle,
		model: () => state.model,
		abort: () => {
			state.aborts++;
		},
		...(options.insertInput !== false && {
			insertInput: (file: string, lines?: { start: number; end: number }) => {
				state.inserted.push({ file, ...(lines && { lines }) });
				return lines ? `@${file}#L${lines.start}-${lines.end} ` : `@${file} `;
			},
		}),
		connectAsked: (key, label) => {
			state.connected.push(`${key} ${label}`);
			return state.connected.length === 1;
		},
		followDisk: async () => {
			state.followCalls++;
			return state.followed;
		},
		placeholders: { projectDir, secretFile: secretFileMatcher(DEFAULT_SECRET_FILE_PATTERNS), redactSecrets: true },
		questionReplied: (editor, reply) => {
			state.questionReplies.push({ key: editor.key, ...reply });
		},
		clock,
	});
	const asks = service.forEditors();
	const receive = (editor: FakeEditor, method: AskMethod, params?: unknown) => asks.received(editor, method, params);
	/** Sends an ask and waits until it was sent, or its editor told it was not (the ask runs in the background). */
	const ask = async (editor: FakeEditor, params: unknown): Promise<string | undefined> => {
		const before = sent.length;
		const toldBefore = editor.told.length;
		receive(editor, "ask", params);
		await waitFor("the ask sent or refused", () => sent.length > before || editor.told.length > toldBefore);
		return sent.length > before ? sent.at(-1) : undefined;
	};
	/** What pi's `input` hook hands the model for a text sent (the token taken off), as pi's idle state says. */
	const input = (text: string) => {
		const message = service.input(text, state.idle);
		if (message === undefined) throw new Error(`not an ask's input: ${text.slice(0, 40)}`);
		return message;
	};
	return { service, asks, receive, ask, input, clock, sent, state };
}

/** A user message as pi's `message_start` carries it. */
export const userMessage = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
/** An assistant message so far, with its thinking (left out of the reply). */
export const assistantMessage = (text: string) => ({
	role: "assistant",
	content: [
		{ type: "thinking", thinking: "the user wants to know" },
		{ type: "text", text },
	],
});
