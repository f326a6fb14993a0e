import { type ZedDatabase, type ZedEnv, zedDataDirs } from "./core/data-dirs.ts";
import type { ZedReport } from "./core/status.ts";
import type { DatabaseOnDisk, ProcessFacts, RunningZed } from "./core/which-zed.ts";
import { databasesOnDisk, fileSignature, lookForZed, type ZedLook } from "./discovery.ts";
import { loadSqlite, type Sqlite } from "./sqlite.ts";

/** Where Zed's data is and which of this user's processes are Zed: what a look needs to be told. */
export interface ZedWhereabouts {
	/** `"pi-ide": { "zed": false }` turns the source off, with where that was said. */
	enabled: { on: boolean; source: string };
	env: ZedEnv;
	home: string;
	platform: string;
	uid: number;
	/** `/proc` scan, stood in by tests of the matching rules; the real one by default. */
	processes?: (uid: number) => Promise<ProcessFacts[] | undefined>;
	/**
	 * Test-only (`PI_IDE_TEST_PROC_SCOPE`, as `PI_IDE_TEST_FS_ROOT` scopes dirs): only Zeds started with the
	 * same value are seen, so tests running side by side never read each other's Zed.
	 */
	testScope?: string;
}

/** What `/ide status` says of the target: the phase, the stateless Zeds, the database and the Zed read. */
export type ReadTargetReport = Pick<ZedReport, "phase" | "stateless" | "database" | "zed">;

/**
 * What pi reads of Zed and whether it can: the phase (off, no database, no node:sqlite, reading), the databases
 * on disk, the running Zeds, and the database and Zed the last look chose. The source decides when to look
 * (core/read-cycle.ts); this holds what the looks found.
 */
export class ReadTarget {
	phase: ZedReport["phase"] = { kind: "starting" };
	sqlite?: Sqlite;
	/** The database read and the Zed that writes it, while one runs. */
	database?: ZedDatabase;
	zed?: RunningZed;
	private onDisk: DatabaseOnDisk[] = [];
	private defaultDirs: string[] = [];
	/** Every running Zed editor the last look found (a stateless one too: `/ide status` names it). */
	private zeds: RunningZed[] = [];

	constructor(
		private readonly whereabouts: ZedWhereabouts,
		/** Watches a database to read (discovery.ts's `DatabaseWatchers`). */
		private readonly watch: (databasePath: string) => void,
	) {}

	/** Whether Zed is looked for: it is read, or would be once a database shows up. */
	get looking(): boolean {
		return this.phase.kind === "reading" || this.phase.kind === "no-database";
	}

	/** Whether a database is on disk in the places looked at so far. */
	get anyOnDisk(): boolean {
		return this.onDisk.length > 0;
	}

	/**
	 * Where Zed's databases may be. Whether one is read is known after the first look at `/proc`: a Zed started
	 * with `--user-data-dir` brings its own dir (`settle` decides the phase then).
	 */
	async open(): Promise<void> {
		const { enabled, env, home, platform } = this.whereabouts;
		if (!enabled.on) {
			this.phase = { kind: "off", source: enabled.source };
			return;
		}
		this.defaultDirs = zedDataDirs(env, home, platform);
		this.onDisk = databasesOnDisk(this.defaultDirs);
		if (platform === "linux") this.phase = { kind: "reading" };
		else if (this.onDisk.length === 0) this.phase = { kind: "no-database", looked: this.defaultDirs };
		else this.phase = { kind: "problem", reason: "telling whether Zed runs needs /proc: Linux only for now" };
	}

	/** One look at `/proc` and the disk; nothing is kept until `take`. */
	look(): Promise<ZedLook> {
		const { uid, home, platform, processes, testScope } = this.whereabouts;
		return lookForZed({ uid, home, platform, defaultDirs: this.defaultDirs, processes, testScope });
	}

	/** What a look found kept: the Zed chosen and its database, when one is and node:sqlite reads it. */
	async take(look: ZedLook): Promise<{ database: ZedDatabase; zed: RunningZed } | undefined> {
		this.zeds = look.zeds;
		this.onDisk = look.onDisk;
		await this.settle(look.dataDirs);
		if (!look.chosen || !this.sqlite) return undefined;
		this.database = look.chosen.database;
		this.zed = look.chosen.zed;
		return look.chosen;
	}

	/** Zed is gone; its pid, for the event that says so. */
	forgetZed(): number | undefined {
		const pid = this.zed?.pid;
		this.zed = undefined;
		return pid;
	}

	/** The database read, or with no Zed known the one it would be: its files' sizes and mtimes now. */
	signature(): string {
		return fileSignature(this.database?.path ?? this.onDisk[0]?.database.path ?? "");
	}

	report(): ReadTargetReport {
		// With no Zed running, the database it would read: the one written last.
		const database = this.database ?? [...this.onDisk].sort((a, b) => b.writtenAtMs - a.writtenAtMs)[0]?.database;
		const stateless = this.zeds.filter((zed) => zed.stateless).map((zed) => zed.pid);
		return {
			phase: this.phase,
			...(stateless.length > 0 && { stateless }),
			...(database && { database }),
			...(this.zed && { zed: this.zed }),
		};
	}

	/** After a look: databases to read are watched and node:sqlite loaded, else the phase says why not. */
	private async settle(dataDirs: readonly string[]): Promise<void> {
		if (!this.looking) return;
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
		for (const { database } of this.onDisk) this.watch(database.path);
	}
}
