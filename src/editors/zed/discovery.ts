import { dirname, posix } from "node:path";
import { resourceCount } from "../../shared/process-memory.ts";
import { DirWatch } from "../dir-watch.ts";
import { statOf } from "../fs-facts.ts";
import { realOrNormal } from "../real-paths.ts";
import { type ZedDatabase, zedDatabases } from "./core/data-dirs.ts";
import {
	customDataDirs,
	type DatabaseOnDisk,
	databaseToRead,
	type ProcessFacts,
	type RunningZed,
	runningZeds,
} from "./core/which-zed.ts";
import { type ZedFacts, zedProcesses } from "./proc-scan.ts";

/** A database on disk with when it was last written (the newer of `db.sqlite` and its `-wal`), or undefined. */
export function databaseOnDisk(database: ZedDatabase): DatabaseOnDisk | undefined {
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

/** Every channel's database that exists under these data dirs. */
export function databasesOnDisk(dataDirs: readonly string[]): DatabaseOnDisk[] {
	return dataDirs.flatMap((dataDir) => zedDatabases(dataDir).flatMap((database) => databaseOnDisk(database) ?? []));
}

/** What one look at `/proc` and the disk finds: the running Zeds, the databases, the one to read. */
export interface ZedLook {
	zeds: RunningZed[];
	/** The default data dirs and those of Zeds started with `--user-data-dir`. */
	dataDirs: string[];
	onDisk: DatabaseOnDisk[];
	chosen?: { database: ZedDatabase; zed: RunningZed };
}

/**
 * This user's running Zeds and the database one of them writes. A Zed started with `--user-data-dir` adds its
 * dir (canonical, as Zed makes it) to the dirs whose databases count, also where no default database exists.
 */
export async function lookForZed(options: {
	uid: number;
	home: string;
	platform: string;
	defaultDirs: readonly string[];
	processes?: (uid: number) => Promise<ProcessFacts[] | undefined>;
	facts: ZedFacts;
	/** Test-only: see only the processes started with this `PI_IDE_TEST_PROC_SCOPE` (parallel tests' Zeds). */
	testScope?: string;
}): Promise<ZedLook> {
	const scanned = await (options.processes?.(options.uid) ?? zedProcesses(options.uid, options.facts));
	const processes =
		options.testScope === undefined ? scanned : scanned?.filter((facts) => facts.testScope === options.testScope);
	const zeds = await Promise.all(
		runningZeds(processes ?? [], options.home, options.platform).map(async (zed) => {
			if (!zed.customDataDir || !zed.dataDir) return zed;
			const dataDir = await realOrNormal(zed.dataDir);
			return { ...zed, dataDir, configDir: posix.join(dataDir, "config") };
		}),
	);
	const dataDirs = [...new Set([...options.defaultDirs, ...customDataDirs(zeds)])];
	const onDisk = databasesOnDisk(dataDirs);
	const chosen = databaseToRead(onDisk, zeds);
	return { zeds, dataDirs, onDisk, ...(chosen && { chosen }) };
}

/** Size and mtime of `db.sqlite` and its `-wal`: the slow fallback reads only when they moved. */
export function fileSignature(path: string): string {
	return [path, `${path}-wal`]
		.map((file) => {
			const stats = statOf(file);
			return stats ? `${stats.size}:${stats.mtimeNs}` : "-";
		})
		.join(" ");
}

/**
 * The directories of the databases pi reads, watched by name (one watch per directory): a change of
 * `db.sqlite` or its `-wal` calls `changed`. `-shm` is shared memory every reader touches, pi's own reads
 * included: not a change of Zed's. A watch that died, or a dir made again, is armed anew on the re-check tick;
 * in between, the 2 s fallback still sees every change.
 */
export class DatabaseWatchers {
	private readonly watches = new Map<string, DirWatch>();

	constructor(private readonly changed: () => void) {}

	watch(databasePath: string): void {
		const dir = dirname(databasePath);
		if (this.watches.has(dir)) return;
		const watch = new DirWatch(dir, (name) => name === "db.sqlite" || name === "db.sqlite-wal", {
			changed: () => this.changed(),
			counted: (delta) => {
				resourceCount().watchers += delta;
			},
		});
		this.watches.set(dir, watch);
		watch.arm();
	}

	recheck(): void {
		for (const watch of this.watches.values()) watch.recheck();
	}

	/** Database dirs whose watch is not working now, and why. */
	problems(): { dir: string; problem: string }[] {
		return [...this.watches.values()].flatMap((watch) => {
			const { dir, problem } = watch.report();
			return problem === undefined ? [] : [{ dir, problem }];
		});
	}

	close(): void {
		for (const watch of this.watches.values()) watch.close();
		this.watches.clear();
	}
}
