import { hasExited } from "./core/proc-stat.ts";
import { commOf, inTestScope, ownerOf, processIds, procStatOf, socketInodesOf } from "./proc-files.ts";

/** A running process a scan picked by name: its pid and its start (a pid reused later starts at another tick). */
export interface NamedProcess {
	pid: number;
	/** Field 22 of its `/proc/<pid>/stat`. */
	startTicks: number;
}

/**
 * The running processes whose kernel name passes `isName`: `comm` first (cheap: 500 processes in a few ms, as
 * start-up waits for a scan), then `stat` of those alone (its name again, and not exited). Undefined where there
 * is no `/proc`.
 */
export function processesNamed(isName: (name: string) => boolean): NamedProcess[] | undefined {
	const pids = processIds();
	if (pids === undefined) return undefined;
	const named: NamedProcess[] = [];
	for (const pid of pids) {
		const comm = commOf(pid);
		if (!comm.endsWith("\n") || !isName(comm.slice(0, -1))) continue;
		const procStat = procStatOf(pid);
		if (procStat && isName(procStat.name) && !hasExited(procStat)) named.push({ pid, startTicks: procStat.startTicks });
	}
	return named;
}

/** The process is this user's, and in the test scope when one is set (a test sees only its own editors). */
export async function isOwnInScope(pid: number, uid: number, testScope: string | undefined): Promise<boolean> {
	if ((await ownerOf(pid)) !== uid) return false;
	return testScope === undefined || (await inTestScope(pid, testScope));
}

/** The paths of the listening unix sockets among the process's own fds (`listening`: inode → path). */
export async function listeningPathsOf(pid: number, listening: ReadonlyMap<number, string>): Promise<string[]> {
	const paths = (await socketInodesOf(pid)).map((inode) => listening.get(inode));
	return [...new Set(paths.filter((path): path is string => path !== undefined))];
}
