import { type ProcessFactsBackend, sameStart } from "./core/backend-choice.ts";
import { pathsBoundTwice } from "./core/bound-twice.ts";
import { processStart } from "./core/pid-reuse.ts";
import { checkPortListeners } from "./core/port-trust.ts";
import { hasExited, type ProcStat } from "./core/proc-stat.ts";
import { isProcessAlive } from "./liveness.ts";
import {
	ancestorsOf,
	bootTimeSeconds,
	cmdlineOf,
	commOf,
	connectionServerUidNow,
	cwdOf,
	descendantsOf,
	environOf,
	exeOf,
	inTestScope,
	listeningTcpTable,
	listeningUnixSocketTable,
	ownerOf,
	processIds,
	procStatOf,
	socketInodesOf,
} from "./proc-files.ts";
import type {
	ListeningUnixPaths,
	NamedProcess,
	PortHolder,
	ProcessFacts,
	ProcessFactsStatus,
} from "./process-facts.ts";

/**
 * The process facts of Linux's `/proc`, read directly: names from `comm` first (500 processes in a few ms), then
 * details of the candidates alone. Every answer is read now; nothing is kept but the boot time.
 */
export class ProcBackend implements ProcessFacts {
	readonly backend: ProcessFactsBackend = "proc";
	private lastScanMs: number | undefined;

	constructor(
		private readonly why: string,
		private readonly nowMs: () => number,
	) {}

	async named(isName: (name: string) => boolean, uid: number, testScope: string | undefined) {
		const started = this.nowMs();
		const pids = processIds();
		if (pids === undefined) return "/proc cannot be read";
		const named: NamedProcess[] = [];
		for (const pid of pids) {
			const comm = commOf(pid);
			if (!comm.endsWith("\n") || !isName(comm.slice(0, -1))) continue;
			const stat = procStatOf(pid);
			const startSeconds = stat && startOfStat(stat);
			if (!stat || startSeconds === undefined || !isName(stat.name) || hasExited(stat)) continue;
			if ((await ownerOf(pid)) !== uid) continue;
			if (testScope !== undefined && !(await inTestScope(pid, testScope))) continue;
			named.push({ pid, startSeconds, name: stat.name });
		}
		this.lastScanMs = this.nowMs() - started;
		return named;
	}

	executables(pids: readonly number[]) {
		return eachOf(pids, exeOf);
	}

	launchArgs(pids: readonly number[], maxArgs: number) {
		return eachOf(pids, (pid) => cmdlineOf(pid, maxArgs));
	}

	workingDirs(pids: readonly number[]) {
		return eachOf(pids, cwdOf);
	}

	async environments(pids: readonly number[], names: readonly string[]) {
		const found = new Map<number, Record<string, string> | undefined>();
		for (const pid of pids) {
			const environ = await environOf(pid);
			if (environ === null) continue;
			found.set(pid, environ === undefined ? undefined : variablesOf(environ, names));
		}
		return found;
	}

	async listeningUnixPaths(pids: readonly number[]): Promise<ListeningUnixPaths> {
		const table = await listeningUnixSocketTable();
		const byPid = new Map<number, string[]>();
		for (const pid of pids) {
			const paths = (await socketInodesOf(pid)).map((inode) => table.get(inode));
			byPid.set(pid, [...new Set(paths.filter((path): path is string => path !== undefined))].sort());
		}
		return { byPid, heldTwice: pathsBoundTwice(table) };
	}

	async listeningTcpPorts(pid: number) {
		const inodes = new Set(await socketInodesOf(pid));
		const ports = (await listeningTcpTable()).filter((row) => inodes.has(row.inode)).map((row) => row.port);
		return [...new Set(ports)].sort((a, b) => a - b);
	}

	/** Among the lockfile's pid and its descendants (VS Code's extension host is a child), else every process. */
	async portHolder(port: number, nearPid: number | undefined, uid: number): Promise<PortHolder> {
		const onPort = (await listeningTcpTable()).filter((listener) => listener.port === port);
		const trust = checkPortListeners(port, onPort, uid);
		if (!trust.ok) return trust.reason;
		const inodes = new Set(onPort.map((listener) => listener.inode));
		const near = nearPid === undefined ? [] : [nearPid, ...descendantsOf(nearPid)];
		for (const candidates of [near, processIds() ?? []]) {
			for (const pid of candidates) {
				if ((await ownerOf(pid)) !== uid) continue;
				if (!(await socketInodesOf(pid)).some((inode) => inodes.has(inode))) continue;
				const stat = procStatOf(pid);
				const startSeconds = stat && !hasExited(stat) ? startOfStat(stat) : undefined;
				if (startSeconds !== undefined) return { pid, startSeconds };
			}
		}
		return `no process of yours holds port ${port}'s socket`;
	}

	async stillHeldBy(port: number, holderPid: number, uid: number) {
		const onPort = (await listeningTcpTable()).filter((listener) => listener.port === port);
		const trust = checkPortListeners(port, onPort, uid);
		if (!trust.ok) return trust.reason;
		const inodes = new Set(onPort.map((listener) => listener.inode));
		return (await socketInodesOf(holderPid)).some((inode) => inodes.has(inode))
			? undefined
			: `pid ${holderPid} no longer holds port ${port}`;
	}

	connectionServerUid(serverPort: number, clientPort: number) {
		return connectionServerUidNow(serverPort, clientPort);
	}

	async ancestors(pid: number) {
		return ancestorsOf(pid);
	}

	async startOf(pid: number) {
		return this.knownStart(pid);
	}

	runsNow(pid: number, startSeconds?: number): boolean {
		if (!isProcessAlive(pid)) return false;
		const stat = procStatOf(pid);
		// Where `/proc` cannot tell (a process that is not ours to read), `kill` alone decides.
		if (stat === undefined) return startSeconds === undefined;
		if (hasExited(stat)) return false;
		const start = startOfStat(stat);
		return startSeconds === undefined || (start !== undefined && sameStart(start, startSeconds));
	}

	/** Small synchronous reads of procfs: asked once per state-file write. */
	knownStart(pid: number): number | undefined {
		const stat = procStatOf(pid);
		return stat && !hasExited(stat) ? startOfStat(stat) : undefined;
	}

	async learnStarts(): Promise<void> {}

	status(): ProcessFactsStatus {
		return {
			backend: this.backend,
			why: this.why,
			...(this.lastScanMs !== undefined && { lastScanMs: this.lastScanMs }),
			unknown: [],
		};
	}
}

/** One read per pid (`/proc` costs no process): the answers that came back. */
async function eachOf<T>(pids: readonly number[], read: (pid: number) => Promise<T | undefined>) {
	const found = new Map<number, T>();
	for (const pid of pids) {
		const value = await read(pid);
		if (value !== undefined) found.set(pid, value);
	}
	return found;
}

/** The variables `names` of an environment as the kernel keeps it (`KEY=value\0...`). */
function variablesOf(environ: Buffer, names: readonly string[]): Record<string, string> {
	const found: Record<string, string> = {};
	for (const entry of environ.toString("utf8").split("\0")) {
		const equals = entry.indexOf("=");
		if (equals > 0 && names.includes(entry.slice(0, equals))) found[entry.slice(0, equals)] = entry.slice(equals + 1);
	}
	return found;
}

function startOfStat(stat: ProcStat): number | undefined {
	const boot = bootTimeSeconds();
	return boot === undefined ? undefined : processStart(stat, boot);
}
