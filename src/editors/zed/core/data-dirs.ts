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
	XDG_CONFIG_HOME?: string;
	LOCALAPPDATA?: string;
	/** Set (non-empty): that Zed keeps its database in memory; the rows on disk are not its. */
	ZED_STATELESS?: string;
};

/** Only absolute values count: a relative XDG variable is invalid by the spec and would follow pi's cwd. */
const absolute = (value: string | undefined) => (value?.startsWith("/") ? value : undefined);

/**
 * Where a Zed started with this environment keeps its data (Zed's `paths::data_dir`). `--user-data-dir` in its
 * arguments moves it; a relative value counts from that Zed's own working directory (`cwd`).
 */
export function zedDataDir(
	env: ZedEnv,
	home: string,
	platform: string,
	argv: readonly string[] = [],
	cwd?: string,
): string {
	const flagged = userDataDirArg(argv, cwd);
	if (flagged) return flagged;
	if (platform === "darwin") return posix.join(home, "Library", "Application Support", "Zed");
	if (platform === "win32") return `${env.LOCALAPPDATA ?? posix.join(home, "AppData", "Local")}\\Zed`;
	const base =
		absolute(env.FLATPAK_XDG_DATA_HOME) ?? absolute(env.XDG_DATA_HOME) ?? posix.join(home, ".local", "share");
	return posix.join(base, "zed");
}

/** `--user-data-dir <dir>` or `--user-data-dir=<dir>`, absolute (a relative one against `cwd`, when known). */
export function userDataDirArg(argv: readonly string[], cwd?: string): string | undefined {
	for (const [index, arg] of argv.entries()) {
		const value =
			arg === "--user-data-dir"
				? argv[index + 1]
				: arg.startsWith("--user-data-dir=")
					? arg.slice("--user-data-dir=".length)
					: undefined;
		if (value === undefined || value === "") continue;
		if (value.startsWith("/")) return posix.normalize(value);
		return cwd?.startsWith("/") ? posix.resolve(cwd, value) : undefined;
	}
	return undefined;
}

/**
 * Where that Zed reads its user settings (`settings.json`, Zed's `paths::config_dir`): `<data dir>/config` for
 * a Zed started with `--user-data-dir`, else `$XDG_CONFIG_HOME/zed` or `~/.config/zed` (Linux); a Mac's Zed
 * reads `~/.config/zed` whatever `XDG_CONFIG_HOME` says.
 */
export function zedConfigDir(env: ZedEnv, home: string, userDataDir: string | undefined, platform: string): string {
	if (userDataDir) return posix.join(userDataDir, "config");
	const base = platform === "darwin" ? undefined : absolute(env.XDG_CONFIG_HOME);
	return posix.join(base ?? posix.join(home, ".config"), "zed");
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
 * (Zed's Linux installer), a distribution's `zed-preview` package, a source build's `target/`; on a Mac the
 * bundle Zed names after its channel (`crates/zed/Cargo.toml`): "Zed", "Zed Preview", "Zed Nightly", "Zed Dev".
 */
export function channelOfBinary(path: string): ZedChannel | undefined {
	const lower = path.toLowerCase();
	if (/zed[-_ ]?preview/.test(lower)) return "preview";
	if (/zed[-_ ]?nightly/.test(lower)) return "nightly";
	if (/\/target\/(?:[^/]+\/)?(?:debug|release)\//.test(lower) || lower.includes("/zed dev.app/")) return "dev";
	return lower.endsWith("/zed-editor") || lower.endsWith("/zed.app/contents/macos/zed") ? "stable" : undefined;
}
