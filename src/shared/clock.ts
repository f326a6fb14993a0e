import { guarded } from "./background.ts";
import type { Cancel, Clock } from "./core/clock.ts";

/**
 * The clock pi runs on: Node's timers, unref-ed so an idle extension never holds pi's process open, and
 * guarded: a callback that throws is recorded for `/ide status` instead of ending pi.
 */
export const systemClock: Clock = {
	nowSeconds: () => Date.now() / 1000,
	nowMs: () => performance.now(),
	after(ms, run): Cancel {
		const timer = setTimeout(guarded("timer", run), ms);
		timer.unref?.();
		return () => clearTimeout(timer);
	},
	every(ms, run): Cancel {
		const timer = setInterval(guarded("interval", run), ms);
		timer.unref?.();
		return () => clearInterval(timer);
	},
};
