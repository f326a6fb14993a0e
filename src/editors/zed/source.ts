import { runInBackground } from "../../shared/background.ts";
import type { Cancel } from "../../shared/core/clock.ts";
import { LIVENESS_CHECK_MS } from "../../shared/core/timing.ts";
import type { EditorFacts, ListedEditor } from "../core/editor.ts";
import type { EditorSource, SourceHooks } from "../editor-source.ts";
import { isProcessAlive, isProcessRunning } from "../processes/liveness.ts";
import { type CycleEvent, nextStep, type ReadCycle, START_CYCLE } from "./core/read-cycle.ts";
import { type ZedReport, zedNoMatchLine, zedStatusLines } from "./core/status.ts";
import { DatabaseWatchers, fileSignature } from "./discovery.ts";
import { ReadTarget, type ZedWhereabouts } from "./read-target.ts";
import { ZedRowsReader } from "./rows-reader.ts";
import { ZedWorkspaces } from "./workspaces.ts";

/** The source's options are what its looks for Zed need (read-target.ts). */
export type ZedSourceOptions = ZedWhereabouts;

/**
 * Zed as a source of editors, read from Zed's own state database while Zed runs: one editor per workspace
 * of Zed's current session. Follows changes by watching the database's directory (reads throttled, the last
 * change always read), with a 2 s fallback that compares sizes and mtimes. A read never waits on Zed's lock.
 */
export class ZedSource implements EditorSource {
	private readonly watchers = new DatabaseWatchers(() =>
		this.dispatch({ kind: "watched-change", nowMs: this.hooks.clock.nowMs(), signature: this.target.signature() }),
	);
	private readonly target: ReadTarget;
	private cycle: ReadCycle = START_CYCLE;
	private readonly workspaces: ZedWorkspaces;
	private readonly rows: ZedRowsReader;
	/** Cancels the throttled read that is due. */
	private cancelDue?: Cancel;
	/** Cancels the first look for Zed, when it waits for pi's own start to finish. */
	private cancelStartLook?: Cancel;
	private reading?: Promise<void>;
	private scanning?: Promise<void>;
	private closed = false;
	/** Zed gives no sign that it lost its database: the fallback runs on its own cadence. */
	readonly lost = false;

	constructor(
		options: ZedSourceOptions,
		private readonly hooks: SourceHooks,
	) {
		const watchers = this.watchers;
		this.target = new ReadTarget(options, (databasePath) => watchers.watch(databasePath));
		this.workspaces = new ZedWorkspaces(() => hooks.clock.nowSeconds());
		const workspaces = this.workspaces;
		this.rows = new ZedRowsReader(
			(path, snapshot, pid, settings) => workspaces.update(path, snapshot, pid, settings),
			{ env: options.env, home: options.home },
			() => hooks.clock.nowSeconds(),
		);
	}

	async start(): Promise<void> {
		try {
			await this.target.open();
			if (this.target.phase.kind !== "reading") return;
			// With a database in the usual places, pi's start waits for the first look (no connection decision
			// on half a picture); without one, a Zed of its own data dir is looked for once pi has started (a
			// look at /proc beside pi's own start would cost that start ~20 ms).
			const look = () => this.dispatch({ kind: "look-for-zed", nowMs: this.hooks.clock.nowMs() });
			if (!this.target.anyOnDisk) {
				this.cancelStartLook = this.hooks.clock.after(LIVENESS_CHECK_MS, look);
				return;
			}
			look();
			await this.scanning;
			await this.reading;
		} catch (error) {
			this.target.phase = { kind: "problem", reason: `Zed not read: ${String(error)}` };
		}
	}

	/** Looks for Zed again now unless one is known (`/ide` asks: a Zed of its own data dir may have started). */
	async lookAgain(): Promise<void> {
		if (!this.target.looking) return;
		if (!this.cycle.zedKnown) this.dispatch({ kind: "look-for-zed", nowMs: this.hooks.clock.nowMs() });
		await this.scanning;
		await this.reading;
	}

	async close(): Promise<void> {
		this.closed = true;
		this.cancelDue?.();
		this.cancelStartLook?.();
		this.watchers.close();
		await this.reading;
		await this.scanning;
	}

	editors(): ListedEditor[] {
		const { zed, database } = this.target;
		if (!zed || !database || this.cycle.blocked) return [];
		return this.workspaces.readings(database.path).map((reading) => ({ ...reading, alive: true }));
	}

	facts(key: string): EditorFacts | undefined {
		const known = this.workspaces.byKey(key);
		if (!known) return undefined;
		const offered = this.workspaces.offered(key);
		const blocked = this.cycle.blocked;
		return {
			origin: "zed",
			listed: offered,
			alive: this.target.zed !== undefined,
			...(offered && !blocked && { reading: known }),
			...(blocked && { rejection: blocked, lastValid: known }),
			writtenAtSeconds: known.writtenAtSeconds,
		};
	}

