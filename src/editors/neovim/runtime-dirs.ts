import { userInfo } from "node:os";
import { resourceCount } from "../../shared/process-memory.ts";
import { DirWatchers } from "../dir-watch.ts";
import { isRuntimeDirNews, type RuntimeDir } from "./core/runtime-dirs.ts";

/**
 * The dirs where a Neovim's server appears (core/runtime-dirs.ts), watched by name. What they miss (a socket
 * elsewhere, `--listen ~/x`) is found on `/ide`; a dir not there yet, or made again, is watched as soon as it is.
 */
export function runtimeDirWatchers(dirs: readonly RuntimeDir[], appeared: () => void): DirWatchers {
	const holds = new Map(dirs.map((entry) => [entry.dir, entry.holds]));
	// Only an entry made or removed is news: a Neovim's log written to `/tmp/nvim*.log` is not a server.
	return new DirWatchers(
		(name, event, dir) => event === "rename" && isRuntimeDirNews(holds.get(dir) ?? "servers", name),
		{
			changed: appeared,
			counted: (delta) => {
				resourceCount().runtimeWatches += delta;
			},
		},
	);
}

/**
 * The user name Neovim puts in `nvim.<user>`: the password entry's, as Neovim's `os_get_username` reads it
 * (`getpwuid`, not `$USER`), or the uid when there is none.
 */
export function neovimUserName(uid: number): string {
	try {
		return userInfo().username;
	} catch {
		return String(uid);
	}
}
