import { lstat, readdir } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { type FSWatcher, watch } from "chokidar";
import { guarded } from "../../shared/background.ts";
import type { Cancel, Clock } from "../../shared/core/clock.ts";
import { TRAILING_READ_MS } from "../../shared/core/timing.ts";
import type { StateFileEntry } from "../core/editor.ts";
import { EditorPathsCache } from "../real-paths.ts";
import { classifyFileName, stateFileLines } from "./core/parse.ts";
import { readStateFile } from "./file-reader.ts";

/** Reads in flight at once: thousands of stale files at start-up must not exhaust file descriptors. */
const MAX_CONCURRENT_READS = 16;

export interface StateWatcherOptions {
	dir: string;
	uid: number;
	/** Files of dead editors are not read at all: checked from the name, they cost one `kill(pid, 0)`. */
	isAlive: (pid: number) => boolean;
	/** The trailing re-read's timer, and when a reading was taken. */
	clock: Clock;
	/** Called after any entry changed; may be called often, so the receiver coalesces. */
	onChange: () => void;
	/**
	 * A file's reads are done for now: no read in flight and no trailing re-read due. What it holds then is
	 * what the editor last wrote, so a rejection seen here is news (a torn write followed at once by the
	 * completed one never is).
	 */
	onSettled?: (fileName: string) => void;
	onError?: (message: string) => void;
	/**
	 * Also act on the raw fs.watch events under chokidar (default true). Off, convergence rests on the
	 * trailing re-read alone, as on platforms whose native watcher coalesces events; the tests prove both.
	 */
	rawEvents?: boolean;
}

interface FileTrack {
	signature?: string;
	reading?: Promise<void>;
	dirty: boolean;
	/** Cancels the trailing re-read that is due. */
	trailing?: Cancel;
	paths: EditorPathsCache;
}

/** Keeps `entries` equal to what the state dir holds: pid files read, validated and resolved. */
export class StateWatcher {
	readonly entries = new Map<string, StateFileEntry>();
	/** The watched dir itself was removed: this watcher sees nothing more and must be replaced. */
	lost = false;
	/** chokidar's first scan is done: from now on a name comes from an event, not from the listing. */
	private listed = false;
	private readonly tracks = new Map<string, FileTrack>();
	private watcher?: FSWatcher;
	private closed = false;
	private activeReads = 0;
	private readonly readQueue: (() => void)[] = [];
	private readonly dir: string;

	constructor(private readonly options: StateWatcherOptions) {
		this.dir = resolve(options.dir);
	}

	/** Resolves once the initial scan is done and every file found by it has been read. */
	async start(): Promise<void> {
		if (this.watcher) throw new Error("StateWatcher.start called twice");
		const watcher = watch(this.dir, {
			depth: 0,
			persistent: true,
			ignoreInitial: false,
			// Report symlinks themselves (even dangling ones) so they are rejected with a reason, never followed.
			followSymlinks: false,
			// Files of dead pids are skipped before chokidar stats them: thousands of stale files cost one
			// kill(pid, 0) each at start. A later write re-asks (the pid may be reused), and the raw event
			// and the listing below still name them, so /ide status shows them as dead.
			ignored: (path: string) => path !== this.dir && !this.isWatchedName(basename(path)),
		});
		this.watcher = watcher;
		const initialReads: Promise<void>[] = [];
		let ready = false;
		const onFile = guarded("state-dir watch", (path: string) => {
			const read = this.schedule(basename(path), ready);
			if (!ready) initialReads.push(read);
		});
		watcher.on("add", onFile);
		watcher.on("change", onFile);
		watcher.on(
			"unlink",
			guarded("state-dir watch", (path: string) => this.onUnlink(basename(path))),
		);
		watcher.on(
			"addDir",
			guarded("state-dir watch", (path: string) => {
				if (resolve(path) === this.dir) return;
				this.entries.set(basename(path), { fileName: basename(path), rejection: "a directory, not a regular file" });
				this.options.onChange();
			}),
		);
		watcher.on(
			"unlinkDir",
			guarded("state-dir watch", (path: string) => {
				if (resolve(path) !== this.dir) return this.onUnlink(basename(path));
				// chokidar stops watching a removed root, and a recreated dir can even get the same inode number.
				this.lost = true;
				for (const fileName of [...this.entries.keys()]) this.onUnlink(fileName);
			}),
		);
		// chokidar drops entries it cannot stat (a dangling symlink); the raw event still names them, and
		// reading such a name ends in a rejection with a reason. An unchanged file costs one lstat here.
		watcher.on(
			"raw",
			guarded("state-dir watch", (_event: unknown, name: unknown, details: unknown) => {
				const watchedPath = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
				if (!ready || this.options.rawEvents === false || typeof name !== "string") return;
				if (typeof watchedPath !== "string" || resolve(watchedPath) !== this.dir) return;
				if (classifyFileName(name).kind !== "ignored") void this.schedule(name, true);
			}),
		);
		watcher.on("error", (error: unknown) => this.options.onError?.(`watcher error: ${String(error)}`));
		await new Promise<void>((done) => watcher.once("ready", () => done()));
		ready = true;
		this.listed = true;
		// The same names chokidar's initial scan skipped: one listing at start, never a polling loop.
		for (const name of await readdir(this.dir).catch(() => [] as string[])) {
			if (!this.tracks.has(name) && classifyFileName(name).kind !== "ignored")
				initialReads.push(this.schedule(name, false));
		}
		await Promise.all(initialReads);
	}

