import { runInBackground } from "../../shared/background.ts";
import type { Cancel } from "../../shared/core/clock.ts";
import { LIVENESS_CHECK_MS } from "../../shared/core/timing.ts";
import type { EditorFacts, ListedEditor } from "../core/editor.ts";
import type { EditorSource, SourceHooks } from "../editor-source.ts";
import { isProcessAlive } from "../processes/liveness.ts";
import type { ProcessFacts as SystemFacts } from "../processes/process-facts.ts";
import { type ZedDatabase, type ZedEnv, zedDataDirs } from "./core/data-dirs.ts";
import { type CycleEvent, nextStep, type ReadCycle, START_CYCLE } from "./core/read-cycle.ts";
import { type ZedReport, zedNoMatchLine, zedStatusLines } from "./core/status.ts";
import type { DatabaseOnDisk, ProcessFacts, RunningZed } from "./core/which-zed.ts";
import { DatabaseWatchers, databasesOnDisk, fileSignature, lookForZed } from "./discovery.ts";
import type { ZedFacts } from "./proc-scan.ts";
import { ZedRowsReader } from "./rows-reader.ts";
import { loadSqlite, type Sqlite } from "./sqlite.ts";
import { ZedWorkspaces } from "./workspaces.ts";

export interface ZedSourceOptions {
	/** `"pi-ide": { "zed": false }` turns the source off, with where that was said. */
	enabled: { on: boolean; source: string };
	env: ZedEnv;
	home: string;
	platform: string;
	uid: number;
	/** The scan of processes, stood in by tests of the matching rules; the real one by default. */
	processes?: (uid: number) => Promise<ProcessFacts[] | undefined>;
	/** How pi asks the system about processes (`/proc`, or `ps` and `lsof`). */
	facts: ZedFacts & Pick<SystemFacts, "runsNow">;
	/**
	 * Test-only (`PI_IDE_TEST_PROC_SCOPE`, as `PI_IDE_TEST_FS_ROOT` scopes dirs): only Zeds started with the
	 * same value are seen, so tests running side by side never read each other's Zed.
	 */
	testScope?: string;
}

/**
 * Zed as a source of editors, read from Zed's own state database while Zed runs: one editor per workspace
 * of Zed's current session. Follows changes by watching the database's directory (reads throttled, the last
 * change always read), with a 2 s fallback that compares sizes and mtimes. A read never waits on Zed's lock.
 */
