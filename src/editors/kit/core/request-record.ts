import type { Clock } from "../../../shared/core/clock.ts";

/** The last request pi sent an editor, as `/ide status` shows it. */
export interface LastRequest {
	atSeconds: number;
	what: string;
	failure?: string;
}

/** A request that did not get its answer: why. */
export interface FailedAnswer {
	ok: false;
	reason: string;
}

/**
 * One editor's requests as pi keeps them: the time left for the next one (its own timeout, or what is left of
 * a deadline that several requests share) and the last one with how it went.
 */
export class RequestRecord {
	private lastNow?: LastRequest;

	constructor(
		private readonly clock: Clock,
		private readonly timeoutMs: number,
	) {}

	get last(): LastRequest | undefined {
		return this.lastNow;
	}

	/** The request's own timeout without a deadline; with one (this clock), what is left of it (0: none). */
	timeLeftMs(deadlineMs?: number): number {
		return deadlineMs === undefined ? this.timeoutMs : Math.max(0, Math.floor(deadlineMs - this.clock.nowMs()));
	}

	answered(what: string): void {
		this.lastNow = { atSeconds: this.clock.nowSeconds(), what };
	}

	/** Recorded as the last request, and handed back as the answer the caller gives. */
	failed(what: string, reason: string): FailedAnswer {
		this.lastNow = { atSeconds: this.clock.nowSeconds(), what, failure: reason };
		return { ok: false, reason };
	}
}
