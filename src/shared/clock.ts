import type { Cancel, Clock } from "./core/clock.ts";

/** The clock pi runs on: Node's timers, unref-ed so an idle extension never holds pi's process open. */
export const systemClock: Clock = {
	nowSeconds: () => Date.now() / 1000,
	nowMs: () => performance.now(),
	after(ms, run): Cancel {
		const timer = setTimeout(run, ms);
		timer.unref?.();
		return () => clearTimeout(timer);
	},
	every(ms, run): Cancel {
		const timer = setInterval(run, ms);
		timer.unref?.();
		return () => clearInterval(timer);
	},
};
