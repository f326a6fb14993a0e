import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { factsOf, lstatFacts } from "../fs-facts.ts";
import { pidReused } from "../processes/core/pid-reuse.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";
import type { LockDirPlan } from "./core/lock-dirs.ts";
import { type Lockfile, MAX_LOCKFILE_BYTES, parseLockfile, portOfLockName } from "./core/lockfile.ts";
import { checkLockDirTrust, checkLockfileTrust } from "./core/lockfile-trust.ts";

/** One `<port>.lock` as pi read it: the lockfile and the process proven to hold its port, or why not. */
export interface ReadLock {
	plan: LockDirPlan;
	name: string;
	port: number;
	lockfile?: Lockfile;
	/** The process whose own fds hold the listening socket, and when it started (a reused pid is another process). */
	holder?: { pid: number; startSeconds: number };
	unused?: string;
	/** The file's mtime (unix seconds) and inode: a rewrite (a new token) is a new lockfile. */
	writtenAtSeconds?: number;
	identity?: string;
}

export interface LockDirRead {
	plan: LockDirPlan;
	verdict: string;
	locks: ReadLock[];
}

/** Lockfiles read per dir at most: an editor writes one per window; more is a dir filling up. */
const MAX_LOCKS_PER_DIR = 64;

/**
 * Every lockfile of a lock dir the user owns and nobody else can write, each checked (core/lockfile-trust.ts),
 * parsed (core/lockfile.ts) and proven by the port's owner: a port of another user, or of nothing, is never
 * spoken to. pi never writes, changes or deletes a lockfile.
 */
export async function readLockDir(
	plan: LockDirPlan,
	uid: number,
	known: readonly ReadLock[],
	facts: LockFacts,
): Promise<LockDirRead> {
	const dir = await lstatFacts(plan.path);
	const trust = checkLockDirTrust(plan.path, dir.facts, uid);
	if (!trust.ok) return { plan, verdict: trust.reason, locks: [] };
	const names = (await readdir(plan.path).catch(() => [] as string[]))
		.filter((name) => portOfLockName(name) !== undefined)
		.sort()
		.slice(0, MAX_LOCKS_PER_DIR);
	if (names.length === 0) return { plan, verdict: "trusted; no lockfiles", locks: [] };
	const locks = await Promise.all(
		names.map((name) =>
			readLock(
				plan,
				name,
				uid,
				facts,
				known.find((lock) => lock.name === name),
			),
		),
	);
	return { plan, verdict: `trusted; ${locks.length} lockfiles`, locks };
}

async function readLock(
	plan: LockDirPlan,
	name: string,
	uid: number,
	facts: LockFacts,
	known: ReadLock | undefined,
): Promise<ReadLock> {
	const port = portOfLockName(name) as number;
	const read = await readLockText(join(plan.path, name), uid);
	// The same file as last read, its holder still running and listening: proven already (a scan saved).
	const { holder: knownHolder } = known ?? {};
	if (knownHolder && known?.identity === read.identity && facts.runsNow(knownHolder.pid, knownHolder.startSeconds))
		if ((await facts.stillHeldBy(port, knownHolder.pid, uid)) === undefined) return known as ReadLock;
	const base = {
		plan,
		name,
		port,
		...(read.identity && { identity: read.identity, writtenAtSeconds: read.writtenAtSeconds }),
	};
	if (read.text === undefined) return { ...base, unused: read.reason };
	const parsed = parseLockfile(port, read.text);
	if (!parsed.ok) return { ...base, unused: parsed.reason };
	const lockfile = parsed.lockfile;
	const withLock = { ...base, lockfile };
	if (lockfile.pid !== undefined) {
		if (!facts.runsNow(lockfile.pid))
			return { ...withLock, unused: `dead pid ${lockfile.pid} (a lockfile left behind)` };
		const started = await facts.startOf(lockfile.pid);
		if (read.writtenAtSeconds !== undefined && pidReused(started, read.writtenAtSeconds))
			return { ...withLock, unused: `pid ${lockfile.pid} was reused (it started after the lockfile was written)` };
	}
	const holder = await facts.portHolder(port, lockfile.pid, uid);
	return typeof holder === "string" ? { ...withLock, unused: holder } : { ...withLock, holder };
}

/** The file's text, opened without following a link and checked on the open handle, or why not. */
async function readLockText(
	path: string,
	uid: number,
): Promise<{ text?: string; reason?: string; writtenAtSeconds?: number; identity?: string }> {
	const first = await lstatFacts(path);
	const linked = checkLockfileTrust(first.facts, uid);
	if (!linked.ok) return { reason: linked.reason };
	const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
		() => undefined,
	);
	if (!handle) return { reason: "cannot be opened" };
	try {
		const stats = await handle.stat({ bigint: true });
		const trust = checkLockfileTrust(factsOf(stats), uid);
		const identity = `${stats.dev}:${stats.ino}:${stats.mtimeNs}`;
		const writtenAtSeconds = Number(stats.mtimeMs) / 1000;
		if (!trust.ok) return { reason: trust.reason, identity, writtenAtSeconds };
		const buffer = Buffer.alloc(MAX_LOCKFILE_BYTES + 1);
		const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
		if (bytesRead > MAX_LOCKFILE_BYTES) return { reason: "grew over the lockfile limit while read", identity };
		return { text: buffer.subarray(0, bytesRead).toString("utf8"), identity, writtenAtSeconds };
	} finally {
		await handle.close();
	}
}

/** What reading a lock dir asks of the system's processes. */
export type LockFacts = Pick<ProcessFacts, "runsNow" | "startOf" | "portHolder" | "stillHeldBy">;
