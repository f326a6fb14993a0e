import { posix } from "node:path";

/** Zed's release channels; each keeps its own database (`db/0-<channel>/db.sqlite`). */
export const ZED_CHANNELS = ["stable", "preview", "nightly", "dev"] as const;
export type ZedChannel = (typeof ZED_CHANNELS)[number];

/** One channel's database under one data dir, with the single-instance socket its running Zed holds. */
export interface ZedDatabase {
	channel: ZedChannel;
	dataDir: string;
	/** `<data dir>/db/0-<channel>/db.sqlite` */
	path: string;
	/** `<data dir>/zed-<channel>.sock` (Linux) */
	socket: string;
}

export type ZedEnv = {
	HOME?: string;
	FLATPAK_XDG_DATA_HOME?: string;
	XDG_DATA_HOME?: string;
	LOCALAPPDATA?: string;
};

/** Only absolute values count: a relative XDG variable is invalid by the spec and would follow pi's cwd. */
const absolute = (value: string | undefined) => (value?.startsWith("/") ? value : undefined);

/**
 * Where a Zed started with this environment keeps its data (Zed's `paths::data_dir`), or undefined where
 * pi cannot tell. `--user-data-dir` in its arguments moves it.
 */
export function zedDataDir(env: ZedEnv, home: string, platform: string, argv: readonly string[] = []): string {
	const flagged = userDataDirArg(argv);
	if (flagged) return flagged;
	if (platform === "darwin") return posix.join(home, "Library", "Application Support", "Zed");
	if (platform === "win32") return `${env.LOCALAPPDATA ?? posix.join(home, "AppData", "Local")}\\Zed`;
	const base =
		absolute(env.FLATPAK_XDG_DATA_HOME) ?? absolute(env.XDG_DATA_HOME) ?? posix.join(home, ".local", "share");
	return posix.join(base, "zed");
}

function userDataDirArg(argv: readonly string[]): string | undefined {
	for (const [index, arg] of argv.entries()) {
		if (arg === "--user-data-dir") return absolute(argv[index + 1]);
		if (arg.startsWith("--user-data-dir=")) return absolute(arg.slice("--user-data-dir=".length));
	}
	return undefined;
}

/**
 * The data dirs a Zed of this user may write, pi's own environment first: a Flatpak Zed seen from the host
 * keeps its data under `~/.var/app` (inferred from Flatpak's layout, not seen).
 */
export function zedDataDirs(env: ZedEnv, home: string, platform: string): string[] {
	const own = zedDataDir(env, home, platform);
	if (platform !== "linux" && platform !== "freebsd") return [own];
	const candidates = [
		own,
		posix.join(home, ".local", "share", "zed"),
		posix.join(home, ".var", "app", "dev.zed.Zed", "data", "zed"),
	];
	return [...new Set(candidates)];
}

export function zedDatabases(dataDir: string): ZedDatabase[] {
	return ZED_CHANNELS.map((channel) => ({
		channel,
		dataDir,
		path: posix.join(dataDir, "db", `0-${channel}`, "db.sqlite"),
		socket: posix.join(dataDir, `zed-${channel}.sock`),
	}));
}

/**
 * The channel of a Zed binary, from where it is installed: `zed-preview.app`, `zed-nightly.app`, `zed.app`
 * (Zed's Linux installer), a distribution's `zed-preview` package, a source build's `target/`.
 */
export function channelOfBinary(path: string): ZedChannel | undefined {
	const lower = path.toLowerCase();
	if (/zed[-_]?preview/.test(lower)) return "preview";
	if (/zed[-_]?nightly/.test(lower)) return "nightly";
	if (/\/target\/(debug|release)\//.test(lower)) return "dev";
	return lower.endsWith("/zed-editor") ? "stable" : undefined;
}
