import { describe, expect, test } from "vitest";
import { Generation } from "../../../../src/editors/kit/core/generation.ts";
import { GoneKeys, MAX_REMEMBERED_GONE } from "../../../../src/editors/kit/core/gone-keys.ts";
import { RequestRecord } from "../../../../src/editors/kit/core/request-record.ts";
import { phaseBeforeStart } from "../../../../src/editors/kit/core/source-phase.ts";
import { ManualClock } from "../../../support/clocks.ts";

describe("GoneKeys: the keys of editors gone, capped", () => {
	test("remembered until here again", () => {
		const gone = new GoneKeys();
		gone.add("pid:1");
		expect(gone.has("pid:1")).toBe(true);
		gone.delete("pid:1");
		expect(gone.has("pid:1")).toBe(false);
	});

	test("the oldest forgotten past the cap; a key gone again counts as the newest", () => {
		const gone = new GoneKeys(3);
		for (const key of ["a", "b", "c"]) gone.add(key);
		gone.add("a");
		gone.add("d");
		expect(["a", "b", "c", "d"].filter((key) => gone.has(key))).toEqual(["a", "c", "d"]);
	});

	test("the default cap never grows past MAX_REMEMBERED_GONE", () => {
		const gone = new GoneKeys();
		for (let pid = 0; pid < MAX_REMEMBERED_GONE * 3; pid++) gone.add(`pid:${pid}`);
		const kept = Array.from({ length: MAX_REMEMBERED_GONE * 3 }, (_, pid) => gone.has(`pid:${pid}`));
		expect(kept.filter(Boolean)).toHaveLength(MAX_REMEMBERED_GONE);
		expect(kept.at(-1)).toBe(true);
		expect(kept[0]).toBe(false);
	});
});

describe("Generation: only the newest read lands", () => {
	test("a read started before a newer one is not the newest", () => {
		const reads = new Generation();
		const first = reads.start();
		expect(first.isNewest()).toBe(true);
		const second = reads.start();
		expect([first.isNewest(), second.isNewest()]).toEqual([false, true]);
	});
});

describe("RequestRecord: time left and the last request", () => {
	test.each<[string, number | undefined, number, number]>([
		["no deadline: the request's own timeout", undefined, 0, 500],
		["a deadline ahead: what is left of it, whole milliseconds", 1_250.7, 1_000, 250],
		["a deadline passed: none", 900, 1_000, 0],
	])("%s", (_name, deadlineMs, nowMs, left) => {
		const clock = new ManualClock();
		clock.advance(nowMs);
		expect(new RequestRecord(clock, 500).timeLeftMs(deadlineMs)).toBe(left);
	});

	test("answered and failed requests are each the last one, with when", () => {
		const clock = new ManualClock(1_000);
		const requests = new RequestRecord(clock, 500);
		expect(requests.last).toBeUndefined();
		requests.answered("state");
		expect(requests.last).toEqual({ atSeconds: 1_000, what: "state" });
		clock.advance(2_000);
		expect(requests.failed("unsaved list", "no answer within 500 ms")).toEqual({
			ok: false,
			reason: "no answer within 500 ms",
		});
		expect(requests.last).toEqual({ atSeconds: 1_002, what: "unsaved list", failure: "no answer within 500 ms" });
	});
});

describe("phaseBeforeStart: whether a source that looks among processes starts", () => {
	test.each<[boolean, string, string | undefined]>([
		[false, "linux", "off"],
		[false, "darwin", "off"],
		[true, "darwin", undefined],
		[true, "win32", "unsupported"],
		[true, "linux", undefined],
	])("on %s, %s → %s", (on, platform, phase) => {
		expect(phaseBeforeStart(on, platform)).toBe(phase);
	});
});
