import { lstat } from "node:fs/promises";
import { listeningUnixSocketTable } from "../processes/proc-files.ts";
import { isOwnInScope, listeningPathsOf, processesNamed } from "../processes/process-scan.ts";

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

const NEOVIM_NAME = "nvim";

/**
 * This user's `nvim` processes and their servers' sockets. A name alone proves nothing: a socket counts only
 * when `/proc/net/unix` lists its inode as listening and that inode is one of the process's own fds, and the
 * path is a socket this uid owns. Start-up waits for the scan, so names come from `comm` first (500
 * processes: ~9 ms on a two-core machine) and details only for the processes named `nvim`.
 */
export async function scanForNeovims(uid: number, testScope: string | undefined): Promise<NeovimScan | undefined> {
	const candidates = processesNamed((name) => name === NEOVIM_NAME);
	if (candidates === undefined) return undefined;
	if (candidates.length === 0) return { found: [], withoutSocket: [] };
	const table = await listeningUnixSocketTable();
	const found: FoundNeovim[] = [];
	const withoutSocket: number[] = [];
	for (const candidate of candidates) {
		if (!(await isOwnInScope(candidate.pid, uid, testScope))) continue;
		const socket = await ownSocket(candidate.pid, uid, table);
		if (socket === undefined) withoutSocket.push(candidate.pid);
		else found.push({ ...candidate, socket });
	}
	return { found, withoutSocket };
}

/** Its listening socket's path (a socket this uid owns); undefined when it has none yet. */
async function ownSocket(pid: number, uid: number, table: ReadonlyMap<number, string>): Promise<string | undefined> {
	for (const path of (await listeningPathsOf(pid, table)).sort()) {
		const facts = await lstat(path).catch(() => undefined);
		if (facts?.isSocket() && facts.uid === uid) return path;
	}
	return undefined;
}
