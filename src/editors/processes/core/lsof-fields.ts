/**
 * What `lsof -F` prints, read alike from macOS's lsof 4.91 and Linux's 4.95+: one field per line, its first
 * character names it (`p` pid, `u` uid, `f` descriptor, `n` name, `T` TCP/TPI info such as `TST=LISTEN`). 4.91
 * always adds `f` whether asked or not: fields are read by their letter, never by position.
 */

/** One open file of a process. */
export interface LsofFile {
	descriptor: string;
	name: string;
	/** `TST=` when printed (Linux prints it for unix sockets too; macOS has no state for those). */
	state?: string;
}

export interface LsofProcess {
	pid: number;
	uid?: number;
	files: LsofFile[];
}

/** The processes and files of a `-F` answer; a line of no known field is ignored. */
export function parseLsofFields(text: string): LsofProcess[] {
	const processes: LsofProcess[] = [];
	let process: LsofProcess | undefined;
	let file: LsofFile | undefined;
	for (const line of text.split("\n")) {
		const [letter, value] = [line[0], line.slice(1)];
		if (letter === "p") {
			// A pid of another shape starts a process too, one that is not kept: its files are no one's.
			process = /^\d+$/.test(value) ? { pid: Number(value), files: [] } : undefined;
			file = undefined;
			if (process) processes.push(process);
			continue;
		}
		if (!process) continue;
		if (letter === "u" && /^\d+$/.test(value)) process.uid = Number(value);
		else if (letter === "f") {
			file = { descriptor: value, name: "" };
			process.files.push(file);
		} else if (letter === "n") {
			// 4.95 prints no `f` unless asked: a name opens a file of its own then.
			if (file?.name !== "") {
				file = { descriptor: "", name: "" };
				process.files.push(file);
			}
			file.name = value;
		} else if (letter === "T" && value.startsWith("ST=") && file) file.state = value.slice(3);
	}
	return processes;
}

/** `/tmp/nvim.sock type=STREAM` (Linux) or `/tmp/nvim.sock` (macOS) → the path; unbound or abstract: undefined. */
export function unixSocketPath(name: string): string | undefined {
	const path = name.replace(/ type=\w+$/, "");
	return path.startsWith("/") ? path : undefined;
}

/**
 * The paths of the unix sockets a process listens on. Linux marks the state (`TST=LISTEN`): only those count.
 * macOS gives no state, and every connection the server accepted shows the listener's path too (XNU copies the
 * address): a path among a process's own sockets is one it listens on or one it accepted on, its own either way.
 */
export function listeningUnixPaths(process: LsofProcess): string[] {
	const paths = process.files
		.filter((file) => file.state === undefined || file.state === "LISTEN")
		.map((file) => unixSocketPath(file.name))
		.filter((path): path is string => path !== undefined);
	return [...new Set(paths)].sort();
}

/** `127.0.0.1:8765`, `[::1]:8765`, `*:8765` → its address and port; a connection (`a->b`) is its local end. */
export function tcpEnd(name: string): { address: string; port: number } | undefined {
	const match = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(name.split("->")[0] ?? "");
	return match ? { address: (match[1] as string).replace(/^\[|\]$/g, ""), port: Number(match[2]) } : undefined;
}

/** A loopback address (127.0.0.0/8, ::1, ::ffff:127.x.x.x): reachable from this machine only; `*` is not one. */
export function isLoopbackAddress(address: string): boolean {
	return /^127\./.test(address) || address === "::1" || /^::ffff:127\./i.test(address);
}

/** The owner uid of the process whose socket has `serverPort` locally and `clientPort` as its peer. */
export function acceptedConnectionUid(
	processes: readonly LsofProcess[],
	serverPort: number,
	clientPort: number,
): number | undefined {
	for (const process of processes)
		for (const file of process.files) {
			const [local, remote] = file.name.split("->").map((end) => tcpEnd(end));
			if (local?.port === serverPort && remote?.port === clientPort && isLoopbackAddress(remote.address))
				return process.uid;
		}
	return undefined;
}

/** The first name of a descriptor (`txt`: the executable comes first; `cwd`). */
export function nameOfDescriptor(process: LsofProcess | undefined, descriptor: string): string | undefined {
	return process?.files.find((file) => file.descriptor === descriptor && file.name.startsWith("/"))?.name;
}

/** `lsof -v`'s `revision: 4.95.0` line (on stderr). */
export function lsofRevision(text: string): string | undefined {
	return /revision:\s*([\d.]+)/.exec(text)?.[1];
}