export class ZedSource implements EditorSource {
	private phase: ZedReport["phase"] = { kind: "starting" };
	private sqlite?: Sqlite;
	private onDisk: DatabaseOnDisk[] = [];
	private defaultDirs: string[] = [];
	/** Every running Zed editor the last look found (a stateless one too: `/ide status` names it). */
	private zeds: RunningZed[] = [];
	private database?: ZedDatabase;
	private zed?: RunningZed;
	private readonly watchers = new DatabaseWatchers(() =>
		this.dispatch({ kind: "watched-change", nowMs: this.hooks.clock.nowMs(), signature: this.signatureNow() }),
	);
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
		private readonly options: ZedSourceOptions,
		private readonly hooks: SourceHooks,
	) {
		this.workspaces = new ZedWorkspaces(() => hooks.clock.nowSeconds());
		const workspaces = this.workspaces;
		this.rows = new ZedRowsReader(
			(path, snapshot, pid, settings) => workspaces.update(path, snapshot, pid, settings),
			{ env: options.env, home: options.home, platform: options.platform },
			() => hooks.clock.nowSeconds(),
		);
	}

	async start(): Promise<void> {
		try {
			this.phase = await this.open();
			if (this.phase.kind !== "reading") return;
			// With a database in the usual places, pi's start waits for the first look (no connection decision
			// on half a picture); without one, a Zed of its own data dir is looked for once pi has started (a
			// look at /proc beside pi's own start would cost that start ~20 ms).
			const look = () => this.dispatch({ kind: "look-for-zed", nowMs: this.hooks.clock.nowMs() });
			if (this.onDisk.length === 0) {
				this.cancelStartLook = this.hooks.clock.after(LIVENESS_CHECK_MS, look);
				return;
			}
			look();
			await this.scanning;
			await this.reading;
		} catch (error) {
			this.phase = { kind: "problem", reason: `Zed not read: ${String(error)}` };
		}
	}

	/**
	 * Where Zed's databases may be. Whether one is read is known after the first look at `/proc`: a Zed started
	 * with `--user-data-dir` brings its own dir (`settle` decides the phase then).
	 */
	private async open(): Promise<ZedReport["phase"]> {
		const { enabled, env, home, platform } = this.options;
		if (!enabled.on) return { kind: "off", source: enabled.source };
		this.defaultDirs = zedDataDirs(env, home, platform);
		this.onDisk = databasesOnDisk(this.defaultDirs);
		if (platform !== "win32") return { kind: "reading" };
		if (this.onDisk.length === 0) return { kind: "no-database", looked: this.defaultDirs };
		return { kind: "problem", reason: "telling whether Zed runs needs /proc or ps: not on Windows" };
	}

	/** After a look: databases to read are watched and node:sqlite loaded, else the phase says why not. */
	private async settle(dataDirs: readonly string[]): Promise<void> {
		if (this.phase.kind !== "reading" && this.phase.kind !== "no-database") return;
		if (this.onDisk.length === 0) {
			this.phase = { kind: "no-database", looked: [...dataDirs] };
			return;
		}
		if (!this.sqlite) {
			const sqlite = await loadSqlite();
			if (typeof sqlite === "string") {
				this.phase = { kind: "problem", reason: sqlite };
				return;
			}
			this.sqlite = sqlite;
		}
		this.phase = { kind: "reading" };
		for (const { database } of this.onDisk) this.watchers.watch(database.path);
	}

	/** Looks for Zed again now unless one is known (`/ide` asks: a Zed of its own data dir may have started). */
	async lookAgain(): Promise<void> {
		if (this.phase.kind !== "reading" && this.phase.kind !== "no-database") return;
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
		if (!this.zed || !this.database || this.cycle.blocked) return [];
		return this.workspaces.readings(this.database.path).map((reading) => ({ ...reading, alive: true }));
	}

	facts(key: string): EditorFacts | undefined {
		const known = this.workspaces.byKey(key);
		if (!known) return undefined;
		const offered = this.workspaces.offered(key);
		const blocked = this.cycle.blocked;
		return {
			origin: "zed",
			listed: offered,
			alive: this.zed !== undefined,
			...(offered && !blocked && { reading: known }),
			...(blocked && { rejection: blocked, lastValid: known }),
			writtenAtSeconds: known.writtenAtSeconds,
		};
	}

	/** Zed's pid on the existing liveness tick: `kill(pid, 0)`. */
	checkLiveness(): boolean {
		if (!this.zed || isProcessAlive(this.zed.pid)) return false;
		this.forgetZed();
		return true;
	}

	/** The slow fallback: a zombie Zed noticed; sizes and mtimes compared, a read (or a scan) when they moved. */
	async recheck(): Promise<void> {
		// A zombie (Zed quit, its parent has not reaped it) passes `kill(pid, 0)`: `/proc` tells, every 2 s. Where
		// `ps` answers (launchd reaps) nothing is spawned: `kill` and the start recorded at the scan decide.
		if (this.zed && !this.options.facts.runsNow(this.zed.pid)) {
			this.forgetZed();
			this.hooks.changed();
		}
		this.watchers.recheck();
		if (!this.sqlite) return;
		this.dispatch({ kind: "fallback", nowMs: this.hooks.clock.nowMs(), signature: this.signatureNow() });
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
		const workspaces = this.workspaces.reports(this.database?.path, snapshot, this.zed !== undefined);
		// With no Zed running, the database it would read: the one written last.
		const database = this.database ?? [...this.onDisk].sort((a, b) => b.writtenAtMs - a.writtenAtMs)[0]?.database;
		const { blocked, reads, fallbackChecks } = this.cycle;
		const stateless = this.zeds.filter((zed) => zed.stateless).map((zed) => zed.pid);
		return {
			phase: this.phase,
			...(stateless.length > 0 && { stateless }),
			...(settings && { settings }),
			...(database && { database }),
			...(this.zed && { zed: this.zed }),
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

	/** The database read, or with no Zed known the one it would be: its files' sizes and mtimes now. */
	private signatureNow(): string {
		return fileSignature(this.database?.path ?? this.onDisk[0]?.database.path ?? "");
	}

	/** Zed is gone: look again at once (another Zed, say of another channel, may still run). */
	private forgetZed(): void {
		const pid = this.zed?.pid;
		this.zed = undefined;
		this.hooks.event({ kind: "app-gone", label: `zed ${pid}` });
		this.dispatch({ kind: "look-for-zed", nowMs: this.hooks.clock.nowMs() });
	}

	/** `/proc` asked which Zed writes which database; one look at a time. */
	private scan(): void {
		if (this.scanning) return;
		// Never rejects: a look that throws is recorded for /ide status; the next change or `/ide` looks again.
		this.scanning = runInBackground("zed scan", async () => {
			// Taken before the scan, so that a write during it (a Zed starting) is looked at again.
			const signatureAtStart = this.signatureNow();
			const { uid, home, platform } = this.options;
			const look = await lookForZed({
				uid,
				home,
				platform,
				defaultDirs: this.defaultDirs,
				processes: this.options.processes,
				facts: this.options.facts,
				testScope: this.options.testScope,
			});
			if (this.closed) return;
			this.zeds = look.zeds;
			this.onDisk = look.onDisk;
			await this.settle(look.dataDirs);
			if (!look.chosen || !this.sqlite) return this.dispatch({ kind: "zed-not-found", signature: signatureAtStart });
			this.database = look.chosen.database;
			this.zed = look.chosen.zed;
			this.hooks.event({ kind: "app-found", label: `zed ${look.chosen.zed.pid}`, detail: look.chosen.database.path });
			this.dispatch({ kind: "zed-found", nowMs: this.hooks.clock.nowMs() });
			await this.reading;
		}).finally(() => {
			this.scanning = undefined;
		});
	}

	/** One read, then the editors it makes; the cycle hears how it ended. */
	private read(): void {
		const { sqlite, database } = this;
		if (this.closed || !sqlite || !database) return;
		this.reading = runInBackground("zed read", async () => {
			const signatureAtStart = fileSignature(database.path);
			const outcome = await this.rows.read(sqlite, database.path, this.zed);
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
