import type { Cancel, Clock } from "../shared/core/clock.ts";

/**
 * The requests one connection has sent and waits on (a Neovim's msgpack-RPC, an IDE server's JSON-RPC): each
 * with an id and a timeout on the clock; an answer that comes after its timeout finds nobody and is dropped.
 */
export class PendingRequests<Answer> {
	private nextId = 1;
	private readonly waiting = new Map<number, { done: (answer: Answer) => void; cancel: Cancel }>();

	/** `maxId`: where ids wrap (msgpack-RPC's msgid is a uint32). */
	constructor(
		private readonly clock: Clock,
		private readonly maxId = Number.MAX_SAFE_INTEGER,
	) {}

	/**
	 * A new id and its answer: `timedOut` when none came within `timeoutMs`; an infinite `timeoutMs` waits as long
	 * as the connection lasts (a diff the user takes their time over). The caller sends the request.
	 */
	open(timeoutMs: number, timedOut: Answer): { id: number; answer: Promise<Answer> } {
		const id = this.takeId();
		const answer = new Promise<Answer>((done) => {
			const cancel = Number.isFinite(timeoutMs)
				? this.clock.after(timeoutMs, () => {
						this.waiting.delete(id);
						done(timedOut);
					})
				: () => {};
			this.waiting.set(id, { done, cancel });
		});
		return { id, answer };
	}

	/** A request refused before it is sent: it takes its id all the same (ids stay in order) and answers at once. */
	refuse(answer: Answer): { id: number; answer: Promise<Answer> } {
		return { id: this.takeId(), answer: Promise.resolve(answer) };
	}

	private takeId(): number {
		const id = this.nextId;
		this.nextId = this.nextId >= this.maxId ? 1 : this.nextId + 1;
		return id;
	}

	/** The answer to `id` came: false when nobody waits for it (timed out, or never asked). */
	settle(id: number, answer: Answer): boolean {
		const waiter = this.waiting.get(id);
		if (!waiter) return false;
		this.waiting.delete(id);
		waiter.cancel();
		waiter.done(answer);
		return true;
	}

	/** How many still wait. */
	get size(): number {
		return this.waiting.size;
	}

	/** The connection is gone: every request still waiting gets `answer`. */
	settleAll(answer: Answer): void {
		for (const id of [...this.waiting.keys()]) this.settle(id, answer);
	}
}
