/**
 * What a fake IDE server keeps waiting: tool answers a test holds back, and the JSON-RPC pings it sent to clients
 * (as JetBrains does) until they are answered.
 */

/** Tool answers held by name, the first held released first. */
export class ToolHolds {
	private readonly queues = new Map<string, { gate: Promise<void>; release: () => void }[]>();

	hold(name: string): { release: () => void } {
		let release = () => {};
		const gate = new Promise<void>((done) => {
			release = done;
		});
		const queue = this.queues.get(name) ?? [];
		queue.push({ gate, release });
		this.queues.set(name, queue);
		return { release };
	}

	/** Resolves once the oldest hold on `name` is released (using it up); at once when there is none. */
	async passage(name: string): Promise<void> {
		await this.queues.get(name)?.shift()?.gate;
	}

	/** On stop: nothing stays waiting. */
	releaseAll(): void {
		for (const queue of this.queues.values()) for (const hold of queue.splice(0)) hold.release();
	}
}

/** JSON-RPC pings sent, by id, until answered or timed out. */
/** The id pi was asked with, and its answer (`{ result }` or `{ error }`), undefined when none came in time. */
export interface AskAnswer {
	id: number;
	answer: Record<string, unknown> | undefined;
}

export class PingRequests {
	private nextId = 1;
	private readonly waiting = new Map<number, (answer: Record<string, unknown>) => void>();

	/** Sends a ping through `send`; resolves whether the answer came within `timeoutMs` with result `{}`. */
	ping(send: (text: string) => void, timeoutMs: number): Promise<boolean> {
		const id = this.nextId++;
		return new Promise<boolean>((done) => {
			const timer = setTimeout(() => {
				this.waiting.delete(id);
				done(false);
			}, timeoutMs);
			this.waiting.set(id, ({ result }) => {
				clearTimeout(timer);
				this.waiting.delete(id);
				done(typeof result === "object" && result !== null && Object.keys(result).length === 0);
			});
			send(JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }));
		});
	}

	/** Sends `method` (an editor's own request: `getSuggestions`); resolves with the client's whole answer, or undefined. */
	ask(send: (text: string) => void, method: string, params: unknown, timeoutMs: number): Promise<AskAnswer> {
		const id = this.nextId++;
		return new Promise((done) => {
			const timer = setTimeout(() => {
				this.waiting.delete(id);
				done({ id, answer: undefined });
			}, timeoutMs);
			this.waiting.set(id, (answer) => {
				clearTimeout(timer);
				this.waiting.delete(id);
				done({ id, answer });
			});
			send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
		});
	}

	/** The id the next `ask` will use (a test cancels it before or after sending). */
	get nextRequestId(): number {
		return this.nextId;
	}

	/** A client's response (a message with an id and no method); one to no ping of ours is ignored. */
	answered(id: number, answer: Record<string, unknown>): void {
		this.waiting.get(id)?.(answer);
	}
}
