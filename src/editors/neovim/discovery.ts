import { lstat } from "node:fs/promises";
import type { ProcessFacts } from "../processes/process-facts.ts";

/** A Neovim process of this user and the unix socket its server listens on, proven through its own fds. */
export interface FoundNeovim {
	pid: number;
	/** When it started (unix seconds): a pid reused by a later process started later. */
	startSeconds: number;
	socket: string;
}

/** What a scan found; undefined when the system cannot be asked about processes (the reason is in the facts' status). */
export interface NeovimScan {
	found: FoundNeovim[];
	/** Neovims of this user with no listening unix socket (yet: 0.7 creates its socket just after its dir). */
	withoutSocket: number[];
}

const NEOVIM_NAME = "nvim";

/** What a scan for Neovims asks of the system's processes. */
export type NeovimFacts = Pick<ProcessFacts, "named" | "listeningUnixPaths">;

/**
 * This user's `nvim` processes and their servers' sockets. A name alone proves nothing: a socket counts only
 * when the process itself listens on it (its own fds: `/proc`, or `lsof -p`), and the path is a socket this uid
 * owns. Names come from one cheap listing first, details only for the processes named `nvim`.
 */
export async function scanForNeovims(
	uid: number,
	testScope: string | undefined,
	facts: NeovimFacts,
): Promise<NeovimScan | undefined> {
	const candidates = await facts.named((name) => name === NEOVIM_NAME, uid, testScope);
	if (typeof candidates === "string") return undefined;
	if (candidates.length === 0) return { found: [], withoutSocket: [] };
	const { byPid } = await facts.listeningUnixPaths(candidates.map((candidate) => candidate.pid));
	const found: FoundNeovim[] = [];
	const withoutSocket: number[] = [];
	for (const { pid, startSeconds } of candidates) {
		const socket = await ownSocket(byPid.get(pid) ?? [], uid);
		if (socket === undefined) withoutSocket.push(pid);
		else found.push({ pid, startSeconds, socket });
	}
	return { found, withoutSocket };
}

/** Its listening socket's path (a socket this uid owns); undefined when it has none yet. */
async function ownSocket(paths: readonly string[], uid: number): Promise<string | undefined> {
	for (const path of [...paths].sort()) {
		const facts = await lstat(path).catch(() => undefined);
		if (facts?.isSocket() && facts.uid === uid) return path;
	}
	return undefined;
}
