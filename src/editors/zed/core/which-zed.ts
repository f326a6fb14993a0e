import {
	channelOfBinary,
	userDataDirArg,
	type ZedChannel,
	type ZedDatabase,
	type ZedEnv,
	zedConfigDir,
	zedDataDir,
} from "./data-dirs.ts";

/** The GUI process of Zed on Linux (`zed` is a CLI that hands off to it and exits). */
export const ZED_PROCESS_NAME = "zed-editor";
/** A Zed built from source runs as `zed` from a cargo `target/debug` or `target/release` dir. */
export const SOURCE_BUILD_PROCESS_NAME = "zed";

/** Names worth reading a process's details for: the rest of `/proc` is skipped on its `stat` line alone. */
export const ZED_PROCESS_NAMES: ReadonlySet<string> = new Set([ZED_PROCESS_NAME, SOURCE_BUILD_PROCESS_NAME]);

/** A Zed editor, not the `zed` CLI: `zed-editor`, or `zed` from a source build's `target/`. */
export function isZedEditor(facts: Pick<ProcessFacts, "name" | "binary">): boolean {
	if (facts.name === ZED_PROCESS_NAME) return true;
	return (
		facts.name === SOURCE_BUILD_PROCESS_NAME && facts.binary !== undefined && channelOfBinary(facts.binary) === "dev"
	);
}

/** What pi could read of one process of this user. */
export interface ProcessFacts {
	pid: number;
	/** `/proc/<pid>/comm` */
	name: string;
	/** The binary (`/proc/<pid>/exe`), when readable. */
	binary?: string;
	/** Its launch environment and arguments, when readable: they say which data dir it writes. */
	env?: ZedEnv;
	argv?: readonly string[];
	/** Its working directory, read only when a relative `--user-data-dir` needs it. */
	cwd?: string;
	/** Test-only: its `PI_IDE_TEST_PROC_SCOPE`. */
	testScope?: string;
}

/** A running Zed: which process, writing which data dir (when known), of which channel (when known). */
export interface RunningZed {
	pid: number;
	dataDir?: string;
	channel?: ZedChannel;
	/** Started with `--user-data-dir`: its database is under that dir, wherever pi's own environment points. */
	customDataDir?: boolean;
	/** Where it reads its user settings, when known. */
	configDir?: string;
	/** `ZED_STATELESS`: its database lives in memory; no rows on disk are its. */
	stateless?: boolean;
}

export function runningZeds(processes: readonly ProcessFacts[], home: string, platform: string): RunningZed[] {
	return processes
		.filter(isZedEditor)
		.map(({ pid, binary, env, argv, cwd }) => {
			const channel = binary === undefined ? undefined : channelOfBinary(binary);
			const custom = userDataDirArg(argv ?? [], cwd);
			const zedHome = env?.HOME ?? home;
			const dataDir = custom ?? (env ? zedDataDir(env, zedHome, platform) : undefined);
			const configDir = env || custom ? zedConfigDir(env ?? {}, zedHome, custom) : undefined;
			return {
				pid,
				...(dataDir && { dataDir }),
				...(channel && { channel }),
				...(custom && { customDataDir: true }),
				...(configDir && { configDir }),
				...(env?.ZED_STATELESS && { stateless: true }),
			};
		})
		.sort((a, b) => a.pid - b.pid);
}

/**
 * The Zed writing this database: same data dir and channel where those are known, else any Zed. A stateless
 * Zed writes none, and a Zed of its own data dir writes only that dir's.
 */
export function zedWriting(database: ZedDatabase, zeds: readonly RunningZed[]): RunningZed | undefined {
	return zeds.find(
		(zed) =>
			!zed.stateless &&
			(zed.dataDir === undefined || zed.dataDir === database.dataDir) &&
			(zed.channel === undefined || zed.channel === database.channel),
	);
}

/** The data dirs of running Zeds started with `--user-data-dir`: their databases are read too. */
export function customDataDirs(zeds: readonly RunningZed[]): string[] {
	return [...new Set(zeds.flatMap((zed) => (zed.customDataDir && zed.dataDir && !zed.stateless ? [zed.dataDir] : [])))];
}

/** A database on disk, with when it was last written (the newest of `db.sqlite` and its `-wal`). */
export interface DatabaseOnDisk {
	database: ZedDatabase;
	writtenAtMs: number;
	/** Its channel's single-instance socket exists. */
	socket: boolean;
}

/**
 * Which database to read: one whose Zed runs (the channel told by its binary, else by its socket), the one
 * written last among several; with no Zed running, none.
 */
export function databaseToRead(
	onDisk: readonly DatabaseOnDisk[],
	zeds: readonly RunningZed[],
): { database: ZedDatabase; zed: RunningZed } | undefined {
	const running = onDisk.flatMap((entry) => {
		const zed = zedWriting(entry.database, zeds);
		return zed ? [{ entry, zed }] : [];
	});
	const told = running.filter(({ entry, zed }) => zed.channel !== undefined || entry.socket);
	const pool = told.length > 0 ? told : running;
	const newest = [...pool].sort((a, b) => b.entry.writtenAtMs - a.entry.writtenAtMs)[0];
	return newest && { database: newest.entry.database, zed: newest.zed };
}
