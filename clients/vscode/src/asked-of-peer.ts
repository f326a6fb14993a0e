import { type PeerAnswer, requestMessage } from "./core/channel-rpc.ts";

/** Past this many unanswered requests to one pi, a new one is refused at once: pi stopped answering. */
const MAX_PENDING = 64;

/**
 * The client's own requests to one pi (inline completions): ids, pi's answers by id, each given up after its
 * timeout, and all ended when the connection does. An answer never comes twice and never throws.
 */
export class AskedOfPeer {
	private nextId = 1;
	private readonly pending = new Map<number, { settle: (answer: PeerAnswer) => void }>();
	private endedWith?: string;

	constructor(private readonly send: (message: unknown) => void) {}

	request(method: string, params: unknown, timeoutMs: number): { id: number; answer: Promise<PeerAnswer> } {
		const id = this.nextId++;
		if (this.endedWith !== undefined) return { id, answer: Promise.resolve({ ok: false, reason: this.endedWith }) };
		if (this.pending.size >= MAX_PENDING)
			return { id, answer: Promise.resolve({ ok: false, reason: `${MAX_PENDING} requests unanswered` }) };
		const answer = new Promise<PeerAnswer>((resolve) => {
			const timer = setTimeout(
				() => this.settle(id, { ok: false, reason: `no answer within ${timeoutMs} ms` }),
				timeoutMs,
			);
			this.pending.set(id, {
				settle: (settled) => {
					clearTimeout(timer);
					resolve(settled);
				},
			});
		});
		try {
			this.send(requestMessage(id, method, params));
		} catch (error) {
			this.settle(id, { ok: false, reason: `not sent: ${String(error).slice(0, 200)}` });
		}
		return { id, answer };
	}

	/** pi's answer to `id`; an answer to nothing pending (late, or never asked) is dropped. */
	settle(id: number, answer: PeerAnswer): void {
		const entry = this.pending.get(id);
		if (!entry) return;
		this.pending.delete(id);
		entry.settle(answer);
	}

	endAll(reason: string): void {
		this.endedWith = reason;
		for (const id of [...this.pending.keys()]) this.settle(id, { ok: false, reason });
	}
}
