import { lstatFacts } from "../fs-facts.ts";
import {
	cmdlineOf,
	exeOf,
	listeningTcpTable,
	listeningUnixSocketTable,
	socketInodesOf,
} from "../processes/proc-files.ts";
import { isOwnInScope, listeningPathsOf, processesNamed } from "../processes/process-scan.ts";
import { exeName, isEmacsName, launchOf } from "./core/emacs-process.ts";
import { chooseServerSocket, dirOf, pathsHeldTwice, type ServerChoice } from "./core/server-sockets.ts";

/** An interactive Emacs of this user, and the server socket pi may speak to (proven through its own fds). */
export interface FoundEmacs extends ServerChoice {
	pid: number;
	/** Field 22 of its `/proc/<pid>/stat`: a pid reused by a later process starts at another tick. */
	startTicks: number;
	/** Started as a daemon: it may have no frame (the source decides what that means). */
	daemon: boolean;
	/**
	 * With no unix server pi may use: the TCP ports it listens on among its own fds (`server-use-tcp`, or a
	 * package's own listener); pi does not speak TCP to it (that needs the key in its auth file). Unset when none.
	 */
	tcpPorts?: number[];
}

/** Arguments read per process: enough to see the options, never a whole file list. */
const MAX_ARGS = 64;

/**
 * This user's Emacsen: `comm` first (cheap, 500 processes in a few ms), then for those named like Emacs the
 * binary, the owner, the arguments (batch workers are left out: no user is in them) and the listening unix
 * sockets among their own fds. An Emacs with no server is listed with no socket; undefined where there is no
 * `/proc` (not Linux). A socket whose path another listening socket was bound to is refused: the file there
 * may be the other one's.
 */
export async function scanForEmacsen(uid: number, testScope: string | undefined): Promise<FoundEmacs[] | undefined> {
	const candidates = processesNamed(isEmacsName);
	if (candidates === undefined) return undefined;
	if (candidates.length === 0) return [];
	const listening = await listeningUnixSocketTable();
	const heldTwice = pathsHeldTwice(listening);
	const found: FoundEmacs[] = [];
	for (const candidate of candidates) {
		const emacs = await inspect(candidate, uid, testScope, listening, heldTwice);
		if (emacs) found.push(emacs);
	}
	// Read only when some Emacs has no unix server: `/proc/net/tcp` of a busy host is long.
	const serverless = found.filter((emacs) => emacs.socket === undefined);
	if (serverless.length === 0) return found;
	const tcp = await listeningTcpTable();
	for (const emacs of serverless) {
		const inodes = new Set(await socketInodesOf(emacs.pid));
		const ports = [...new Set(tcp.filter((row) => inodes.has(row.inode)).map((row) => row.port))].sort((a, b) => a - b);
		if (ports.length > 0) emacs.tcpPorts = ports;
	}
	return found;
}

async function inspect(
	candidate: { pid: number; startTicks: number },
	uid: number,
	testScope: string | undefined,
	listening: ReadonlyMap<number, string>,
	heldTwice: ReadonlySet<string>,
): Promise<FoundEmacs | undefined> {
	const { pid } = candidate;
	if (!(await isOwnInScope(pid, uid, testScope))) return undefined;
	const exe = await exeOf(pid);
	if (exe === undefined || !isEmacsName(exeName(exe))) return undefined;
	const argv = await cmdlineOf(pid, MAX_ARGS);
	if (argv === undefined) return undefined;
	const launch = launchOf(argv);
	if (launch.batch) return undefined;
	const paths = await listeningPathsOf(pid, listening);
	const sockets = [];
	for (const path of paths) {
		const [socket, dir] = await Promise.all([lstatFacts(path), lstatFacts(dirOf(path))]);
		sockets.push({ path, socket: socket.facts, dir: dir.facts, heldTwice: heldTwice.has(path) });
	}
	return { ...candidate, daemon: launch.daemon, ...chooseServerSocket(sockets, uid) };
}
