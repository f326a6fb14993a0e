import { guarded } from "../../shared/background.ts";
import type { Cancel, Clock } from "../../shared/core/clock.ts";
import { TRAILING_READ_MS } from "../../shared/core/timing.ts";
import { EditorPathsCache } from "../real-paths.ts";

/** Reads in flight at once: thousands of stale files at start-up must not exhaust file descriptors. */
const MAX_CONCURRENT_READS = 16;

/** One file's reads: what the last one saw, the one in flight, the trailing one due, its paths resolved. */
export interface FileTrack {
	signature?: string;
	reading?: Promise<void>;
	/** An event came during the read in flight: it goes round once more. */
	dirty: boolean;
	/** Cancels the trailing re-read that is due. */
	trailing?: Cancel;
	paths: EditorPathsCache;
}

export interface ReadScheduleHooks {
	/** The trailing re-read's timer. */
	clock: Clock;
	/** One read of the file; it may mark the track dirty to go round again. */
	readOnce: (fileName: string, track: FileTrack) => Promise<void>;
	/** Whether the dir's entries hold the file: a file that left none leaves no track either. */
	kept: (fileName: string) => boolean;
	/** A file's reads are done for now: none in flight, no trailing re-read due. */
	settled?: (fileName: string) => void;
	onError?: (message: string) => void;
}

/**
 * When each file of a state dir is read: one read at a time per file, an event during one sends it round again
 * (the latest write wins), a trailing re-read after an event (chokidar drops the last change of a burst), and
 * at most 16 reads in flight across the dir.
 */
export class ReadSchedule {
	private readonly tracks = new Map<string, FileTrack>();
	private closed = false;
	private activeReads = 0;
	private readonly readQueue: (() => void)[] = [];

	constructor(private readonly hooks: ReadScheduleHooks) {}

	/** The file has a track: read, being read, or due. */
	has(fileName: string): boolean {
		return this.tracks.has(fileName);
	}

	schedule(fileName: string, withTrailingRead: boolean): Promise<void> {
		if (this.closed) return Promise.resolve();
		let track = this.tracks.get(fileName);
		if (!track) {
			track = { dirty: false, paths: new EditorPathsCache() };
			this.tracks.set(fileName, track);
		}
		if (withTrailingRead) {
			const current = track;
			current.trailing?.();
			current.trailing = this.hooks.clock.after(TRAILING_READ_MS, () => {
				current.trailing = undefined;
				void this.readNow(fileName, current);
			});
		}
		return this.readNow(fileName, track);
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

	/** The file was removed: a read in flight may have seen it before it went; it looks again rather than resurrect it. */
	unlinked(fileName: string): void {
		const track = this.tracks.get(fileName);
		if (track?.reading) track.dirty = true;
		else this.tracks.delete(fileName);
	}

	/** The file's entry is dropped: no trailing re-read brings it back. */
	cancelTrailing(fileName: string): void {
		const track = this.tracks.get(fileName);
		if (track) {
			track.trailing?.();
			track.trailing = undefined;
		}
	}

	/** Nothing more is read or due; resolves once the reads in flight are done. */
	close(): Promise<void> {
		this.closed = true;
		for (const track of this.tracks.values()) track.trailing?.();
		for (const release of this.readQueue.splice(0)) release();
		return Promise.all([...this.tracks.values()].map((track) => track.reading)).then(() => undefined);
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
				await this.withReadSlot(() => this.hooks.readOnce(fileName, track));
			} while (track.dirty && !this.closed);
		})()
			.catch((error: unknown) => this.hooks.onError?.(`reading ${fileName} failed: ${String(error)}`))
			.finally(
				guarded("state-dir read settled", () => {
					track.reading = undefined;
					if (track.trailing || this.closed) return;
					// Vanished files leave no bookkeeping behind: editors come and go for as long as pi runs.
					if (!this.hooks.kept(fileName) && this.tracks.get(fileName) === track) this.tracks.delete(fileName);
					this.hooks.settled?.(fileName);
				}),
			);
		return track.reading;
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