	/** Zed's pid on the existing liveness tick: `kill(pid, 0)`. */
	checkLiveness(): boolean {
		const { zed } = this.target;
		if (!zed || isProcessAlive(zed.pid)) return false;
		this.forgetZed();
		return true;
	}

	/** The slow fallback: a zombie Zed noticed; sizes and mtimes compared, a read (or a scan) when they moved. */
	async recheck(): Promise<void> {
		// A zombie (Zed quit, its parent has not reaped it) passes `kill(pid, 0)`: `/proc` tells, every 2 s.
		const { zed } = this.target;
		if (zed && !isProcessRunning(zed.pid)) {
			this.forgetZed();
			this.hooks.changed();
		}
		this.watchers.recheck();
		if (!this.target.sqlite) return;
		this.dispatch({ kind: "fallback", nowMs: this.hooks.clock.nowMs(), signature: this.target.signature() });
	}

	/** A read under way or due holds up only a prompt for a Zed workspace, never one for another editor. */
	isPending(key: string): boolean {
		return this.workspaces.byKey(key) !== undefined && (this.cycle.readDue || this.cycle.reading);
	}

	async flush(key: string): Promise<void> {
		if (this.workspaces.byKey(key) === undefined) return;
		this.dispatch({ kind: "flush", nowMs: this.hooks.clock.nowMs() });
		await this.reading;
	}

	/** Zed cannot be asked: the guard goes by its last read. */
	async unsavedNow(): Promise<undefined> {
		return undefined;
	}

	statusLines(nowSeconds: number, projectDir: string): string[] {
		return zedStatusLines(this.report(), nowSeconds, projectDir);
	}

	noMatchLine(): string | undefined {
		return zedNoMatchLine(this.report());
	}

	report(): ZedReport {
		const { snapshot, settings, schemaSteps, lastProblem, lastRead } = this.rows;
		const workspaces = this.workspaces.reports(this.target.database?.path, snapshot, this.target.zed !== undefined);
		const { phase, stateless, database, zed } = this.target.report();
		const { blocked, reads, fallbackChecks } = this.cycle;
		return {
			phase,
			...(stateless && { stateless }),
			...(settings && { settings }),
			...(database && { database }),
			...(zed && { zed }),
			...(schemaSteps && { schemaSteps }),
			...(snapshot?.sessionId && { sessionId: snapshot.sessionId }),
			workspaces,
			...(lastProblem && { lastProblem }),
			...(blocked && { blocked }),
			reads: { count: reads, lastMs: lastRead.ms, lastOk: lastRead.ok, fallbackChecks },
			watchProblems: this.watchers.problems(),
		};
	}

	/** One event into the read cycle (core/read-cycle.ts), and what it says to do carried out. */
	private dispatch(event: CycleEvent): void {
		if (this.closed) return;
		const step = nextStep(this.cycle, event);
		this.cycle = step.cycle;
		for (const action of step.actions) {
			if (action.kind === "read") this.read();
			else if (action.kind === "scan") this.scan();
			else if (action.kind === "cancel-due") this.cancelDue?.();
			else
				this.cancelDue = this.hooks.clock.after(action.ms, () =>
					this.dispatch({ kind: "timer-fired", nowMs: this.hooks.clock.nowMs() }),
				);
		}
	}

	/** Zed is gone: look again at once (another Zed, say of another channel, may still run). */
	private forgetZed(): void {
		const pid = this.target.forgetZed();
		this.hooks.event({ kind: "app-gone", label: `zed ${pid}` });
		this.dispatch({ kind: "look-for-zed", nowMs: this.hooks.clock.nowMs() });
	}

	/** `/proc` asked which Zed writes which database; one look at a time. */
	private scan(): void {
		if (this.scanning) return;
		// Never rejects: a look that throws is recorded for /ide status; the next change or `/ide` looks again.
		this.scanning = runInBackground("zed scan", async () => {
			// Taken before the scan, so that a write during it (a Zed starting) is looked at again.
			const signatureAtStart = this.target.signature();
			const look = await this.target.look();
			if (this.closed) return;
			const chosen = await this.target.take(look);
			if (!chosen) return this.dispatch({ kind: "zed-not-found", signature: signatureAtStart });
			this.hooks.event({ kind: "app-found", label: `zed ${chosen.zed.pid}`, detail: chosen.database.path });
			this.dispatch({ kind: "zed-found", nowMs: this.hooks.clock.nowMs() });
			await this.reading;
		}).finally(() => {
			this.scanning = undefined;
		});
	}

	/** One read, then the editors it makes; the cycle hears how it ended. */
	private read(): void {
		const { sqlite, database } = this.target;
		if (this.closed || !sqlite || !database) return;
		this.reading = runInBackground("zed read", async () => {
			const signatureAtStart = fileSignature(database.path);
			const outcome = await this.rows.read(sqlite, database.path, this.target.zed);
			this.reading = undefined;
			this.hooks.changed();
			this.dispatch({
				kind: "read-done",
				nowMs: this.hooks.clock.nowMs(),
				outcome,
				signatureAtStart,
				signatureNow: fileSignature(database.path),
			});
		});
	}
}
