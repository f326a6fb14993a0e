import { resourceCount } from "../../shared/process-memory.ts";
import { DirWatchers } from "../dir-watch.ts";
import { isNeovimServerName } from "./core/unix-sockets.ts";

/** Where a Neovim's server appears: `$XDG_RUNTIME_DIR` (0.9+) and `$TMPDIR`, else `/tmp` (0.7, 0.8). */
export function runtimeDirs(env: { XDG_RUNTIME_DIR?: string; TMPDIR?: string }): string[] {
	return [...new Set([env.XDG_RUNTIME_DIR, env.TMPDIR || "/tmp"].filter((dir): dir is string => !!dir))];
}

/**
 * The dirs where a Neovim's server appears, watched by name (`nvim*`). What it misses (a socket elsewhere,
 * `--listen ~/x`) is found on `/ide`; a dir not there yet, or made again, is watched as soon as it is.
 */
export function runtimeDirWatchers(appeared: () => void): DirWatchers {
	// Only an entry made or removed is news: a Neovim's log written to `/tmp/nvim*.log` is not a server.
	return new DirWatchers((name, event) => event === "rename" && isNeovimServerName(name), {
		changed: appeared,
		counted: (delta) => {
			resourceCount().runtimeWatches += delta;
		},
	});
}
