import type { Clock } from "../../shared/core/clock.ts";
import { isFields } from "../../shared/core/fields.ts";
import { EMACS_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import { type LastRequest, RequestRecord } from "../kit/core/request-record.ts";
import { type EvalAnswer, evalInEmacs } from "./server-client.ts";

/**
 * The requests pi sends one Emacs's server: each on its own connection with a timeout, as the pid discovery
 * proved holds the socket (an answer as another pid is refused). One that gets no answer in time marks Emacs
 * busy (a long command runs) until it answers or pushes again; the last request is kept for `/ide status`.
 */
export class EmacsRequests {
	private busyNow = false;
	private readonly record: RequestRecord;

	constructor(
		private readonly target: () => { socket: string; pid: number },
		private readonly clock: Clock,
	) {
		this.record = new RequestRecord(clock, EMACS_REQUEST_TIMEOUT_MS);
	}

	get busy(): boolean {
		return this.busyNow;
	}

	get lastRequest(): LastRequest | undefined {
		return this.record.last;
	}

	/** Emacs ran Lisp for pi (a line on the push connection): it is not busy. */
	heardFrom(): void {
		this.busyNow = false;
	}

	/**
	 * One `-eval` of a fixed elisp function with `args`, under the request timeout or what is left of
	 * `deadlineMs` (this clock). The elisp's own caught error (`{"error": ...}`) is a failure in Emacs's words.
	 */
	async ask(what: string, elisp: string, args: unknown, deadlineMs?: number): Promise<EvalAnswer> {
		const timeoutMs = this.record.timeLeftMs(deadlineMs);
		if (timeoutMs === 0) return this.record.failed(what, "no time left to ask");
		const { socket, pid } = this.target();
		const answer = await evalInEmacs(socket, elisp, args, { clock: this.clock, timeoutMs, expectedPid: pid });
		if (!answer.ok) {
			// Only silence for the whole budget is busy: a refused connection or an error is an answer of sorts.
			// Said by the timer itself: under load Node's timer fires up to the loop's stale time early by the clock.
			if (answer.timedOut) this.busyNow = true;
			return this.record.failed(what, answer.reason);
		}
		this.busyNow = false;
		const value = answer.value;
		if (isFields(value) && typeof value.error === "string")
			return this.record.failed(what, `failed in Emacs: ${value.error.slice(0, 300)}`);
		this.record.answered(what);
		return answer;
	}
}
