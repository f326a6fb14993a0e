import type { Cancel, Clock } from "../shared/core/clock.ts";
import { REPLY_VIEW_UPDATE_MS } from "../shared/core/timing.ts";
import { type ReplyText, replyOf } from "./core/reply-text.ts";

/** Where a reply is shown: the editor's view of it, by the editor's key. */
export type ShowReply = (key: string, text: string, streaming: boolean) => void;

/**
 * The reply of each editor's latest ask (the assistant's text of the run it joined, thinking left out), and
 * the editors whose reply view is open: they get the text as it streams, at most a few times a second, and
 * nothing once the view is closed.
 */
export class ReplyViews {
	private readonly replies = new Map<string, { parts: ReplyText; streaming: boolean }>();
	private readonly open = new Set<string>();
	private readonly due = new Map<string, Cancel>();

	constructor(
		private readonly clock: Clock,
		private readonly show: ShowReply,
	) {}

	/** A new ask of that editor joined a run: its reply starts empty. */
	started(key: string): void {
		this.replies.set(key, { parts: { done: [], current: "" }, streaming: true });
		this.changed(key);
	}

	/** The assistant's message so far, for every editor whose ask the run carries. */
	streamed(keys: readonly string[], text: string, finished: boolean): void {
		for (const key of keys) {
			const reply = this.replies.get(key);
			if (!reply) continue;
			if (finished) {
				if (text !== "") reply.parts.done.push(text);
				reply.parts.current = "";
			} else reply.parts.current = text;
			this.changed(key);
		}
	}

	/** The run ended: the replies are final. */
	ended(keys: readonly string[]): void {
		for (const key of keys) {
			const reply = this.replies.get(key);
			if (!reply) continue;
			reply.streaming = false;
			this.changed(key, true);
		}
	}

	/** The editor opened its view: true when there is a reply to show (shown at once). */
	opened(key: string): boolean {
		const reply = this.replies.get(key);
		if (!reply) return false;
		this.open.add(key);
		this.showNow(key);
		return true;
	}

	closed(key: string): void {
		this.open.delete(key);
		this.due.get(key)?.();
		this.due.delete(key);
	}

	forget(key: string): void {
		this.closed(key);
		this.replies.delete(key);
	}

	close(): void {
		for (const cancel of this.due.values()) cancel();
		this.due.clear();
		this.open.clear();
	}

	private changed(key: string, now = false): void {
		if (!this.open.has(key)) return;
		if (now) {
			this.due.get(key)?.();
			this.due.delete(key);
			this.showNow(key);
			return;
		}
		if (this.due.has(key)) return;
		this.due.set(
			key,
			this.clock.after(REPLY_VIEW_UPDATE_MS, () => {
				this.due.delete(key);
				this.showNow(key);
			}),
		);
	}

	private showNow(key: string): void {
		const reply = this.replies.get(key);
		if (reply && this.open.has(key)) this.show(key, replyOf(reply.parts), reply.streaming);
	}
}