	/** Idempotent; waits for reads in flight so nothing touches the entries after it returns. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		for (const track of this.tracks.values()) track.trailing?.();
		for (const release of this.readQueue.splice(0)) release();
		const reads = [...this.tracks.values()].map((track) => track.reading);
		await this.watcher?.close().catch(() => {});
		await Promise.all(reads);
	}

	/** Run pending re-reads now and wait for them: the prompt path uses this to see a write that just landed. */
	async flush(fileName: string): Promise<void> {
		const track = this.tracks.get(fileName);
		if (!track) return;
		if (track.trailing) {
			track.trailing();
			track.trailing = undefined;
			await this.readNow(fileName, track);
		} else {
			await track.reading;
		}
	}

	/** True while a read of the file is in flight or a trailing re-read is due. */
	isPending(fileName: string): boolean {
		const track = this.tracks.get(fileName);
		return track !== undefined && (track.reading !== undefined || track.trailing !== undefined);
	}

	private isWatchedName(fileName: string): boolean {
		const name = classifyFileName(fileName);
		return name.kind === "rejected" || (name.kind === "state" && this.options.isAlive(name.pid));
	}

	private schedule(fileName: string, withTrailingRead: boolean): Promise<void> {
		if (this.closed) return Promise.resolve();
		let track = this.tracks.get(fileName);
		if (!track) {
			track = { dirty: false, paths: new EditorPathsCache() };
			this.tracks.set(fileName, track);
		}
		if (withTrailingRead) {
			const current = track;
			current.trailing?.();
			current.trailing = this.options.clock.after(TRAILING_READ_MS, () => {
				current.trailing = undefined;
				void this.readNow(fileName, current);
			});
		}
		return this.readNow(fileName, track);
	}

	/** One read at a time per file; an event during a read marks it dirty and the read loops, so the latest write wins. */
	private readNow(fileName: string, track: FileTrack): Promise<void> {
		if (track.reading) {
			track.dirty = true;
			return track.reading;
		}
		track.reading = (async () => {
			do {
				track.dirty = false;
				await this.withReadSlot(() => this.readOnce(fileName, track));
			} while (track.dirty && !this.closed);
		})()
			.catch((error: unknown) => this.options.onError?.(`reading ${fileName} failed: ${String(error)}`))
			.finally(
				guarded("state-dir read settled", () => {
					track.reading = undefined;
					if (track.trailing || this.closed) return;
					// Vanished files leave no bookkeeping behind: editors come and go for as long as pi runs.
					if (!this.entries.has(fileName) && this.tracks.get(fileName) === track) this.tracks.delete(fileName);
					this.options.onSettled?.(fileName);
				}),
			);
		return track.reading;
	}

