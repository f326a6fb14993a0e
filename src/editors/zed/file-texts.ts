import { readFile, stat } from "node:fs/promises";

export interface ChangedFilesOptions<T> {
	/** A file larger than this is not read (undefined). */
	maxFileBytes: number;
	/** What the cache may hold in all, by `bytesHeld`: the least recently read go first. */
	cacheBudgetBytes: number;
	parse: (bytes: Buffer) => T;
	bytesHeld: (value: T) => number;
}

/**
 * Files read as pi needs them on each Zed read (the shown file for positions, settings files), each kept as
 * what `parse` made of it and read again only when its size or mtime moved. A missing, non-regular,
 * unreadable or too large file is undefined.
 */
export class ChangedFiles<T> {
	private readonly cache = new Map<string, { signature: string; value: T; bytes: number }>();
	private heldBytes = 0;

	constructor(private readonly options: ChangedFilesOptions<T>) {}

	async read(path: string): Promise<T | undefined> {
		try {
			const stats = await stat(path);
			if (!stats.isFile() || stats.size > this.options.maxFileBytes) return undefined;
			const signature = `${stats.size}:${stats.mtimeMs}`;
			const cached = this.cache.get(path);
			if (cached?.signature === signature) {
				// Read again: the most recently used, kept longest.
				this.cache.delete(path);
				this.cache.set(path, cached);
				return cached.value;
			}
			const bytes = await readFile(path);
			// It grew between the stat and the read.
			if (bytes.length > this.options.maxFileBytes) return undefined;
			const value = this.options.parse(bytes);
			this.keep(path, { signature, value, bytes: this.options.bytesHeld(value) });
			return value;
		} catch {
			return undefined;
		}
	}

	/** What the cache holds now, by `bytesHeld`. */
	get cachedBytes(): number {
		return this.heldBytes;
	}

	private keep(path: string, entry: { signature: string; value: T; bytes: number }): void {
		const old = this.cache.get(path);
		if (old) {
			this.cache.delete(path);
			this.heldBytes -= old.bytes;
		}
		if (entry.bytes > this.options.cacheBudgetBytes) return;
		this.cache.set(path, entry);
		this.heldBytes += entry.bytes;
		for (const [oldest, { bytes }] of this.cache) {
			if (this.heldBytes <= this.options.cacheBudgetBytes) break;
			this.cache.delete(oldest);
			this.heldBytes -= bytes;
		}
	}
}

/** A small text file, read as UTF-8 (a JS string holds about two bytes a character at most). */
export function changedFileTexts(maxFileBytes: number, cacheBudgetBytes: number): ChangedFiles<string> {
	return new ChangedFiles({
		maxFileBytes,
		cacheBudgetBytes,
		parse: (bytes) => bytes.toString("utf8"),
		bytesHeld: (text) => 2 * text.length,
	});
}
