import { type FSWatcher, watch } from "node:fs";
import { dirname } from "node:path";
import type { Cancel } from "../../shared/core/clock.ts";
import { ZED_READ_THROTTLE_MS, ZED_SCAN_INTERVAL_MS } from "../../shared/core/timing.ts";
import { resourceCount } from "../../shared/process-memory.ts";
import type { EditorFacts, ListedEditor } from "../core/editor.ts";
import type { EditorSource, SourceHooks } from "../editor-source.ts";
import { statOf } from "../fs-facts.ts";
import { isProcessAlive, isProcessRunning } from "../liveness.ts";
import { type ZedDatabase, type ZedEnv, zedDatabases, zedDataDirs } from "./core/data-dirs.ts";
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
function fileMarks(path: string): string {
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
	private marks = "";
	private snapshot?: ZedSnapshot;
	private schemaSteps?: string;
	private lastProblem?: { reason: string; atSeconds: number };
	/** Why the rows cannot be used (a schema pi cannot read): no editor is offered, none is guessed. */
	private blocked?: string;
	private readonly workspaces: ZedWorkspaces;
	/** Cancels the throttled read that is due. */
	private timer?: Cancel;
	private reading?: Promise<void>;
	private again = false;
	private lastReadStartMs = 0;
	private scanning?: Promise<void>;
	private lastScanMs = Number.NEGATIVE_INFINITY;
	private reads = { count: 0, lastMs: 0, lastOk: false };
	private closed = false;

	constructor(
		private readonly options: ZedSourceOptions,
		private readonly hooks: SourceHooks,
	) {
		this.workspaces = new ZedWorkspaces(() => hooks.clock.nowSeconds());
	}

	async start(): Promise<void> {
		try {
			this.phase = await this.open();
			if (this.phase.kind === "reading") await this.findZed();
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
		this.timer?.();
		for (const watcher of this.watchers.splice(0)) {
			watcher.close();
			resourceCount().watchers--;
		}
		await this.reading;
		await this.scanning;
	}

	/** Zed gives no sign that it lost its database: the fallback runs on its own cadence. */
	readonly lost = false;

	editors(): ListedEditor[] {
		const zed = this.zed;
		if (!zed || !this.database || this.blocked) return [];
		return this.workspaces.readings(this.database.path).map((reading) => ({ ...reading, alive: true }));
	}

	facts(key: string): EditorFacts | undefined {
		const known = this.workspaces.byKey(key);
		if (!known) return undefined;
		const offered = this.workspaces.offered(key);
		return {
			origin: "zed",
			listed: offered,
			alive: this.zed !== undefined,
			...(offered && !this.blocked && { reading: known }),
			...(this.blocked && { rejection: this.blocked }),
			writtenAtSeconds: known.writtenAtSeconds,
		};
	}

	/** Zed's pid on the existing liveness tick: `kill(pid, 0)`. */
	checkLiveness(): boolean {
		if (!this.zed || isProcessAlive(this.zed.pid)) return false;
		this.forgetZed();
		return true;
	}

	/** The slow fallback: sizes and mtimes compared, a read (or a scan for Zed) only when they moved. */
	async recheck(): Promise<void> {
		// A zombie (Zed quit, its parent has not reaped it) passes `kill(pid, 0)`: `/proc` tells, every 2 s.
		if (this.zed && !isProcessRunning(this.zed.pid)) {
			this.forgetZed();
			this.hooks.changed();
		}
		if (!this.database && !this.sqlite) return;
		const path = this.database?.path ?? this.onDisk[0]?.database.path;
		if (!path || fileMarks(path) === this.marks) return;
		this.changed();
	}

	/** A read under way or due holds up only a prompt for a Zed workspace, never one for another editor. */
	isPending(key: string): boolean {
		return this.workspaces.byKey(key) !== undefined && (this.timer !== undefined || this.reading !== undefined);
	}

	async flush(key: string): Promise<void> {
		if (this.workspaces.byKey(key) === undefined) return;
		if (this.timer) {
			this.timer();
			this.timer = undefined;
			this.read();
		}
		await this.reading;
	}

	report(): ZedReport {
		const workspaces: ZedWorkspaceReport[] = (this.snapshot?.workspaces ?? []).map((row) => {
			const notOffered = workspaceNotOffered(row, this.snapshot?.sessionId);
			const path = this.database?.path;
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
		return {
			phase: this.phase,
			...(database && { database }),
			...(this.zed && { zed: this.zed }),
			...(this.schemaSteps && { schemaSteps: this.schemaSteps }),
			...(this.snapshot?.sessionId && { sessionId: this.snapshot.sessionId }),
			workspaces,
			...(this.lastProblem && { lastProblem: this.lastProblem }),
			...(this.blocked && { blocked: this.blocked }),
			reads: this.reads,
		};
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

	private watch(database: ZedDatabase): void {
		try {
			const watcher = watch(dirname(database.path), { persistent: false }, (_event, name) => {
				// `-shm` is shared memory every reader touches, pi's own reads included: not a change of Zed's.
				if (name === null || name === "db.sqlite" || name === "db.sqlite-wal") this.changed();
			});
			watcher.on("error", () => {});
			this.watchers.push(watcher);
			resourceCount().watchers++;
		} catch {
			// Without a watcher the 2 s fallback still sees every change.
		}
	}

	/** The database moved: read it (throttled) while Zed runs; look for Zed when none is known. */
	private changed(): void {
		if (this.closed) return;
		if (!this.zed) {
			if (this.hooks.clock.nowMs() - this.lastScanMs >= ZED_SCAN_INTERVAL_MS) void this.findZed();
			return;
		}
		if (this.reading) {
			this.again = true;
			return;
		}
		if (this.timer || fileMarks(this.database?.path ?? "") === this.marks) return;
		const wait = this.lastReadStartMs + ZED_READ_THROTTLE_MS - this.hooks.clock.nowMs();
		if (wait <= 0) this.read();
		else
			this.timer = this.hooks.clock.after(wait, () => {
				this.timer = undefined;
				this.read();
			});
	}

	/** Zed is gone: look again at once (another Zed, say of another channel, may still run). */
	private forgetZed(): void {
		const pid = this.zed?.pid;
		this.zed = undefined;
		this.hooks.event({ kind: "app-gone", label: `zed ${pid}` });
		void this.findZed();
	}

	private findZed(): Promise<void> {
		this.scanning ??= this.scan().finally(() => {
			this.scanning = undefined;
		});
		return this.scanning;
	}

	private async scan(): Promise<void> {
		this.lastScanMs = this.hooks.clock.nowMs();
		const { uid, home, platform } = this.options;
		const processes = await (this.options.processes ?? zedProcesses)(uid);
		if (this.closed) return;
		this.onDisk = this.onDisk.map((entry) => this.onDiskEntry(entry.database) ?? entry);
		const chosen = databaseToRead(this.onDisk, runningZeds(processes ?? [], home, platform));
		if (!chosen) {
			this.marks = fileMarks(this.database?.path ?? this.onDisk[0]?.database.path ?? "");
			return;
		}
		this.database = chosen.database;
		this.zed = chosen.zed;
		this.hooks.event({ kind: "app-found", label: `zed ${chosen.zed.pid}`, detail: chosen.database.path });
		this.read();
		await this.reading;
	}

	/** One read, then the editors it makes; a change during it is read again right after. */
	private read(): void {
		if (this.closed || !this.sqlite || !this.database || this.reading) return;
		this.lastReadStartMs = this.hooks.clock.nowMs();
		const { sqlite, database } = this;
		this.reading = (async () => {
			// Taken before the read, so that a write during it is read again.
			const marks = fileMarks(database.path);
			const result = readZedDatabase(sqlite, database.path);
			this.reads = { count: this.reads.count + 1, lastMs: result.tookMs, lastOk: result.ok };
			if (result.schema) this.schemaSteps = result.schema.steps;
			// A locked database was not read: its marks stay unclaimed and the 2 s fallback reads it again, even
			// if Zed writes nothing more. Its last state stays meanwhile.
			if (result.ok || !result.busy) this.marks = marks;
			if (!result.ok) {
				this.lastProblem = { reason: result.reason, atSeconds: this.hooks.clock.nowSeconds() };
				// A schema pi cannot read shows nothing rather than a guess.
				if (!result.busy) this.blocked = result.reason;
				return;
			}
			this.blocked = undefined;
			this.snapshot = result.snapshot;
			await this.workspaces.update(database.path, result.snapshot, this.zed?.pid ?? 0);
		})()
			.catch((error) => {
				this.lastProblem = { reason: String(error), atSeconds: this.hooks.clock.nowSeconds() };
			})
			.finally(() => {
				this.reading = undefined;
				this.hooks.changed();
				if (this.again) {
					this.again = false;
					this.changed();
				}
			});
	}
}
