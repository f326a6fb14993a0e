import { readFile, stat } from "node:fs/promises";

/** At most this many files' texts are kept: a Zed session touches a few, never thousands. */
const MAX_CACHED_FILES = 64;

/**
 * Small text files read as pi needs them on each Zed read (the shown file's text for positions, settings
 * files), read again only when their size or mtime moved. A missing, non-regular, unreadable or too large
 * file is undefined.
 */
export class ChangedFileTexts {
	private readonly cache = new Map<string, { signature: string; text: string | undefined }>();

	constructor(
		private readonly maxBytes: number,
		private readonly transform: (text: string) => string = (text) => text,
	) {}

	async text(path: string): Promise<string | undefined> {
		try {
			const stats = await stat(path);
			if (!stats.isFile() || stats.size > this.maxBytes) return undefined;
			const signature = `${stats.size}:${stats.mtimeMs}`;
			const cached = this.cache.get(path);
			if (cached?.signature === signature) return cached.text;
			const text = this.transform(await readFile(path, "utf8"));
			this.cache.set(path, { signature, text });
			if (this.cache.size > MAX_CACHED_FILES) this.cache.delete(this.cache.keys().next().value as string);
			return text;
		} catch {
			return undefined;
		}
	}
}
