import { PendingRequests } from "../../../src/editors/pending-requests.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { type PeerAnswer, requestMessage } from "./core/channel-rpc.ts";

/** Past this many unanswered requests to one pi, a new one is refused at once: pi stopped answering. */
const MAX_PENDING = 64;

/**
 * The client's own requests to one pi (inline completions), on pi's own pending-requests table: ids, pi's
 * answers by id, each given up after its timeout, and all ended when the connection does. An answer never comes
 * twice and never throws.
 */
export class AskedOfPeer {
	private readonly pending = new PendingRequests<PeerAnswer>(systemClock);
	private endedWith?: string;

	constructor(private readonly send: (message: unknown) => void) {}

	request(method: string, params: unknown, timeoutMs: number): { id: number; answer: Promise<PeerAnswer> } {
		if (this.endedWith !== undefined) return this.pending.refuse({ ok: false, reason: this.endedWith });
		if (this.pending.size >= MAX_PENDING)
			return this.pending.refuse({ ok: false, reason: `${MAX_PENDING} requests unanswered` });
		const asked = this.pending.open(timeoutMs, { ok: false, reason: `no answer within ${timeoutMs} ms` });
		try {
			this.send(requestMessage(asked.id, method, params));
		} catch (error) {
			this.settle(asked.id, { ok: false, reason: `not sent: ${String(error).slice(0, 200)}` });
		}
		return asked;
	}

	/** pi's answer to `id`; an answer to nothing pending (late, or never asked) is dropped. */
	settle(id: number, answer: PeerAnswer): void {
		this.pending.settle(id, answer);
	}

	endAll(reason: string): void {
		this.endedWith = reason;
		this.pending.settleAll({ ok: false, reason });
	}
}
