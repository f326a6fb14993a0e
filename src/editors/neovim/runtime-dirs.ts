import { type FSWatcher, watch } from "node:fs";
import { resourceCount } from "../../shared/process-memory.ts";
import { isNeovimServerName } from "./core/unix-sockets.ts";

/**
 * A raw `fs.watch` of the dirs where a Neovim's server appears, filtered by name: no stat per event, so a
 * busy `/tmp` costs a name check per entry. What it misses (a socket elsewhere, `--listen ~/x`) is found on `/ide`.
 */
export class RuntimeDirWatchers {
	private watchers: FSWatcher[] = [];

	constructor(private readonly appeared: () => void) {}

	/** Dirs that do not exist or cannot be watched are skipped: `/ide` still scans. */
	watch(dirs: readonly string[]): void {
		for (const dir of dirs) {
			try {
				const watcher = watch(dir, { persistent: false }, (event, name) => {
					if (event === "rename" && name !== null && isNeovimServerName(name)) this.appeared();
				});
				watcher.on("error", () => this.drop(watcher));
				this.watchers.push(watcher);
				resourceCount().runtimeWatches++;
			} catch {
				// Not there, or not ours to watch: nothing appears in it for pi.
			}
		}
	}

	get watchedCount(): number {
		return this.watchers.length;
	}

	close(): void {
		for (const watcher of [...this.watchers]) this.drop(watcher);
	}

	private drop(watcher: FSWatcher): void {
		if (!this.watchers.includes(watcher)) return;
		this.watchers = this.watchers.filter((kept) => kept !== watcher);
		watcher.close();
		resourceCount().runtimeWatches--;
	}
}
