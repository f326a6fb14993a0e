import { normalizePath } from "../../../shared/core/paths.ts";

/**
 * Where a Neovim's server socket appears when it picks the address itself, from Neovim's own sources:
 * - 0.8 and later: `stdpath('run')/<appname>.<pid>.<n>` (`server_address_new`, msgpack_rpc/server.c), where
 *   `stdpath('run')` is `$XDG_RUNTIME_DIR` when set, else Neovim's temp dir (os/stdpaths.c).
 * - Neovim's temp dir (`vim_mktempdir`, fileio.c) is made under the first of `$TMPDIR`, `/tmp` that is a dir
 *   (os/unix_defs.h `TEMP_DIR_NAMES`): from 0.8 `nvim.<user>/XXXXXX` (a 0700 dir of the user, made once, and a
 *   random dir per Neovim under it; `nvim.XXXXXX` when `nvim.<user>` is not safe); 0.7 and older `nvimXXXXXX`,
 *   the socket `0` in it.
 * A Mac has no `XDG_RUNTIME_DIR` and a `TMPDIR` of its own (`/var/folders/…/T/`): every Neovim there is under
 * `$TMPDIR/nvim.<user>/`, one new dir per Neovim, which a watch of `$TMPDIR` alone never sees after the first.
 */

/** What the entries of a watched dir are: sockets and temp dirs named by Neovim, or every one a Neovim's own dir. */
export type RuntimeDirHolds = "servers" | "neovim-dirs";

export interface RuntimeDir {
	dir: string;
	holds: RuntimeDirHolds;
}

export interface RuntimeDirEnv {
	XDG_RUNTIME_DIR?: string;
	TMPDIR?: string;
}

/** `vim_mktempdir` reads the user name into 40 bytes (39 and the NUL) and turns `/` and `\` into `_` (#19240). */
const USER_NAME_BYTES = 39;

/** The name of the dir Neovim 0.8+ keeps its temp dirs in, under the temp root: `nvim.<user>`. */
export function neovimUserDirName(userName: string): string {
	const bytes = new TextEncoder();
	let name = "";
	for (const char of userName) {
		if (bytes.encode(name + char).length > USER_NAME_BYTES) break;
		name += char;
	}
	return `nvim.${name.replace(/[/\\]/g, "_")}`;
}

/**
 * The dirs to watch, pi's environment standing for the Neovims': `$XDG_RUNTIME_DIR` (sockets by name), and
 * each temp root (`$TMPDIR`, else `/tmp`) with its `nvim.<user>` dir. On a Mac `/tmp` too: a Neovim started
 * by launchd has no `TMPDIR`. Only absolute values count (a relative one would follow pi's cwd). Linux keeps
 * the one root it had; Windows names pipes, not files: nothing to watch.
 */
export function neovimRuntimeDirs(env: RuntimeDirEnv, platform: string, userName: string): RuntimeDir[] {
	if (platform === "win32") return [];
	const dirs: RuntimeDir[] = [];
	const runtime = absolute(env.XDG_RUNTIME_DIR);
	if (runtime) dirs.push({ dir: runtime, holds: "servers" });
	const roots = [absolute(env.TMPDIR) ?? "/tmp", ...(platform === "darwin" ? ["/tmp"] : [])];
	for (const root of roots) {
		dirs.push({ dir: root, holds: "servers" });
		dirs.push({ dir: `${root === "/" ? "" : root}/${neovimUserDirName(userName)}`, holds: "neovim-dirs" });
	}
	const seen = new Set<string>();
	return dirs.filter(({ dir }) => !seen.has(dir) && !!seen.add(dir));
}

/**
 * Whether an entry made or removed in a watched dir is news of a Neovim's server: in `nvim.<user>` every entry
 * is one Neovim's temp dir (its socket is made there next); elsewhere only names Neovim gives.
 */
export function isRuntimeDirNews(holds: RuntimeDirHolds, name: string): boolean {
	return holds === "neovim-dirs" || isNeovimServerName(name);
}

const absolute = (value: string | undefined) => (value?.startsWith("/") ? normalizePath(value) : undefined);

/**
 * The address of the Neovim whose terminal (or job) pi runs in: `$NVIM` since 0.7, `$NVIM_LISTEN_ADDRESS`
 * before. Only a unix socket path counts (a TCP address is never used).
 */
export function enclosingNeovimAddress(env: { NVIM?: string; NVIM_LISTEN_ADDRESS?: string }): string | undefined {
	const address = env.NVIM || env.NVIM_LISTEN_ADDRESS;
	return address?.startsWith("/") ? address : undefined;
}

/**
 * Names Neovim gives what it creates for its server (./runtime-dirs.ts): its temp dirs `nvimXXXXXX` (0.7 and
 * older), `nvim.<user>` and `nvim.XXXXXX` (0.8+), and the socket `<appname>.<pid>.<n>` (0.8+), whose appname is
 * `nvim`, or from 0.9 `$NVIM_APPNAME` (any name, its slashes made `-`).
 */
export function isNeovimServerName(name: string): boolean {
	return name.startsWith("nvim") || /^[^/]+\.\d+\.\d+$/.test(name);
}