	private async readOnce(fileName: string, track: FileTrack): Promise<void> {
		if (this.closed) return;
		const name = classifyFileName(fileName);
		if (name.kind === "state" && !this.options.isAlive(name.pid)) {
			// Stale files of killed editors are common; reading them is wasted work. A write re-checks.
			// An event for a dead pid's file after the first listing is most likely its removal (an editor
			// that removed its file and exited; chokidar ignores dead pids' files, so only the raw event
			// tells): only then ask whether it still exists, so a removed file leaves no entry behind.
			const afterListing = this.listed || this.entries.has(fileName);
			if (afterListing && !(await exists(join(this.dir, fileName)))) return this.drop(fileName);
			if (this.closed) return;
			this.update(fileName, { fileName, deadPid: name.pid });
			track.signature = undefined;
			return;
		}
		const outcome = await readStateFile(this.dir, fileName, this.options.uid, track.signature);
		if (this.closed || outcome.kind === "unchanged") return;
		// Not a rejection: the entry keeps the previous state, and the read goes round once more for the newest.
		if (outcome.kind === "replaced") {
			track.dirty = true;
			return;
		}
		if (outcome.kind === "gone") return this.drop(fileName);
		track.signature = outcome.signature;
		const { result, writtenAtSeconds } = outcome;
		const written = writtenAtSeconds === undefined ? {} : { writtenAtSeconds };
		const known = this.entries.get(fileName);
		if (!result.ok) {
			// The guard keeps covering what the editor last validly said was unsaved (a torn write, say).
			const lastValid = known?.reading ?? known?.lastValid;
			return this.update(fileName, { fileName, rejection: result.reason, ...written, ...(lastValid && { lastValid }) });
		}
		const before = known?.reading;
		const keptUnsaved = (before ?? known?.lastValid)?.unsavedFiles;
		const paths = await track.paths.pathsOf(result.state);
		if (this.closed) return;
		const selectedAt = result.state.active_buffer?.selection?.selected_at;
		const sameSelection =
			before !== undefined &&
			before.pid === result.pid &&
			before.state.active_buffer?.selection?.selected_at === selectedAt;
		this.update(fileName, {
			fileName,
			...written,
			...(result.dropped && { dropped: result.dropped }),
			reading: {
				origin: "state-file",
				writtenAtSeconds: writtenAtSeconds ?? this.options.clock.nowSeconds(),
				pid: result.pid,
				state: result.state,
				paths,
				selectionFirstSeenSeconds: sameSelection ? before.selectionFirstSeenSeconds : this.options.clock.nowSeconds(),
				...(result.state.unsaved_files && { unsavedFiles: result.state.unsaved_files }),
				...stateFileLines(result.state.active_buffer?.selection),
				// No list at all where one should be: what the editor said before still stands for the guard.
				...(result.unsavedFilesMalformed && keptUnsaved && { unsavedFiles: keptUnsaved }),
			},
		});
	}

	private update(fileName: string, entry: StateFileEntry): void {
		if (this.closed) return;
		this.entries.set(fileName, entry);
		this.options.onChange();
	}

	private onUnlink(fileName: string): void {
		const track = this.tracks.get(fileName);
		// A read in flight may have seen the file before it went; make it look again rather than resurrect it.
		if (track?.reading) track.dirty = true;
		else this.tracks.delete(fileName);
		this.drop(fileName);
	}

	private drop(fileName: string): void {
		const track = this.tracks.get(fileName);
		if (track) {
			track.trailing?.();
			track.trailing = undefined;
		}
		if (this.entries.delete(fileName)) this.options.onChange();
	}

	private async withReadSlot<T>(work: () => Promise<T>): Promise<T> {
		if (this.activeReads >= MAX_CONCURRENT_READS) await new Promise<void>((release) => this.readQueue.push(release));
		this.activeReads++;
		try {
			return await work();
		} finally {
			this.activeReads--;
			this.readQueue.shift()?.();
		}
	}
}

const exists = (path: string) =>
	lstat(path).then(
		() => true,
		() => false,
	);
