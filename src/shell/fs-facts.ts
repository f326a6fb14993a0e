import type { BigIntStats, Stats } from "node:fs";
import { lstatSync } from "node:fs";
import { lstat } from "node:fs/promises";
import type { FsFacts, FsObjectKind } from "../core/file-trust.ts";

function kindOf(stats: Stats | BigIntStats): FsObjectKind {
	if (stats.isSymbolicLink()) return "symlink";
	if (stats.isFile()) return "file";
	if (stats.isDirectory()) return "directory";
	if (stats.isFIFO()) return "fifo";
	if (stats.isSocket()) return "socket";
	return "device";
}

export function factsOf(stats: Stats | BigIntStats): FsFacts {
	return { kind: kindOf(stats), uid: Number(stats.uid), mode: Number(stats.mode), size: Number(stats.size) };
}

const MISSING: FsFacts = { kind: "missing", uid: -1, mode: 0, size: 0 };

/** `lstat` that reports a missing path as a fact instead of an error. */
export async function lstatFacts(path: string): Promise<{ facts: FsFacts; ino?: bigint }> {
	try {
		const stats = await lstat(path, { bigint: true });
		return { facts: factsOf(stats), ino: stats.ino };
	} catch (error) {
		// ENOTDIR: a path component is a file, so nothing can exist below it; to the caller that is "missing".
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { facts: MISSING };
		throw error;
	}
}

/**
 * The same on this thread: one `lstat(2)` of a local dir, microseconds, where the thread-pool version wakes a
 * worker each time. The dirs are re-checked every 2 s for as long as pi runs, and on a VM those wake-ups were
 * most of pi-ide-context's idle CPU (measured: three dirs cost ~380 ms per minute more than one).
 */
export function lstatFactsNow(path: string): { facts: FsFacts; ino?: bigint } {
	try {
		const stats = lstatSync(path, { bigint: true });
		return { facts: factsOf(stats), ino: stats.ino };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { facts: MISSING };
		throw error;
	}
}
