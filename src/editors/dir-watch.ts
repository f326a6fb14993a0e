import { existsSync, type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { guarded } from "../shared/background.ts";

/** What a dir watch reports of itself for `/ide status`. */
export interface DirWatchReport {
	dir: string;
	/** What is watched now: the dir, or its nearest existing parent while the dir is not there; none after a failure. */
	watching?: string;
	/** Why it does not watch the dir itself (a failure to watch, the watcher's error), until the next re-arm. */
	problem?: string;
}

export interface DirWatchHooks {
	/** An entry whose name passes the filter changed; `null` when the dir itself appeared or was watched anew. */
	changed: (name: string | null) => void;
	/** Open watches, counted for `/ide status` (+1 when one opens, -1 when it closes). */
	counted: (delta: number) => void;
}

/** What an entry's event was: made, removed or renamed (`rename`), or written (`change`). */
export type DirEvent = "rename" | "change";

/** Which entries of a watched dir are news: by name and event, and the dir (several dirs may hold different things). */
export type EntryFilter = (name: string, event: DirEvent, dir: string) => boolean;

/** `fs.watch` as this module calls it; tests hand in one that fails as the kernel can. */
export type WatchDir = (dir: string, listener: (event: string, name: string | null) => void) => FSWatcher;

const watchDirOfNode: WatchDir = (dir, listener) => watch(dir, { persistent: false }, listener);

/**
 * One raw `fs.watch` of a dir, filtered by name: no stat per event, so a busy `/tmp` costs a name check per
 * entry. A dir that is not there yet is waited for by watching its nearest existing parent for the next name
 * on the way. Linux gives no error when a watched dir is removed (it just goes quiet, and a dir made again
 * under the same name is another dir): `recheck` on the sources' tick compares the dir's identity (dev and
 * inode) and re-arms, and a watcher that errored or could not be made (the inotify limit) is tried again there.
 */
export class DirWatch {
	private watcher?: FSWatcher;
	private watching?: string;
	private identity?: string;
	private problem?: string;
	/** The first arm is the source's own start, which reads what is there: only later arms announce the dir. */
	private armedBefore = false;
	private closed = false;

	constructor(
		readonly dir: string,
		private readonly accepts: EntryFilter,
		private readonly hooks: DirWatchHooks,
		private readonly watchDir: WatchDir = watchDirOfNode,
	) {}

	/** Watches the dir, or its nearest existing parent; `recheck` calls it again on every tick. */
	arm(): void {
		if (this.closed) return;
		const target = nearestExisting(this.dir);
		if (target && this.watcher && this.watching === target.path && this.identity === target.identity) return;
		// Armed anew after the start: whatever the dir holds now was never seen by a watch.
		const announce = this.armedBefore;
		this.armedBefore = true;
		this.drop();
		if (!target) {
			this.problem = "no part of its path exists";
			return;
		}
		const onDir = target.path === this.dir;
		const next = onDir ? undefined : nextName(target.path, this.dir);
		try {
			const watcher = this.watchDir(
				target.path,
				guarded("dir watch", (event: string, name: string | null) => {
					if (onDir && name !== null && this.isOwnEvent(name)) {
						// The dir itself was removed or moved (inotify's last word for it): watched anew, even
						// when a dir made again at once got the same inode number.
						this.drop();
						this.arm();
					} else if (onDir) {
						const kind = event === "change" ? "change" : "rename";
						if (name === null || this.accepts(name, kind, this.dir)) this.hooks.changed(name);
					} else if (name === null || name === next) this.arm();
				}),
			);
			watcher.on(
				"error",
				guarded("dir watch error", (error: unknown) => {
					if (this.watcher !== watcher) return;
					this.drop();
					this.problem = `its watcher failed: ${String(error)}; watched again within seconds`;
				}),
			);
			this.watcher = watcher;
			this.watching = target.path;
			this.identity = target.identity;
			this.problem = undefined;
			this.hooks.counted(1);
		} catch (error) {
			this.problem = `cannot watch ${target.path}: ${watchFailure(error)}`;
			return;
		}
		// The dir appeared (or is another dir now): what it holds already was never seen by a watch.
		if (onDir && announce) this.hooks.changed(null);
	}

	/**
	 * The kernel names the dir's own removal by the dir's name, as it names an entry of that name (`/tmp/tmp`):
	 * an entry that is there is an entry.
	 */
	private isOwnEvent(name: string): boolean {
		return name === basename(this.dir) && !existsSync(join(this.dir, name));
	}

	/** On the sources' tick: re-armed when the watcher is gone, the dir appeared or vanished, or it is another dir. */
	recheck(): void {
		this.arm();
	}

	report(): DirWatchReport {
		return {
			dir: this.dir,
			...(this.watching !== undefined && { watching: this.watching }),
			...(this.problem !== undefined && { problem: this.problem }),
		};
	}

	close(): void {
		this.closed = true;
		this.drop();
	}

	private drop(): void {
		if (!this.watcher) return;
		this.watcher.close();
		this.watcher = undefined;
		this.watching = undefined;
		this.identity = undefined;
		this.hooks.counted(-1);
	}
}

/** The dir, or the nearest of its parents that exists, as a directory, with its identity. */
function nearestExisting(dir: string): { path: string; identity: string } | undefined {
	for (let path = dir; ; path = dirname(path)) {
		try {
			// A missing dir is the common case, every re-check: no error object built (and its stack captured) for it.
			const stats = statSync(path, { throwIfNoEntry: false });
			if (stats?.isDirectory()) return { path, identity: `${stats.dev}:${stats.ino}` };
		} catch {
			// Not reachable (ENOTDIR, EACCES): its parent then.
		}
		if (dirname(path) === path) return undefined;
	}
}

/** The name under `parent` on the way down to `dir`. */
function nextName(parent: string, dir: string): string | undefined {
	return relative(parent, dir).split(sep)[0] || undefined;
}

/** The reasons a user can act on, in their words. */
function watchFailure(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	if (code === "ENOSPC") return "the inotify watch limit is reached (raise fs.inotify.max_user_watches)";
	if (code === "EMFILE") return "too many open files (the inotify instance limit: fs.inotify.max_user_instances)";
	if (code === "EACCES" || code === "EPERM") return "permission denied";
	return String(error);
}

/**
 * Several dirs watched alike, each through its nearest parent while it is missing: the dirs a server socket
 * appears in (Neovim's runtime dirs, Emacs's socket dirs). `accepts` says which entries are news.
 */
export class DirWatchers {
	private watches: DirWatch[] = [];

	constructor(
		private readonly accepts: EntryFilter,
		private readonly hooks: DirWatchHooks,
	) {}

	watch(dirs: readonly string[]): void {
		for (const dir of dirs) {
			const watch = new DirWatch(dir, this.accepts, this.hooks);
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
