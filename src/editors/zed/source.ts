import { type FSWatcher, watch } from "node:fs";
import { dirname } from "node:path";
import type { Cancel } from "../../shared/core/clock.ts";
import { resourceCount } from "../../shared/process-memory.ts";
import type { EditorFacts, ListedEditor } from "../core/editor.ts";
import type { EditorSource, SourceHooks } from "../editor-source.ts";
import { statOf } from "../fs-facts.ts";
import { isProcessAlive, isProcessRunning } from "../liveness.ts";
import { type ZedDatabase, type ZedEnv, zedDatabases, zedDataDirs } from "./core/data-dirs.ts";
import { type CycleEvent, nextStep, type ReadCycle, type ReadOutcome, START_CYCLE } from "./core/read-cycle.ts";
import { workspaceNotOffered, type ZedSnapshot } from "./core/rows.ts";
import type { ZedReport, ZedWorkspaceReport } from "./core/status.ts";
import { type DatabaseOnDisk, databaseToRead, type RunningZed, runningZeds } from "./core/which-zed.ts";
import { readZedDatabase } from "./database.ts";
import { zedProcesses } from "./proc-scan.ts";
import { loadSqlite, type Sqlite } from "./sqlite.ts";
import { ZedWorkspaces } from "./workspaces.ts";

export interface ZedSourceOptions {
	/** `"pi-ide": { "zed": false }` turns the source off, with where that was said. */
	enabled: { on: boolean; source: string };
	env: ZedEnv;
	home: string;
	platform: string;
	uid: number;
	/** `/proc` scan, stood in by tests of the matching rules; the real one by default. */
	processes?: (uid: number) => Promise<Parameters<typeof runningZeds>[0] | undefined>;
}

