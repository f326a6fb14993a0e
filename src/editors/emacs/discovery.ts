import { lstatFacts } from "../fs-facts.ts";
import type { ListeningUnixPaths, ProcessFacts } from "../processes/process-facts.ts";
import { isEmacsExecutable, isEmacsName, launchOf } from "./core/emacs-process.ts";
import { chooseServerSocket, dirOf, type ServerChoice } from "./core/server-sockets.ts";

/** An interactive Emacs of this user, and the server socket pi may speak to (proven through its own fds). */
export interface FoundEmacs extends ServerChoice {
	pid: number;
	/** When it started (unix seconds): a pid reused by a later process started later. */
	startSeconds: number;
	/** Started as a daemon: it may have no frame (the source decides what that means). */
	daemon: boolean;
	/**
	 * With no unix server pi may use: the TCP ports it listens on among its own fds (`server-use-tcp`, or a
	 * package's own listener); pi does not speak TCP to it (that needs the key in its auth file). Unset when none.
	 */
	tcpPorts?: number[];
}

/** What a scan for Emacsen asks of the system's processes. */
export type EmacsFacts = Pick<
	ProcessFacts,
	"named" | "executables" | "launchArgs" | "listeningUnixPaths" | "listeningTcpPorts"
>;

/** Arguments read per process: enough to see the options, never a whole file list. */
const MAX_ARGS = 64;

/**
 * This user's Emacsen: one cheap listing of names first, then for those named like Emacs the binary, the
 * arguments (batch workers are left out: no user is in them) and the listening unix sockets among their own
 * fds. An Emacs with no server is listed with no socket; undefined when the system cannot be asked. A socket
 * whose path another listening socket was bound to is refused: the file there may be the other one's.
 */
export async function scanForEmacsen(
	uid: number,
	testScope: string | undefined,
	facts: EmacsFacts,
): Promise<FoundEmacs[] | undefined> {
	const candidates = await facts.named(isEmacsName, uid, testScope);
	if (typeof candidates === "string") return undefined;
	if (candidates.length === 0) return [];
	const pids = candidates.map((candidate) => candidate.pid);
	// Each detail asked of all candidates at once: one `lsof` or `ps` each where asking spawns one.
	const [executables, launchArgs, listening] = await Promise.all([
		facts.executables(pids),
		facts.launchArgs(pids, MAX_ARGS),
		// An impostor bound at an Emacs's path after unlinking its file is another process: every one counts.
		facts.listeningUnixPaths(pids, true),
	]);
	const found: FoundEmacs[] = [];
	for (const candidate of candidates) {
		const exe = executables.get(candidate.pid);
		const argv = launchArgs.get(candidate.pid);
		if (exe === undefined || argv === undefined || !isEmacsExecutable(exe)) continue;
		const emacs = await inspect(candidate, argv, uid, listening);
		if (emacs) found.push(emacs);
	}
	// Asked only when some Emacs has no unix server: the TCP tables of a busy host are long.
	for (const emacs of found.filter((each) => each.socket === undefined)) {
		const ports = await facts.listeningTcpPorts(emacs.pid);
		if (ports.length > 0) emacs.tcpPorts = ports;
	}
	return found;
}

async function inspect(
	candidate: { pid: number; startSeconds: number },
	argv: readonly string[],
	uid: number,
	listening: ListeningUnixPaths,
): Promise<FoundEmacs | undefined> {
	const { pid, startSeconds } = candidate;
	const launch = launchOf(argv);
	if (launch.batch) return undefined;
	const paths = listening.byPid.get(pid) ?? [];
	const heldTwice = listening.heldTwice;
	const sockets = [];
	for (const path of paths) {
		const [socket, dir] = await Promise.all([lstatFacts(path), lstatFacts(dirOf(path))]);
		sockets.push({ path, socket: socket.facts, dir: dir.facts, heldTwice: heldTwice.has(path) });
	}
	return { pid, startSeconds, daemon: launch.daemon, ...chooseServerSocket(sockets, uid) };
}
