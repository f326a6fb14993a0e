import { describe, expect, test } from "vitest";
import { ScanSchedule } from "../../../src/editors/kit/scan-schedule.ts";
import { ManualClock } from "../../support/clocks.ts";

const DELAYS_MS = [60, 300, 1500] as const;

function schedule(asksForMore: () => boolean) {
	const clock = new ManualClock();
	const scans: number[] = [];
	let release = () => {};
	let hold = false;
	const scanSchedule = new ScanSchedule(
		"test scan",
		async (followUp) => {
			scans.push(clock.nowMs());
			if (hold) {
				hold = false;
				await new Promise<void>((settle) => {
					release = settle;
				});
			}
			if (asksForMore()) followUp?.();
		},
		clock,
		DELAYS_MS,
	);
	return { clock, scans, scanSchedule, holdNext: () => (hold = true), release: () => release() };
}

const settled = () => new Promise((settle) => setImmediate(settle));

describe("when a source scans", () => {
	test("after a dir event: the first delay, then each next while a scan asks for another look", async () => {
		const { clock, scans, scanSchedule } = schedule(() => true);
		scanSchedule.soon();
		for (const step of [60, 300, 1500, 5000]) {
			clock.advance(step);
			await settled();
		}
		expect(scans).toEqual([60, 360, 1860]);
	});

	test("a scan that asks for nothing more ends the follow-ups", async () => {
		const { clock, scans, scanSchedule } = schedule(() => false);
		scanSchedule.soon();
		clock.advance(10_000);
		await settled();
		expect(scans).toEqual([60]);
	});

	test("one at a time: asked during one, it runs once more after it", async () => {
		const { scans, scanSchedule, holdNext, release } = schedule(() => false);
		holdNext();
		const first = scanSchedule.now();
		const second = scanSchedule.now();
		const third = scanSchedule.now();
		expect(second).toBe(first);
		expect(third).toBe(first);
		release();
		await first;
		await settled();
		expect(scans).toHaveLength(2);
	});

	test("closed: nothing more is scheduled", async () => {
		const { clock, scans, scanSchedule } = schedule(() => true);
		scanSchedule.soon();
		await scanSchedule.close();
		clock.advance(10_000);
		scanSchedule.soon();
		clock.advance(10_000);
		expect(scans).toEqual([]);
		expect(clock.pendingTimers).toBe(0);
	});
});
