import type { ProcessFactsBackend } from "./core/backend-choice.ts";

/** Test-only: a test's pi sees only the editors started with the same value in their environment. */
export const TEST_SCOPE_VARIABLE = "PI_IDE_TEST_PROC_SCOPE";

/** A running process a scan picked by name: its pid and when it started (a pid reused later starts later). */
export interface NamedProcess {
	pid: number;
	/** Unix seconds, whole: `/proc` and `ps` give the same value (see `sameStart`). */
	startSeconds: number;
	/** The kernel's name of its executable. */
	name: string;
}

/** The unix sockets some processes listen on, and the paths two processes' listeners were bound to. */
export interface ListeningUnixPaths {
	byPid: ReadonlyMap<number, readonly string[]>;
	/** A path another listening socket was bound to too: the file there may be the other one's. */
	heldTwice: ReadonlySet<string>;
}

/** The process holding a TCP port's listener and when it started, or why none of the user's could be named. */
export type PortHolder = { pid: number; startSeconds: number } | string;

/** What `/ide status` says of the backend. */
export interface ProcessFactsStatus {
	backend: ProcessFactsBackend;
	why: string;
	/** `lsof -v`'s revision once asked (the `ps` backend). */
	lsofVersion?: string;
	/** How long the last listing of processes took. */
	lastScanMs?: number;
	/** The last facts that could not be known, and why (newest last, a few). */
	unknown: readonly string[];
}

/**
 * Every question pi asks the system about processes, one interface with a backend per way of asking
 * (`proc-backend.ts`, `ps-backend.ts`). Asynchronous, never throwing: a process that went meanwhile, or a fact
 * the system will not tell, is undefined (and, where it matters, said in `/ide status`).
 */
export interface ProcessFacts {
	readonly backend: ProcessFactsBackend;
	/**
	 * This user's running processes whose kernel name passes `isName` (in the test scope when one is set);
	 * a string when the system cannot be asked at all.
	 */
	named(
		isName: (name: string) => boolean,
		uid: number,
		testScope: string | undefined,
	): Promise<NamedProcess[] | string>;
	/*
	 * Details of the candidates a scan picked, all pids in one ask (one `ps` or `lsof` for the lot). A pid left
	 * out of the answer is gone, or the fact could not be read.
	 */
	/** The path of the binary each runs. */
	executables(pids: readonly number[]): Promise<ReadonlyMap<number, string>>;
	/** Each one's launch arguments, at most `maxArgs` (on the `ps` backend split at spaces). */
	launchArgs(pids: readonly number[], maxArgs: number): Promise<ReadonlyMap<number, string[]>>;
	workingDirs(pids: readonly number[]): Promise<ReadonlyMap<number, string>>;
	/**
	 * The variables `names` of each one's environment; a pid that runs but whose environment pi may not read
	 * maps to undefined, one that is gone is left out.
	 */
	environments(
		pids: readonly number[],
		names: readonly string[],
	): Promise<ReadonlyMap<number, Record<string, string> | undefined>>;
	/**
	 * The paths of the unix sockets each of `pids` listens on (its own descriptors). `heldTwice` counts every
	 * process's listeners with `everyProcess` (an impostor bound at an editor's path is another process), else
	 * only those of `pids` (`lsof` of every process costs a scan of all of them where `ps` answers).
	 */
	listeningUnixPaths(pids: readonly number[], everyProcess?: boolean): Promise<ListeningUnixPaths>;
	/** The TCP ports it listens on. */
	listeningTcpPorts(pid: number): Promise<number[]>;
	/** This user's process listening on loopback `port`, looked for first among `nearPid` and its descendants. */
	portHolder(port: number, nearPid: number | undefined, uid: number): Promise<PortHolder>;
	/** Undefined while `holderPid` of this user still listens on `port`; else why not. */
	stillHeldBy(port: number, holderPid: number, uid: number): Promise<string | undefined>;
	/** The uid of the process whose socket took pi's loopback connection from `clientPort` to `serverPort`. */
	connectionServerUid(serverPort: number, clientPort: number): Promise<number | undefined>;
	/** Its parent, the parent's parent, ... */
	ancestors(pid: number): Promise<number[]>;
	/** When it started, if it runs (not a zombie). */
	startOf(pid: number): Promise<number | undefined>;
	/**
	 * Synchronous, for the paths that cannot wait: runs now, and (given) is the process that started then. The
	 * `ps` backend answers from what it last listed (`pid-records.ts`) and `kill(pid, 0)`, never spawning.
	 */
	runsNow(pid: number, startSeconds?: number): boolean;
	/**
	 * Synchronous: when the process on `pid` started, if known without spawning; `"asking"` while the `ps` backend
	 * asks in the background (`learned` is called once it knows).
	 */
	knownStart(pid: number, learned?: () => void): number | "asking" | undefined;
	/** The starts of these pids found out now, those not known yet in one ask (nothing to do on `/proc`). */
	learnStarts(pids: readonly number[]): Promise<void>;
	status(): ProcessFactsStatus;
}
