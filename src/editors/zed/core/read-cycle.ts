import { ZED_READ_THROTTLE_MS, ZED_READS_PER_WINDOW, ZED_SCAN_INTERVAL_MS } from "../../../shared/core/timing.ts";

/**
 * When the Zed source reads Zed's database and when it looks for Zed, as one pure state machine: the shell
 * (../source.ts) feeds it what happened and carries out what it returns. Reads are throttled (a few per window,
 * see timing.ts) with the last change always read; a change during a read is read again right after; a read that met Zed's lock leaves
 * the database's signature unclaimed so the slow fallback reads it again; while no Zed is known, a change
 * looks for Zed at most every `ZED_SCAN_INTERVAL_MS`.
 */
export interface ReadCycle {
	/** A running Zed writes this database: its changes are read. */
	zedKnown: boolean;
	/** Sizes and mtimes of the database's files as the last read that counted found them. */
	signature: string;
	reading: boolean;
	/** A change came during the read under way: read again once it is done. */
	again: boolean;
	/** A throttled read is due (the shell holds its timer). */
	readDue: boolean;
	/** When the latest reads started, oldest first: at most `ZED_READS_PER_WINDOW` are kept. */
	readStartsMs: readonly number[];
	lastScanMs: number;
	/** Why the rows cannot be used (a schema pi cannot read); cleared by the next good read. */
	blocked?: string;
	/** Reads done, and slow-fallback checks made (tests read these to know the fallback ran). */
	reads: number;
	fallbackChecks: number;
}

export const START_CYCLE: ReadCycle = {
	zedKnown: false,
	signature: "",
	reading: false,
	again: false,
	readDue: false,
	readStartsMs: [],
	lastScanMs: Number.NEGATIVE_INFINITY,
	reads: 0,
	fallbackChecks: 0,
};

/**
 * How a read ended: the rows read; Zed's lock met (nothing read); the rows unusable (a schema pi cannot
 * read: nothing is offered rather than a guess); or another error (SQLITE_PROTOCOL, an I/O error), after
 * which the last state stands and the read is tried again, as after the lock.
 */
export type ReadOutcome =
	/** `rewriting`: a tab's selection rows were gone (Zed deletes, then inserts, with no transaction around). */
	| { kind: "ok"; rewriting?: boolean }
	| { kind: "busy" }
	| { kind: "unusable"; reason: string }
	| { kind: "error"; reason: string };

export type CycleEvent =
	/** The watcher saw the database's files move (`signature` as they are now). */
	| { kind: "watched-change"; nowMs: number; signature: string }
	/** The slow fallback's look at the files. */
	| { kind: "fallback"; nowMs: number; signature: string }
	/** A prompt waits: a due read runs now. */
	| { kind: "flush"; nowMs: number }
	| { kind: "timer-fired"; nowMs: number }
	| { kind: "zed-found"; nowMs: number }
	/** No Zed writes any database now; `signature` is the files' as they were when the scan began. */
	| { kind: "zed-not-found"; signature: string }
	/** No Zed is known (at start, or the one known quit): look for one at once. */
	| { kind: "look-for-zed"; nowMs: number }
	/** `signatureAtStart` was taken before the read, so a write during it is read again. */
	| { kind: "read-done"; nowMs: number; outcome: ReadOutcome; signatureAtStart: string; signatureNow: string };

/** What the shell does next: read now, read in `ms` (a timer), cancel the due read's timer, scan `/proc`. */
export type CycleAction =
	| { kind: "read" }
	| { kind: "read-in"; ms: number }
	| { kind: "cancel-due" }
	| { kind: "scan" };

export interface CycleStep {
	cycle: ReadCycle;
	actions: CycleAction[];
}

const startRead = (cycle: ReadCycle, nowMs: number): CycleStep => ({
	cycle: {
		...cycle,
		reading: true,
		readDue: false,
		readStartsMs: [...cycle.readStartsMs, nowMs].slice(-ZED_READS_PER_WINDOW),
	},
	actions: [{ kind: "read" }],
});

