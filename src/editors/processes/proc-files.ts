import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { bootTimeFromProcStat } from "./core/pid-reuse.ts";
import {
	connectionServerUid,
	listeningTcp,
	listeningUnixSockets,
	socketInode,
	type TcpListener,
} from "./core/proc-net.ts";
import { ancestors, descendants, type ProcStat, parseProcStat } from "./core/proc-stat.ts";
import { TEST_SCOPE_VARIABLE } from "./process-facts.ts";

/**
 * Every read of Linux's `/proc` the sources make, in one place: names first (cheap), then details only for
 * the candidates a source picked. Each source keeps its own triggers (Neovim's runtime dirs, Zed's database,
 * a tick): there is no shared look. A read of a process that went meanwhile gives undefined, never a throw.
 */

/** Every pid in `/proc`; undefined where there is no `/proc` (not Linux). */
export function processIds(): number[] | undefined {
	try {
		return readdirSync("/proc")
			.filter((name) => /^\d+$/.test(name))
			.map(Number);
	} catch {
		return undefined;
	}
}

/** `comm` is at most 15 bytes and a newline. */
const COMM_BYTES = 16;
const commBuffer = Buffer.alloc(COMM_BYTES);

/**
 * A process's name with its newline (`nvim\n`), the cheapest read there is: synchronous into one buffer (the
 * kernel writes `stat` much slower; async reads of 500 processes took twice the wall time, `fs/promises` ten).
 */
export function commOf(pid: number): string {
	let fd: number | undefined;
	try {
		fd = openSync(`/proc/${pid}/comm`, "r");
		return commBuffer.toString("utf8", 0, readSync(fd, commBuffer, 0, COMM_BYTES, 0));
	} catch {
		return "";
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

/** `/proc/<pid>/stat`, parsed; undefined where there is no `/proc` or the process is gone. */
export function procStatOf(pid: number): ProcStat | undefined {
	if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
	try {
		return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return undefined;
	}
}

/** Read once: the boot time does not change while pi runs. */
let bootTime: number | undefined;

/** `btime` of `/proc/stat`, in unix seconds. */
export function bootTimeSeconds(): number | undefined {
	try {
		bootTime ??= bootTimeFromProcStat(readFileSync("/proc/stat", "utf8"));
	} catch {
		return undefined;
	}
	return bootTime;
}

/** The uid that owns the process. */
export async function ownerOf(pid: number): Promise<number | undefined> {
	return (await lstat(`/proc/${pid}`).catch(() => undefined))?.uid;
}

/** Its environment as the kernel keeps it (`KEY=value\0...`); null when the process is gone, undefined when not ours to read. */
export async function environOf(pid: number): Promise<Buffer | null | undefined> {
	return readFile(`/proc/${pid}/environ`).catch((error: NodeJS.ErrnoException) =>
		error.code === "ESRCH" || error.code === "ENOENT" ? null : undefined,
	);
}

/** The value of one variable in an environment as `environOf` read it. */
export function environValue(environ: Buffer, name: string): string | undefined {
	const prefix = `${name}=`;
	for (const entry of environ.toString("utf8").split("\0"))
		if (entry.startsWith(prefix)) return entry.slice(prefix.length);
	return undefined;
}

/** Whether a process was started within the test scope (see `TEST_SCOPE_VARIABLE`). */
export async function inTestScope(pid: number, testScope: string): Promise<boolean> {
	const environ = await environOf(pid);
	return !!environ && environValue(environ, TEST_SCOPE_VARIABLE) === testScope;
}

/** Its arguments, at most `maxArgs` of them. */
export async function cmdlineOf(pid: number, maxArgs: number): Promise<string[] | undefined> {
	const cmdline = await readFile(`/proc/${pid}/cmdline`).catch(() => undefined);
	return cmdline?.toString("utf8").split("\0").filter(Boolean).slice(0, maxArgs);
}

/** The binary it runs. */
export function exeOf(pid: number): Promise<string | undefined> {
	return readlink(`/proc/${pid}/exe`).catch(() => undefined);
}

/** Its working directory. */
export function cwdOf(pid: number): Promise<string | undefined> {
	return readlink(`/proc/${pid}/cwd`).catch(() => undefined);
}

/** The inodes of the sockets among its fds. */
export async function socketInodesOf(pid: number): Promise<number[]> {
	const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
	const inodes: number[] = [];
	for (const fd of fds) {
		const inode = socketInode(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ""));
		if (inode !== undefined) inodes.push(inode);
	}
	return inodes;
}

/** The listening unix sockets by inode (`/proc/net/unix`); empty when it cannot be read. */
export async function listeningUnixSocketTable(): Promise<Map<number, string>> {
	return listeningUnixSockets(await readFile("/proc/net/unix", "utf8").catch(() => ""));
}

/** `/proc/net/tcp` and `/proc/net/tcp6` as they are now (IPv4 and IPv6); an unreadable one is empty. */
function tcpTables(): Promise<string[]> {
	return Promise.all(["/proc/net/tcp", "/proc/net/tcp6"].map((path) => readFile(path, "utf8").catch(() => "")));
}

/** The listening TCP sockets of IPv4 and IPv6. */
export async function listeningTcpTable(): Promise<TcpListener[]> {
	return (await tcpTables()).flatMap(listeningTcp);
}

/** Whose socket took a loopback connection from `clientPort` to `serverPort` (core/proc-net.ts `connectionServerUid`). */
export async function connectionServerUidNow(serverPort: number, clientPort: number): Promise<number | undefined> {
	for (const table of await tcpTables()) {
		const uid = connectionServerUid(table, serverPort, clientPort);
		if (uid !== undefined) return uid;
	}
	return undefined;
}

/** Its parent, its parent's parent, ... up to the first process: pi's own ancestors, say. */
export function ancestorsOf(pid: number): number[] {
	return ancestors(pid, (child) => procStatOf(child)?.parentPid);
}

/** Every process below `pid` (an IDE's helpers, say); one `stat` per process in `/proc`, so asked only when needed. */
export function descendantsOf(pid: number): number[] {
	const parents = new Map<number, number>();
	for (const id of processIds() ?? []) {
		const parent = procStatOf(id)?.parentPid;
		if (parent !== undefined) parents.set(id, parent);
	}
	return descendants(pid, parents);
}
