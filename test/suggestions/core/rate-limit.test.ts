import { describe, expect, test } from "vitest";
import {
	admitRequest,
	RATE_WINDOW_MS,
	SUGGESTIONS_PER_MINUTE_DEFAULT,
} from "../../../src/suggestions/core/rate-limit.ts";

describe("admitRequest: a sliding minute", () => {
	test.each<[string, number[], number, number, { admitted: boolean; recentMs: number[] }]>([
		["the first", [], 1000, 2, { admitted: true, recentMs: [1000] }],
		["under the limit", [1000], 2000, 2, { admitted: true, recentMs: [1000, 2000] }],
		["at the limit: refused, the list unchanged", [1000, 2000], 3000, 2, { admitted: false, recentMs: [1000, 2000] }],
		["one leaves the window at 60 s exactly", [1000, 2000], 61_000, 2, { admitted: true, recentMs: [2000, 61_000] }],
		["59.999 s later it still counts", [1000, 2000], 60_999, 2, { admitted: false, recentMs: [1000, 2000] }],
		["all old: pruned", [0, 10, 20], 100_000, 2, { admitted: true, recentMs: [100_000] }],
		["a time after now (the clock stepped back) dropped", [5000], 1000, 1, { admitted: true, recentMs: [1000] }],
		["0 a minute admits nothing", [], 1000, 0, { admitted: false, recentMs: [] }],
		["a fractional limit floors", [1000], 2000, 1.9, { admitted: false, recentMs: [1000] }],
	])("%s", (_name, recentMs, nowMs, perMinute, result) => {
		expect(admitRequest(recentMs, nowMs, perMinute)).toEqual(result);
	});

	test("a keystroke-a-request editor gets the default 30 a minute, then one as each leaves the window", () => {
		expect(SUGGESTIONS_PER_MINUTE_DEFAULT).toBe(30);
		let recentMs: number[] = [];
		let admitted = 0;
		// Every 100 ms for two minutes.
		for (let nowMs = 0; nowMs < 2 * RATE_WINDOW_MS; nowMs += 100) {
			const verdict = admitRequest(recentMs, nowMs, SUGGESTIONS_PER_MINUTE_DEFAULT);
			recentMs = verdict.recentMs;
			if (verdict.admitted) admitted++;
			expect(recentMs.length).toBeLessThanOrEqual(SUGGESTIONS_PER_MINUTE_DEFAULT);
		}
		expect(admitted).toBe(60);
	});

	test("the caller's list is not changed", () => {
		const recentMs = Object.freeze([1000]);
		admitRequest(recentMs, 2000, 5);
		expect(recentMs).toEqual([1000]);
	});
});
