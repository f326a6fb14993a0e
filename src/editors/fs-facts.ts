import type { BigIntStats, Stats } from "node:fs";
import { lstatSync, statSync } from "node:fs";
import { lstat } from "node:fs/promises";
import type { FsFacts, FsObjectKind } from "./core/path-trust.ts";

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
		return missingOrThrow(error);
	}
}

/**
 * The same on this thread: one `lstat(2)` of a local dir takes microseconds, where the thread-pool version
 * wakes a worker for it, and the dirs are re-checked every 2 s for as long as pi runs.
 */
export function lstatFactsNow(path: string): { facts: FsFacts; ino?: bigint } {
	try {
		// A missing side dir is the common case, every 2 s: no error object built (and its stack captured) for it.
		const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
		if (stats === undefined) return { facts: MISSING };
		return { facts: factsOf(stats), ino: stats.ino };
	} catch (error) {
		return missingOrThrow(error);
	}
}

// ENOTDIR: a path component is a file, so nothing can exist below it; to the caller that is "missing".
function missingOrThrow(error: unknown): { facts: FsFacts } {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT" || code === "ENOTDIR") return { facts: MISSING };
	throw error;
}

/** A file's stats (symlinks followed), or undefined when it is not there or not readable. */
export function statOf(file: string): BigIntStats | undefined {
	try {
		return statSync(file, { bigint: true });
	} catch {
		return undefined;
	}
}
