import { checkDirTrust, type FsFacts } from "../../core/path-trust.ts";

/**
 * Which of an Emacs's listening unix sockets is its server, and whether pi may speak to it. Whoever answers
 * on that socket runs pi's elisp and sees its arguments, so a socket counts only as one of the Emacs's own
 * fds (../discovery.ts) at a path that is a socket of this user, in a directory of this user with no group
 * or other bits: what Emacs's own `server-ensure-safe-dir` requires of the dir it makes.
 */

/** What the shell found for one listening socket of an Emacs. */
export interface SocketFacts {
	/** The path `/proc/net/unix` gives the socket's inode (the name it was bound to). */
	path: string;
	/** `lstat` of that path now. */
	socket: FsFacts;
	/** `lstat` of its directory (a symlink is refused, as Emacs refuses it). */
	dir: FsFacts;
	/** Another listening socket was bound to the same path: the file may be the other one's now. */
	heldTwice: boolean;
}

export type ServerChoice = {
	/** The server's socket; undefined when the Emacs has none pi may use (no server, or only refused ones). */
	socket?: string;
	/** Listening sockets of this Emacs pi will not use, and why (for `/ide status`). */
	refused: { path: string; reason: string }[];
};

/**
 * The socket pi speaks to. Emacs names its socket `<server-socket-dir>/<server-name>`: the dir is
 * `$XDG_RUNTIME_DIR/emacs` or `${TMPDIR:-/tmp}/emacs<uid>`, so a socket in a dir of that name goes first;
 * other listening sockets (an absolute `server-name`, a package's own server) after, by path.
 */
export function chooseServerSocket(sockets: readonly SocketFacts[], uid: number): ServerChoice {
	const refused: ServerChoice["refused"] = [];
	const usable: string[] = [];
	for (const facts of sockets) {
		const reason = refusal(facts, uid);
		if (reason === undefined) usable.push(facts.path);
		else refused.push({ path: facts.path, reason });
	}
	const [socket] = usable.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
	return socket === undefined ? { refused } : { socket, refused };
}

function refusal(facts: SocketFacts, uid: number): string | undefined {
	if (facts.heldTwice) return "another listening socket was bound to the same path";
	const dir = checkDirTrust(dirOf(facts.path), facts.dir, uid);
	if (!dir.ok) return dir.reason;
	if (facts.socket.kind !== "socket") {
		return facts.socket.kind === "missing" ? "its socket file is gone" : `a ${facts.socket.kind}, not a socket`;
	}
	if (facts.socket.uid !== uid) return `the socket is owned by uid ${facts.socket.uid}, not by you (uid ${uid})`;
	return undefined;
}

/** 0 for a socket in a dir Emacs names (`emacs`, `emacs<uid>`), 1 for any other. */
function rank(path: string): number {
	const dir = dirOf(path);
	return /^emacs\d*$/.test(dir.slice(dir.lastIndexOf("/") + 1)) ? 0 : 1;
}

export function dirOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash <= 0 ? "/" : path.slice(0, slash);
}

/**
 * The dirs `server-socket-dir` may be (server.el): `$XDG_RUNTIME_DIR/emacs` when that is set, else
 * `emacs<uid>` under `$TMPDIR`, or `/tmp` without it. Both are watched, whichever pi's own environment would
 * pick: an Emacs started elsewhere may have had the other (ssh, su, systemd, a snap), so a socket is always
 * found among its own fds; these dirs only say when to look again. Neither exists before the first
 * `server-start` (watch the parent). On a Mac `/tmp/emacs<uid>` too: a daemon started by launchd (`brew
 * services`) has no `TMPDIR` (Homebrew/brew#10826). Older Emacs joined `$TMPDIR` (it ends in `/` on a Mac)
 * and `emacs<uid>` with a `/` of its own (`…/T//emacs501`): one dir, said once.
 */
export function serverSocketDirs(
	env: { XDG_RUNTIME_DIR?: string; TMPDIR?: string },
	uid: number,
	platform: string,
): string[] {
	const dirs: string[] = [];
	const runtime = absolute(env.XDG_RUNTIME_DIR);
	if (runtime) dirs.push(`${runtime}/emacs`);
	dirs.push(`${absolute(env.TMPDIR) ?? "/tmp"}/emacs${uid}`);
	if (platform === "darwin") dirs.push(`/tmp/emacs${uid}`);
	return [...new Set(dirs.map(oneSlash))];
}

/** An absolute dir without its trailing slashes (`/` itself is the empty string: its children join to `/x`). */
const absolute = (dir: string | undefined) => (dir?.startsWith("/") ? dir.replace(/\/+$/, "") : undefined);

/** Runs of slashes are one: the kernel resolves `a//b` as `a/b`, and a dir is compared and shown once. */
export const oneSlash = (path: string) => path.replace(/\/{2,}/g, "/");
