import { describe, expect, test } from "vitest";
import { EarlyCancels, MAX_EARLY_CANCELS } from "../../../src/suggestions/core/early-cancels.ts";

describe("EarlyCancels: a cancel that overtook its request", () => {
	test("remembered, then taken once", () => {
		const cancels = new EarlyCancels();
		cancels.cancelled(7);
		expect(cancels.take(7)).toBe(true);
		expect(cancels.take(7)).toBe(false);
		expect(cancels.size).toBe(0);
	});

	test("a request never cancelled is not", () => {
		expect(new EarlyCancels().take(1)).toBe(false);
	});

	test('1 and "1" are different requests', () => {
		const cancels = new EarlyCancels();
		cancels.cancelled("1");
		expect(cancels.take(1)).toBe(false);
		expect(cancels.take("1")).toBe(true);
	});

	test("capped at 50, the oldest forgotten first", () => {
		const cancels = new EarlyCancels();
		for (let id = 1; id <= MAX_EARLY_CANCELS + 10; id++) cancels.cancelled(id);
		expect(MAX_EARLY_CANCELS).toBe(50);
		expect(cancels.size).toBe(MAX_EARLY_CANCELS);
		expect(cancels.take(10)).toBe(false);
		expect(cancels.take(11)).toBe(true);
		expect(cancels.take(MAX_EARLY_CANCELS + 10)).toBe(true);
	});

	test("a cancel sent again counts as the newest", () => {
		const cancels = new EarlyCancels();
		cancels.cancelled(1);
		for (let id = 2; id <= MAX_EARLY_CANCELS; id++) cancels.cancelled(id);
		cancels.cancelled(1);
		cancels.cancelled("new");
		expect(cancels.take(1)).toBe(true);
		expect(cancels.take(2)).toBe(false);
	});
});
