import { channelOfBinary, type ZedChannel, type ZedDatabase, type ZedEnv, zedDataDir } from "./data-dirs.ts";

/** The GUI process of Zed on Linux (`zed` is a CLI that hands off to it and exits). */
export const ZED_PROCESS_NAME = "zed-editor";

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
}

/** A running Zed: which process, writing which data dir (when known), of which channel (when known). */
export interface RunningZed {
	pid: number;
	dataDir?: string;
	channel?: ZedChannel;
}

export function runningZeds(processes: readonly ProcessFacts[], home: string, platform: string): RunningZed[] {
	return processes
		.filter((candidate) => candidate.name === ZED_PROCESS_NAME)
		.map(({ pid, binary, env, argv }) => {
			const channel = binary === undefined ? undefined : channelOfBinary(binary);
			const dataDir = env ? zedDataDir(env, env.HOME ?? home, platform, argv ?? []) : undefined;
			return { pid, ...(dataDir && { dataDir }), ...(channel && { channel }) };
		})
		.sort((a, b) => a.pid - b.pid);
}

/** The Zed writing this database: same data dir and channel where those are known, else any Zed. */
export function zedWriting(database: ZedDatabase, zeds: readonly RunningZed[]): RunningZed | undefined {
	return zeds.find(
		(zed) =>
			(zed.dataDir === undefined || zed.dataDir === database.dataDir) &&
			(zed.channel === undefined || zed.channel === database.channel),
	);
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
