import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { join } from "node:path";
import { factsOf } from "../fs-facts.ts";
import { checkFileTrust, MAX_STATE_FILE_BYTES } from "./core/file-trust.ts";
import { type ParseResult, parseStateFile } from "./core/parse.ts";

export type ReadOutcome =
	| { kind: "gone" }
	| { kind: "unchanged" }
	/** Replaced between lstat and open on every try: a newer write is landing, and its event reads it. */
	| { kind: "replaced" }
	/** `signature` is absent when the file could not even be stat-ed: the next event reads it again. */
	| { kind: "read"; signature?: string; writtenAtSeconds?: number; result: ParseResult };

/**
 * Writes landing between lstat and open are normal under a fast editor. After this many tries in a row the
 * reader gives up for now: the state already known stands, and the newest write's event reads it again.
 */
const REPLACED_RETRIES = 3;

// O_NONBLOCK: opening a FIFO planted under a state file's name must never block pi.
// O_NOFOLLOW: a symlink swapped in after the lstat is refused by the kernel.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Read one state file safely: lstat first, skip it when its identity (inode, size, mtime, ctime) is unchanged,
 * open without blocking or following links, check the open descriptor again, read at most the size cap.
 */
export async function readStateFile(
	dir: string,
	fileName: string,
	uid: number,
	previousSignature?: string,
): Promise<ReadOutcome> {
	for (let retries = REPLACED_RETRIES; ; retries--) {
		const outcome = await readStateFileOnce(dir, fileName, uid, previousSignature);
		// An editor's next atomic write landed between lstat and open: that newer file is the one to read.
		if (outcome !== "replaced") return outcome;
		if (retries === 0) return { kind: "replaced" };
	}
}

async function readStateFileOnce(
	dir: string,
	fileName: string,
	uid: number,
	previousSignature: string | undefined,
): Promise<ReadOutcome | "replaced"> {
	const path = join(dir, fileName);
	let stats: Awaited<ReturnType<typeof lstat>>;
	try {
		stats = await lstat(path, { bigint: true });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "gone" };
		return rejected(undefined, `cannot stat: ${errorCode(error)}`);
	}
	const signature = `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.mode}:${stats.uid}`;
	if (signature === previousSignature) return { kind: "unchanged" };
	const writtenAtSeconds = Number(stats.mtimeNs) / 1e9;
	const trust = checkFileTrust(factsOf(stats), uid);
	if (!trust.ok) return rejected(signature, trust.reason, writtenAtSeconds);

	let handle: Awaited<ReturnType<typeof open>> | undefined;
	try {
		handle = await open(path, OPEN_FLAGS);
		const opened = await handle.stat({ bigint: true });
		if (opened.ino !== stats.ino || !opened.isFile()) return "replaced";
		const bytes = await readCapped(handle, Number(opened.size));
		if (bytes === undefined) {
			return rejected(
				signature,
				`grew past the ${MAX_STATE_FILE_BYTES}-byte limit for a state file while being read`,
				writtenAtSeconds,
			);
		}
		return { kind: "read", signature, writtenAtSeconds, result: parseStateFile(fileName, bytes) };
	} catch (error) {
		const code = errorCode(error);
		if (code === "ENOENT") return { kind: "gone" };
		const reason = code === "ELOOP" ? "a symlink, not a regular file" : `cannot read: ${code}`;
		return rejected(signature, reason, writtenAtSeconds);
	} finally {
		await handle?.close().catch(() => {});
	}
}

async function readCapped(
	handle: Awaited<ReturnType<typeof open>>,
	expectedSize: number,
): Promise<Uint8Array | undefined> {
	// One byte of headroom tells "exactly at the cap" from "over it" when the file grows under us.
	let buffer = Buffer.allocUnsafe(Math.min(expectedSize, MAX_STATE_FILE_BYTES) + 1);
	let length = 0;
	for (;;) {
		if (length === buffer.length) {
			if (buffer.length > MAX_STATE_FILE_BYTES) return undefined;
			const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, MAX_STATE_FILE_BYTES + 1));
			buffer.copy(grown, 0, 0, length);
			buffer = grown;
		}
		const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
		if (bytesRead === 0) break;
		length += bytesRead;
	}
	return length > MAX_STATE_FILE_BYTES ? undefined : buffer.subarray(0, length);
}

const rejected = (signature: string | undefined, reason: string, writtenAtSeconds?: number): ReadOutcome => ({
	kind: "read",
	signature,
	...(writtenAtSeconds !== undefined && { writtenAtSeconds }),
	result: { ok: false, reason },
});

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);