const scan = (cycle: ReadCycle, nowMs: number): CycleStep => ({
	cycle: { ...cycle, lastScanMs: nowMs },
	actions: [{ kind: "scan" }],
});

const nothing = (cycle: ReadCycle): CycleStep => ({ cycle, actions: [] });

/** The database moved: read it (throttled) while Zed runs; look for Zed (rate-limited) while none is known. */
function moved(cycle: ReadCycle, nowMs: number, signature: string): CycleStep {
	if (!cycle.zedKnown) return nowMs - cycle.lastScanMs >= ZED_SCAN_INTERVAL_MS ? scan(cycle, nowMs) : nothing(cycle);
	if (cycle.reading) return nothing({ ...cycle, again: true });
	if (cycle.readDue || signature === cycle.signature) return nothing(cycle);
	// The window is full when the oldest of the kept reads started less than a window ago.
	const full = cycle.readStartsMs.length >= ZED_READS_PER_WINDOW;
	const waitMs = full ? (cycle.readStartsMs[0] as number) + ZED_READ_THROTTLE_MS - nowMs : 0;
	if (waitMs <= 0) return startRead(cycle, nowMs);
	return { cycle: { ...cycle, readDue: true }, actions: [{ kind: "read-in", ms: waitMs }] };
}

export function nextStep(cycle: ReadCycle, event: CycleEvent): CycleStep {
	switch (event.kind) {
		case "watched-change":
			return moved(cycle, event.nowMs, event.signature);
		case "fallback": {
			const counted = { ...cycle, fallbackChecks: cycle.fallbackChecks + 1 };
			return event.signature === cycle.signature ? nothing(counted) : moved(counted, event.nowMs, event.signature);
		}
		case "flush":
			if (!cycle.readDue) return nothing(cycle);
			return { ...startRead(cycle, event.nowMs), actions: [{ kind: "cancel-due" }, { kind: "read" }] };
		case "timer-fired":
			if (!cycle.readDue) return nothing(cycle);
			return cycle.reading ? nothing({ ...cycle, readDue: false, again: true }) : startRead(cycle, event.nowMs);
		case "zed-found":
			return cycle.reading
				? nothing({ ...cycle, zedKnown: true })
				: startRead({ ...cycle, zedKnown: true }, event.nowMs);
		case "zed-not-found":
			return nothing({ ...cycle, signature: event.signature });
		case "look-for-zed": {
			const dropped = { ...cycle, zedKnown: false, readDue: false };
			return {
				...scan(dropped, event.nowMs),
				actions: [...(cycle.readDue ? [{ kind: "cancel-due" as const }] : []), { kind: "scan" }],
			};
		}
		case "read-done":
			return readDone(cycle, event);
	}
}

/**
 * A read that met Zed's lock, or failed otherwise, read nothing: its signature stays unclaimed and the fallback
 * reads again, even if Zed writes nothing more. Rows read, or rows pi cannot use (reading again would find the
 * same schema), claim it; unusable rows are blocked until a read succeeds.
 */
function readDone(cycle: ReadCycle, event: Extract<CycleEvent, { kind: "read-done" }>): CycleStep {
	const { outcome } = event;
	const done: ReadCycle = {
		...cycle,
		reading: false,
		again: false,
		reads: cycle.reads + 1,
		// Zed's inserts follow its delete within milliseconds: the read that finds them is not held back.
		...(outcome.kind === "ok" && outcome.rewriting && { readStartsMs: [] }),
		signature: outcome.kind === "ok" || outcome.kind === "unusable" ? event.signatureAtStart : cycle.signature,
		blocked: outcome.kind === "ok" ? undefined : outcome.kind === "unusable" ? outcome.reason : cycle.blocked,
	};
	return cycle.again ? moved(done, event.nowMs, event.signatureNow) : nothing(done);
}
