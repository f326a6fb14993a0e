import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { factsOf, lstatFacts } from "../fs-facts.ts";
import { pidReused } from "../processes/core/pid-reuse.ts";
import type { TcpListener } from "../processes/core/proc-net.ts";
import { hasExited } from "../processes/core/proc-stat.ts";
import { processStartSeconds } from "../processes/liveness.ts";
import {
	descendantsOf,
	listeningTcpTable,
	ownerOf,
	processIds,
	procStatOf,
	socketInodesOf,
} from "../processes/proc-files.ts";
import type { LockDirPlan } from "./core/lock-dirs.ts";
import { type Lockfile, MAX_LOCKFILE_BYTES, parseLockfile, portOfLockName } from "./core/lockfile.ts";
import { checkLockDirTrust, checkLockfileTrust, checkPortListeners } from "./core/lockfile-trust.ts";

/** One `<port>.lock` as pi read it: the lockfile and the process proven to hold its port, or why not. */
export interface ReadLock {
	plan: LockDirPlan;
	name: string;
	port: number;
	lockfile?: Lockfile;
	/** The process whose own fds hold the listening socket, and when it started (a reused pid is another process). */
	holder?: { pid: number; startTicks: number };
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
export async function readLockDir(plan: LockDirPlan, uid: number, known: readonly ReadLock[]): Promise<LockDirRead> {
	const dir = await lstatFacts(plan.path);
	const trust = checkLockDirTrust(plan.path, dir.facts, uid);
	if (!trust.ok) return { plan, verdict: trust.reason, locks: [] };
	const names = (await readdir(plan.path).catch(() => [] as string[]))
		.filter((name) => portOfLockName(name) !== undefined)
		.sort()
		.slice(0, MAX_LOCKS_PER_DIR);
	if (names.length === 0) return { plan, verdict: "trusted; no lockfiles", locks: [] };
	const listeners = await listeningTcpTable();
	const locks = await Promise.all(
		names.map(async (name) => {
			const read = await readLock(
				plan,
				name,
				uid,
				listeners,
				known.find((lock) => lock.name === name),
			);
			return read;
		}),
	);
	return { plan, verdict: `trusted; ${locks.length} lockfiles`, locks };
}

async function readLock(
	plan: LockDirPlan,
	name: string,
	uid: number,
	listeners: TcpListener[],
	known: ReadLock | undefined,
): Promise<ReadLock> {
	const port = portOfLockName(name) as number;
	const read = await readLockText(join(plan.path, name), uid);
	// The same file as last read, its holder still running and listening: proven already (a scan of /proc saved).
	if (known?.holder && known.identity === read.identity && holderRunning(known.holder)) {
		const onPort = listeners.filter((listener) => listener.port === port);
		if (checkPortListeners(port, onPort, uid).ok) return known;
	}
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
		const stat = procStatOf(lockfile.pid);
		if (!stat || hasExited(stat)) return { ...withLock, unused: `dead pid ${lockfile.pid} (a lockfile left behind)` };
		if (read.writtenAtSeconds !== undefined && pidReused(processStartSeconds(lockfile.pid), read.writtenAtSeconds))
			return { ...withLock, unused: `pid ${lockfile.pid} was reused (it started after the lockfile was written)` };
	}
	const holder = await portHolder(port, lockfile.pid, uid, listeners);
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

/**
 * The process holding the listening socket of `port`, found among the fds of the lockfile's pid and its
 * descendants (VS Code's extension host is a child of the pid it writes), else of every process of the user.
 */
async function portHolder(
	port: number,
	lockPid: number | undefined,
	uid: number,
	listeners: TcpListener[],
): Promise<{ pid: number; startTicks: number } | string> {
	const onPort = listeners.filter((listener) => listener.port === port);
	const trust = checkPortListeners(port, onPort, uid);
	if (!trust.ok) return trust.reason;
	const inodes = new Set(onPort.map((listener) => listener.inode));
	const near = lockPid === undefined ? [] : [lockPid, ...descendantsOf(lockPid)];
	for (const candidates of [near, processIds() ?? []]) {
		for (const pid of candidates) {
			if ((await ownerOf(pid)) !== uid) continue;
			if (!(await socketInodesOf(pid)).some((inode) => inodes.has(inode))) continue;
			const stat = procStatOf(pid);
			if (stat && !hasExited(stat)) return { pid, startTicks: stat.startTicks };
		}
	}
	return `no process of yours holds port ${port}'s socket`;
}

/** The process that held a port still runs (not exited, its pid not reused). */
export function holderRunning(holder: { pid: number; startTicks: number }): boolean {
	const stat = procStatOf(holder.pid);
	return stat !== undefined && !hasExited(stat) && stat.startTicks === holder.startTicks;
}

/** Whether the port is still listened on by this user's socket of `holderPid`: checked again after connecting. */
export async function stillHeldBy(port: number, holderPid: number, uid: number): Promise<string | undefined> {
	const onPort = (await listeningTcpTable()).filter((listener) => listener.port === port);
	const trust = checkPortListeners(port, onPort, uid);
	if (!trust.ok) return trust.reason;
	const inodes = new Set(onPort.map((listener) => listener.inode));
	return (await socketInodesOf(holderPid)).some((inode) => inodes.has(inode))
		? undefined
		: `pid ${holderPid} no longer holds port ${port}`;
}
