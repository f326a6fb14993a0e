import { describe, expect, test } from "vitest";
import {
	type CycleAction,
	type CycleEvent,
	nextStep,
	type ReadCycle,
	START_CYCLE,
} from "../../../../src/editors/zed/core/read-cycle.ts";
import {
	ZED_READ_THROTTLE_MS,
	ZED_READS_PER_WINDOW,
	ZED_SCAN_INTERVAL_MS,
} from "../../../../src/shared/core/timing.ts";

const T = 10_000;
/** A cycle that knows Zed and last read at `T - 500` with signature "s1". */
const known: ReadCycle = { ...START_CYCLE, zedKnown: true, signature: "s1", readStartsMs: [T - 500], lastScanMs: 0 };
const read: CycleAction = { kind: "read" };
const scan: CycleAction = { kind: "scan" };

describe("one event: the actions and the facts that change", () => {
	test.each<[string, ReadCycle, CycleEvent, CycleAction[], Partial<ReadCycle>]>([
		["start: no Zed known, look at once", START_CYCLE, { kind: "look-for-zed", nowMs: T }, [scan], { lastScanMs: T }],
		[
			"no Zed known, the database moved: look, at most every scan interval",
			{ ...START_CYCLE, lastScanMs: T - ZED_SCAN_INTERVAL_MS },
			{ kind: "watched-change", nowMs: T, signature: "s2" },
			[scan],
			{ lastScanMs: T },
		],
		[
			"no Zed known, looked a moment ago: nothing",
			{ ...START_CYCLE, lastScanMs: T - 10 },
			{ kind: "watched-change", nowMs: T, signature: "s2" },
			[],
			{},
		],
		[
			"Zed found: read at once",
			START_CYCLE,
			{ kind: "zed-found", nowMs: T },
			[read],
			{ zedKnown: true, reading: true, readStartsMs: [T] },
		],
		[
			"Zed known, the database moved, the last read long ago: read now",
			known,
			{ kind: "watched-change", nowMs: T, signature: "s2" },
			[read],
			{ reading: true, readStartsMs: [T - 500, T] },
		],
		[
			"Zed known, the database moved, three reads in the last 30 ms: read when the window allows",
			{ ...known, readStartsMs: [T - 30, T - 20, T - 10] },
			{ kind: "watched-change", nowMs: T, signature: "s2" },
			[{ kind: "read-in", ms: ZED_READ_THROTTLE_MS - 30 }],
			{ readDue: true },
		],
		[
			"a read is due already: the later change rides it",
			{ ...known, readDue: true },
			{ kind: "watched-change", nowMs: T, signature: "s3" },
			[],
			{},
		],
		[
			"a change during a read: read again once it is done",
			{ ...known, reading: true },
			{ kind: "watched-change", nowMs: T, signature: "s2" },
			[],
			{ again: true },
		],
		[
			"pi's own read touched the files, nothing of Zed's moved: nothing",
			known,
			{ kind: "watched-change", nowMs: T, signature: "s1" },
			[],
			{},
		],
		[
			"the due read's timer fires",
			{ ...known, readDue: true },
			{ kind: "timer-fired", nowMs: T },
			[read],
			{ readDue: false, reading: true, readStartsMs: [T - 500, T] },
		],
		[
			"a prompt waits while a read is due: it runs now",
			{ ...known, readDue: true },
			{ kind: "flush", nowMs: T },
			[{ kind: "cancel-due" }, read],
			{ readDue: false, reading: true, readStartsMs: [T - 500, T] },
		],
		["a prompt waits, nothing due: nothing", known, { kind: "flush", nowMs: T }, [], {}],
		[
			"the fallback sees the same files: counted, nothing read",
			known,
			{ kind: "fallback", nowMs: T, signature: "s1" },
			[],
			{ fallbackChecks: 1 },
		],
		[
			"the fallback sees files that moved (a write the watcher missed): read",
			known,
			{ kind: "fallback", nowMs: T, signature: "s2" },
			[read],
			{ fallbackChecks: 1, reading: true, readStartsMs: [T - 500, T] },
		],
		[
			"Zed quit while a read was due: the timer is cancelled, Zed looked for",
			{ ...known, readDue: true },
			{ kind: "look-for-zed", nowMs: T },
			[{ kind: "cancel-due" }, scan],
			{ zedKnown: false, readDue: false, lastScanMs: T },
		],
		[
			"no Zed found: the files as they are count as seen, so the fallback does not look again",
			START_CYCLE,
			{ kind: "zed-not-found", signature: "s9" },
			[],
			{ signature: "s9" },
		],
	])("%s", (_name, cycle, event, actions, changed) => {
		const step = nextStep(cycle, event);
		expect(step.actions).toEqual(actions);
		expect(step.cycle).toEqual({ ...cycle, ...changed });
	});
});

