import { systemClock } from "../../src/shared/clock.ts";
import type { Cancel, Clock } from "../../src/shared/core/clock.ts";

/** The system clock with its wall time moved by `offsetSeconds()`: freshness crossed without waiting a minute. */
export function offsetClock(offsetSeconds: () => number): Clock {
	return { ...systemClock, nowSeconds: () => systemClock.nowSeconds() + offsetSeconds() };
}

interface ManualTimer {
	atMs: number;
	run: () => void;
	periodMs?: number;
	cancelled: boolean;
}

/**
 * A clock that moves only when a test says so: `advance(ms)` runs every timer that falls due on the way, in
 * order, each at its own time. Time rules are then tested in microseconds, and a timer that should not fire
 * is seen not to.
 */
export class ManualClock implements Clock {
	private ms = 0;
	private readonly timers: ManualTimer[] = [];

	constructor(private readonly startSeconds = 1_800_000_000) {}

	nowSeconds(): number {
		return this.startSeconds + this.ms / 1000;
	}

	nowMs(): number {
		return this.ms;
	}

	after(ms: number, run: () => void): Cancel {
		return this.add({ atMs: this.ms + Math.max(0, ms), run, cancelled: false });
	}

	every(ms: number, run: () => void): Cancel {
		return this.add({ atMs: this.ms + ms, run, periodMs: ms, cancelled: false });
	}

	/** Timers still due (an interval counts until stopped). */
	get pendingTimers(): number {
		return this.timers.filter((timer) => !timer.cancelled).length;
	}

	/** Moves time forward by `ms`, running each timer that falls due at its own time. */
	advance(ms: number): void {
		const target = this.ms + ms;
		for (;;) {
			const due = this.timers
				.filter((timer) => !timer.cancelled && timer.atMs <= target)
				.sort((a, b) => a.atMs - b.atMs)[0];
			if (!due) break;
			this.ms = due.atMs;
			if (due.periodMs === undefined) this.remove(due);
			else due.atMs += due.periodMs;
			due.run();
		}
		this.ms = target;
	}

	private add(timer: ManualTimer): Cancel {
		this.timers.push(timer);
		return () => {
			timer.cancelled = true;
			this.remove(timer);
		};
	}

	private remove(timer: ManualTimer): void {
		const index = this.timers.indexOf(timer);
		if (index >= 0) this.timers.splice(index, 1);
	}
}
