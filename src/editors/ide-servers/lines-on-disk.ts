import { constants } from "node:fs";
import { open as openFile } from "node:fs/promises";

/** A file counted on disk for its lines when the server does not say (JetBrains): up to this size. */
const MAX_COUNTED_BYTES = 8 * 1024 * 1024;

/** The lines of a file on disk (a last line without a newline counts), read only when small enough. */
export async function countLinesOnDisk(file: string): Promise<number | undefined> {
	// Non-blocking: a FIFO under that name never holds a thread of libuv's.
	const handle = await openFile(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
	if (!handle) return undefined;
	try {
		const facts = await handle.stat();
		if (!facts.isFile() || facts.size > MAX_COUNTED_BYTES) return undefined;
		const text = await handle.readFile();
		let lines = 0;
		for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lines++;
		return text.length > 0 && text[text.length - 1] !== 10 ? lines + 1 : lines;
	} finally {
		await handle.close();
	}
}
