import { resourceCount } from "../../shared/process-memory.ts";
import { DirWatch, type DirWatchReport } from "../dir-watch.ts";

/**
 * The dirs an Emacs's server socket appears in (core/server-sockets.ts), watched: any entry made or removed there
 * is news (`server-name` may be anything), and neither dir exists before the first `server-start`, so each is
 * waited for through its nearest parent (DirWatch). What they miss (an absolute `server-name` elsewhere) is
 * found on `/ide`.
 */
export class ServerDirWatchers {
	private watches: DirWatch[] = [];

	constructor(private readonly appeared: () => void) {}

	watch(dirs: readonly string[]): void {
		for (const dir of dirs) {
			// A socket is made (bind) or removed (`server-force-delete`, exit): a write to an entry is no server.
			const watch = new DirWatch(dir, (_name, event) => event === "rename", {
				changed: () => this.appeared(),
				counted: (delta) => {
					resourceCount().emacsWatches += delta;
				},
			});
			this.watches.push(watch);
			watch.arm();
		}
	}

	/** On the source's re-check tick: a watch that died or whose dir was made again is armed anew. */
	recheck(): void {
		for (const watch of this.watches) watch.recheck();
	}

	reports(): DirWatchReport[] {
		return this.watches.map((watch) => watch.report());
	}

	close(): void {
		for (const watch of this.watches) watch.close();
		this.watches = [];
	}
}
