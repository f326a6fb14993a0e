import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { hasExited, parseProcStat } from "../core/proc-stat.ts";
import { listeningSockets, socketInode } from "./core/unix-sockets.ts";

/** A Neovim process of this user and the unix socket its server listens on, proven through its own fds. */
export interface FoundNeovim {
	pid: number;
	/** Field 22 of its `/proc/<pid>/stat`: a pid reused by a later process starts at another tick. */
	startTicks: number;
	socket: string;
}

/** What a scan of `/proc` found; undefined when there is no `/proc` (not Linux). */
export interface NeovimScan {
	found: FoundNeovim[];
	/** Neovims of this user with no listening unix socket (yet: 0.7 creates its socket just after its dir). */
	withoutSocket: number[];
}

/** Test-only: a test's pi sees only the Neovims started with the same value in their environment. */
const TEST_SCOPE_KEY = "PI_IDE_TEST_PROC_SCOPE";

/**
 * This user's `nvim` processes and their servers' sockets. A name alone proves nothing: a socket counts only
 * when `/proc/net/unix` lists its inode as listening and that inode is one of the process's own fds, and the
 * path is a socket this uid owns. Start-up waits for the scan, so the names are read the cheapest way
 * measured: `comm` (the kernel writes `stat` much slower) into one buffer, synchronously (500 processes: ~9 ms
 * on a two-core machine; async reads took twice that in wall time, `fs/promises` ten times).
 */
export async function scanForNeovims(uid: number, testScope: string | undefined): Promise<NeovimScan | undefined> {
	let names: string[];
	try {
		names = readdirSync("/proc");
	} catch {
		return undefined;
	}
	const candidates: { pid: number; startTicks: number }[] = [];
	const buffer = Buffer.alloc(COMM_BYTES);
	for (const name of names) {
		if (!/^\d+$/.test(name) || commOf(name, buffer) !== NEOVIM_COMM) continue;
		const procStat = parseProcStat(readQuietly(`/proc/${name}/stat`));
		if (procStat?.name === "nvim" && !hasExited(procStat))
			candidates.push({ pid: Number(name), startTicks: procStat.startTicks });
	}
	if (candidates.length === 0) return { found: [], withoutSocket: [] };
	const table = listeningSockets(await readFile("/proc/net/unix", "utf8").catch(() => ""));
	const found: FoundNeovim[] = [];
	const withoutSocket: number[] = [];
	for (const candidate of candidates) {
		const socket = await ownSocket(candidate.pid, uid, table, testScope);
		if (socket === null) continue;
		if (socket === undefined) withoutSocket.push(candidate.pid);
		else found.push({ ...candidate, socket });
	}
	return { found, withoutSocket };
}

/** Its listening socket's path; undefined when it has none yet; null when it is not this user's (or not in scope). */
async function ownSocket(
	pid: number,
	uid: number,
	table: Map<number, string>,
	testScope: string | undefined,
): Promise<string | null | undefined> {
	const owner = await lstat(`/proc/${pid}`).catch(() => undefined);
	if (owner?.uid !== uid) return null;
	if (testScope !== undefined && !(await inScope(pid, testScope))) return null;
	const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
	const paths: string[] = [];
	for (const fd of fds) {
		const inode = socketInode(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ""));
		const path = inode === undefined ? undefined : table.get(inode);
		if (path !== undefined) paths.push(path);
	}
	for (const path of paths.sort()) {
		const facts = await lstat(path).catch(() => undefined);
		if (facts?.isSocket() && facts.uid === uid) return path;
	}
	return undefined;
}

async function inScope(pid: number, testScope: string): Promise<boolean> {
	const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
	return environ.split("\0").includes(`${TEST_SCOPE_KEY}=${testScope}`);
}

/** `comm` is at most 15 bytes and a newline. */
const COMM_BYTES = 16;
const NEOVIM_COMM = "nvim\n";

function commOf(pid: string, buffer: Buffer): string {
	let fd: number | undefined;
	try {
		fd = openSync(`/proc/${pid}/comm`, "r");
		return buffer.toString("utf8", 0, readSync(fd, buffer, 0, COMM_BYTES, 0));
	} catch {
		return "";
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

function readQuietly(path: string): string {
	try {
		return readFileSync(path, "utf8");
	} catch {
		return "";
	}
}
