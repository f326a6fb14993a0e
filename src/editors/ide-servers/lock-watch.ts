import { runInBackground } from "../../shared/background.ts";
import { resourceCount } from "../../shared/process-memory.ts";
import { DirWatch } from "../dir-watch.ts";
import { portOfLockName } from "./core/lockfile.ts";

/**
 * The lock dirs, watched by name (`<port>.lock`): a lockfile written, rewritten (a new token) or removed is read
 * at once. A dir not there yet (`~/.claude/ide` before the first IDE) is waited for on its nearest parent.
 */
export class LockDirWatchers {
	private watches: DirWatch[] = [];

	constructor(private readonly changed: (dir: string) => Promise<void>) {}

	watch(dirs: readonly string[]): void {
		for (const dir of dirs) {
			const watch = new DirWatch(dir, (name) => portOfLockName(name) !== undefined, {
				changed: () => void runInBackground("ide server lock dir", () => this.changed(dir)),
				counted: (delta) => {
					resourceCount().lockWatches += delta;
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

	problemOf(dir: string): { watch?: string } {
		const report = this.watches.find((watch) => watch.dir === dir)?.report();
		return report?.problem === undefined ? {} : { watch: `not watched: ${report.problem} (found on /ide)` };
	}

	close(): void {
		for (const watch of this.watches) watch.close();
		this.watches = [];
	}
}