/** Size and mtime of `db.sqlite` and its `-wal`: the slow fallback reads only when they moved. */
function fileSignature(path: string): string {
	return [path, `${path}-wal`]
		.map((file) => {
			const stats = statOf(file);
			return stats ? `${stats.size}:${stats.mtimeNs}` : "-";
		})
		.join(" ");
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
	private database?: ZedDatabase;
	private zed?: RunningZed;
	private readonly watchers: FSWatcher[] = [];
	private cycle: ReadCycle = START_CYCLE;
	private snapshot?: ZedSnapshot;
	private schemaSteps?: string;
	private lastProblem?: { reason: string; atSeconds: number };
	private lastRead = { ms: 0, ok: false };
	private readonly workspaces: ZedWorkspaces;
	/** Cancels the throttled read that is due. */
	private cancelDue?: Cancel;
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
	}

	async start(): Promise<void> {
		try {
			this.phase = await this.open();
			if (this.phase.kind === "reading") this.dispatch({ kind: "look-for-zed", nowMs: this.hooks.clock.nowMs() });
			await this.scanning;
			await this.reading;
		} catch (error) {
			this.phase = { kind: "problem", reason: `Zed not read: ${String(error)}` };
		}
	}

	/** The databases on disk watched, node:sqlite loaded: only when a Zed database exists. */
	private async open(): Promise<ZedReport["phase"]> {
		const { enabled, env, home, platform } = this.options;
		if (!enabled.on) return { kind: "off", source: enabled.source };
		const dataDirs = zedDataDirs(env, home, platform);
		this.onDisk = dataDirs.flatMap((dataDir) => zedDatabases(dataDir).flatMap((db) => this.onDiskEntry(db) ?? []));
		if (this.onDisk.length === 0) return { kind: "no-database", looked: dataDirs };
		const sqlite = await loadSqlite();
		if (typeof sqlite === "string") return { kind: "problem", reason: sqlite };
		if (platform !== "linux")
			return { kind: "problem", reason: "telling whether Zed runs needs /proc: Linux only for now" };
		this.sqlite = sqlite;
		for (const { database } of this.onDisk) this.watch(database);
		return { kind: "reading" };
	}

	async close(): Promise<void> {
		this.closed = true;
		this.cancelDue?.();
		for (const watcher of this.watchers.splice(0)) {
			watcher.close();
			resourceCount().watchers--;
		}
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
			...(blocked && { rejection: blocked }),
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
		// A zombie (Zed quit, its parent has not reaped it) passes `kill(pid, 0)`: `/proc` tells, every 2 s.
		if (this.zed && !isProcessRunning(this.zed.pid)) {
			this.forgetZed();
			this.hooks.changed();
		}
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

	report(): ZedReport {
		const path = this.database?.path;
		const workspaces: ZedWorkspaceReport[] = (this.snapshot?.workspaces ?? []).map((row) => {
			const notOffered = workspaceNotOffered(row, this.snapshot?.sessionId);
			const reading = notOffered || !path ? undefined : this.workspaces.reading(path, row.id);
			const kept = reading && path ? this.workspaces.kept(path, row.id) : undefined;
			return {
				id: row.id,
				paths: row.paths,
				...(notOffered && { notOffered }),
				...(reading && { editor: { ...reading, alive: this.zed !== undefined } }),
				...(kept && { kept }),
			};
		});
		// With no Zed running, the database it would read: the one written last.
		const database = this.database ?? [...this.onDisk].sort((a, b) => b.writtenAtMs - a.writtenAtMs)[0]?.database;
		const { blocked, reads, fallbackChecks } = this.cycle;
		return {
			phase: this.phase,
			...(database && { database }),
			...(this.zed && { zed: this.zed }),
			...(this.schemaSteps && { schemaSteps: this.schemaSteps }),
			...(this.snapshot?.sessionId && { sessionId: this.snapshot.sessionId }),
			workspaces,
			...(this.lastProblem && { lastProblem: this.lastProblem }),
			...(blocked && { blocked }),
			reads: { count: reads, lastMs: this.lastRead.ms, lastOk: this.lastRead.ok, fallbackChecks },
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

	private onDiskEntry(database: ZedDatabase): DatabaseOnDisk | undefined {
		const main = statOf(database.path);
		if (!main?.isFile()) return undefined;
		const wal = statOf(`${database.path}-wal`);
		const writtenAtNs = wal && wal.mtimeNs > main.mtimeNs ? wal.mtimeNs : main.mtimeNs;
		return {
			database,
			writtenAtMs: Number(writtenAtNs / 1_000_000n),
			socket: statOf(database.socket)?.isSocket() === true,
		};
	}

	/** The database read, or with no Zed known the one it would be: its files' sizes and mtimes now. */
	private signatureNow(): string {
		return fileSignature(this.database?.path ?? this.onDisk[0]?.database.path ?? "");
	}

	private watch(database: ZedDatabase): void {
		try {
			const watcher = watch(dirname(database.path), { persistent: false }, (_event, name) => {
				// `-shm` is shared memory every reader touches, pi's own reads included: not a change of Zed's.
				if (name === null || name === "db.sqlite" || name === "db.sqlite-wal")
					this.dispatch({ kind: "watched-change", nowMs: this.hooks.clock.nowMs(), signature: this.signatureNow() });
			});
			watcher.on("error", () => {});
			this.watchers.push(watcher);
			resourceCount().watchers++;
		} catch {
			// Without a watcher the 2 s fallback still sees every change.
		}
	}

	/** Zed is gone: look again at once (another Zed, say of another channel, may still run). */
	private forgetZed(): void {
		const pid = this.zed?.pid;
		this.zed = undefined;
		this.hooks.event({ kind: "app-gone", label: `zed ${pid}` });
		this.dispatch({ kind: "look-for-zed", nowMs: this.hooks.clock.nowMs() });
	}

	/** `/proc` asked which Zed writes which database; one scan at a time. */
	private scan(): void {
		if (this.scanning) return;
		this.scanning = (async () => {
			// Taken before the scan, so that a write during it (a Zed starting) is looked at again.
			const signatureAtStart = this.signatureNow();
			const { uid, home, platform } = this.options;
			const processes = await (this.options.processes ?? zedProcesses)(uid);
			if (this.closed) return;
			this.onDisk = this.onDisk.map((entry) => this.onDiskEntry(entry.database) ?? entry);
			const chosen = databaseToRead(this.onDisk, runningZeds(processes ?? [], home, platform));
			if (!chosen) return this.dispatch({ kind: "zed-not-found", signature: signatureAtStart });
			this.database = chosen.database;
			this.zed = chosen.zed;
			this.hooks.event({ kind: "app-found", label: `zed ${chosen.zed.pid}`, detail: chosen.database.path });
			this.dispatch({ kind: "zed-found", nowMs: this.hooks.clock.nowMs() });
			await this.reading;
		})().finally(() => {
			this.scanning = undefined;
		});
	}

	/** One read, then the editors it makes; the cycle hears how it ended. */
	private read(): void {
		const { sqlite, database } = this;
		if (this.closed || !sqlite || !database) return;
		this.reading = (async () => {
			const signatureAtStart = fileSignature(database.path);
			const outcome = await this.readRows(sqlite, database.path);
			this.reading = undefined;
			this.hooks.changed();
			this.dispatch({
				kind: "read-done",
				nowMs: this.hooks.clock.nowMs(),
				outcome,
				signatureAtStart,
				signatureNow: fileSignature(database.path),
			});
		})();
	}

	/** The rows read and turned into editors; how the read ended. Never throws. */
	private async readRows(sqlite: Sqlite, path: string): Promise<ReadOutcome> {
		try {
			const result = readZedDatabase(sqlite, path);
			this.lastRead = { ms: result.tookMs, ok: result.ok };
			if (result.schema) this.schemaSteps = result.schema.steps;
			if (!result.ok) {
				this.lastProblem = { reason: result.reason, atSeconds: this.hooks.clock.nowSeconds() };
				// A locked database keeps its last state; a schema pi cannot read shows nothing rather than a guess.
				return result.busy ? { kind: "busy" } : { kind: "unusable", reason: result.reason };
			}
			this.snapshot = result.snapshot;
			await this.workspaces.update(path, result.snapshot, this.zed?.pid ?? 0);
			return { kind: "ok" };
		} catch (error) {
			this.lastProblem = { reason: String(error), atSeconds: this.hooks.clock.nowSeconds() };
			return { kind: "error", reason: String(error) };
		}
	}
}
