/**
 * Time as every feature sees it: what time it is, and timers that can be cancelled. pi runs on the system
 * clock (../clock.ts); tests hand in a clock they move by hand, so time rules are tested without sleeping.
 */
export interface Clock {
	/** Wall-clock time in unix seconds (fractional): what editors' timestamps and file mtimes are compared with. */
	nowSeconds(): number;
	/** A monotonic reading in milliseconds, for throttles and intervals. */
	nowMs(): number;
	/** Runs `run` once after `ms`; the returned function cancels it. Never keeps pi's process alive. */
	after(ms: number, run: () => void): Cancel;
	/** Runs `run` every `ms`; the returned function stops it. Never keeps pi's process alive. */
	every(ms: number, run: () => void): Cancel;
}

export type Cancel = () => void;
