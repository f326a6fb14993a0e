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
/**
 * `zed`: a Zed built from source (cargo's `target/debug` or `target/release`), a Mac's editor
 * (`<Bundle>.app/Contents/MacOS/zed`, its kernel name `zed`), and also the `zed` command wherever it is a link
 * to the CLI (`/usr/local/bin/zed` → `Zed.app/Contents/MacOS/cli`): only the binary tells them apart.
 */
export const SOURCE_BUILD_PROCESS_NAME = "zed";

/** Names worth reading a process's details for: the rest of the processes are skipped on their name alone. */
export const ZED_PROCESS_NAMES: ReadonlySet<string> = new Set([ZED_PROCESS_NAME, SOURCE_BUILD_PROCESS_NAME]);

/** The editor in a Mac bundle of each channel (script/bundle-mac); `…/MacOS/cli` beside it is the `zed` command. */
const MAC_BUNDLE_EDITOR = /\/Zed(?: Preview| Nightly| Dev)?\.app\/Contents\/MacOS\/zed$/;

/**
 * Whether a binary is Zed's editor, not its CLI: Linux's `zed-editor` (Zed's installer, a distribution's
 * package); a source build's `target/{debug,release}/zed` (or `zed-editor`); on a Mac `Zed.app`, "Zed
 * Preview.app", "Zed Nightly.app" or "Zed Dev.app"'s `Contents/MacOS/zed`. Never `…/MacOS/cli`.
 */
export function isZedEditorBinary(path: string, platform: string): boolean {
	const name = path.slice(path.lastIndexOf("/") + 1);
	if (name === ZED_PROCESS_NAME) return true;
	if (name !== SOURCE_BUILD_PROCESS_NAME) return false;
	if (/\/target\/(?:[^/]+\/)?(?:debug|release)\/zed$/.test(path)) return true;
	return platform === "darwin" && MAC_BUNDLE_EDITOR.test(path);
}

/**
 * A Zed editor, not the `zed` CLI: `zed-editor` by name (Linux), or a `zed` whose binary is the editor's
 * (a source build; a Mac's bundle). A `zed` of unknown binary may be the CLI: no editor.
 */
export function isZedEditor(facts: Pick<ProcessFacts, "name" | "binary">, platform: string): boolean {
	if (facts.name === ZED_PROCESS_NAME) return true;
	return (
		facts.name === SOURCE_BUILD_PROCESS_NAME && facts.binary !== undefined && isZedEditorBinary(facts.binary, platform)
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
		.filter((facts) => isZedEditor(facts, platform))
		.map(({ pid, binary, env, argv, cwd }) => {
			const channel = binary === undefined ? undefined : channelOfBinary(binary);
			const custom = userDataDirArg(argv ?? [], cwd);
			const zedHome = env?.HOME ?? home;
			const dataDir = custom ?? (env ? zedDataDir(env, zedHome, platform) : undefined);
			const configDir = env || custom ? zedConfigDir(env ?? {}, zedHome, custom, platform) : undefined;
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