describe("how a read ends", () => {
	const reading: ReadCycle = { ...known, reading: true, readStartsMs: [T - 40, T - 30, T - 20] };
	const done = (outcome: Extract<CycleEvent, { kind: "read-done" }>["outcome"], cycle = reading, signatureNow = "s2") =>
		nextStep(cycle, { kind: "read-done", nowMs: T, outcome, signatureAtStart: "s2", signatureNow });

	test.each<[string, Extract<CycleEvent, { kind: "read-done" }>["outcome"], Partial<ReadCycle>]>([
		["read: its signature is claimed, a block lifted", { kind: "ok" }, { signature: "s2", blocked: undefined }],
		["Zed's lock met: nothing claimed, the fallback reads again", { kind: "busy" }, { signature: "s1" }],
		[
			"a schema pi cannot read: claimed, and nothing offered until a good read",
			{ kind: "unusable", reason: "no table editors" },
			{ signature: "s2", blocked: "no table editors" },
		],
		[
			"another SQLite error: nothing claimed, the last state stands, the fallback reads again",
			{ kind: "error", reason: "disk I/O error" },
			{ signature: "s1" },
		],
	])("%s", (_name, outcome, changed) => {
		const step = done(outcome, { ...reading, blocked: outcome.kind === "ok" ? "old" : undefined });
		expect(step.actions).toEqual([]);
		expect(step.cycle).toMatchObject({ reading: false, reads: 1, ...changed });
	});

	test("a change came during the read, the window full: read again when the window allows", () => {
		const step = done({ kind: "ok" }, { ...reading, again: true }, "s3");
		expect(step.actions).toEqual([{ kind: "read-in", ms: ZED_READ_THROTTLE_MS - 40 }]);
		expect(step.cycle).toMatchObject({ again: false, readDue: true, signature: "s2" });
	});

	test("a read that found a tab's selections being rewritten: the next change is read at once, not throttled", () => {
		const step = nextStep(reading, {
			kind: "read-done",
			nowMs: T,
			outcome: { kind: "ok", rewriting: true },
			signatureAtStart: "s2",
			signatureNow: "s2",
		});
		expect(nextStep(step.cycle, { kind: "watched-change", nowMs: T + 5, signature: "s3" }).actions).toEqual([read]);
		const plain = done({ kind: "ok" });
		expect(nextStep(plain.cycle, { kind: "watched-change", nowMs: T + 5, signature: "s3" }).actions).toEqual([
			{ kind: "read-in", ms: ZED_READ_THROTTLE_MS - 45 },
		]);
	});

	test("a change during the read that left the files as the read found them: nothing more", () => {
		expect(done({ kind: "ok" }, { ...reading, again: true }, "s2").actions).toEqual([]);
	});

	test("a burst of changes over a second reads at most a few times per window, and the last change always", () => {
		let cycle: ReadCycle = { ...known, readStartsMs: [] };
		let reads = 0;
		let dueAt: number | undefined;
		for (let ms = 0; ms <= 1000; ms += 5) {
			if (dueAt !== undefined && ms >= dueAt) {
				dueAt = undefined;
				cycle = nextStep(cycle, { kind: "timer-fired", nowMs: T + ms }).cycle;
			}
			const step = nextStep(cycle, { kind: "watched-change", nowMs: T + ms, signature: `w${ms}` });
			cycle = step.cycle;
			for (const action of step.actions) {
				if (action.kind === "read-in") dueAt = ms + action.ms;
			}
			if (cycle.reading) {
				reads++;
				cycle = nextStep(cycle, {
					kind: "read-done",
					nowMs: T + ms,
					outcome: { kind: "ok" },
					signatureAtStart: `w${ms}`,
					signatureNow: `w${ms}`,
				}).cycle;
			}
		}
		expect(reads).toBeLessThanOrEqual(ZED_READS_PER_WINDOW * (1000 / ZED_READ_THROTTLE_MS + 1));
		expect(reads).toBeGreaterThanOrEqual(1000 / ZED_READ_THROTTLE_MS);
		expect(cycle.readDue || cycle.signature === "w1000").toBe(true);
	});
});
