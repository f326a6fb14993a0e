export type FsObjectKind = "file" | "directory" | "symlink" | "fifo" | "socket" | "device" | "missing";

/** What `lstat` said about a path, reduced to what the trust rules need. */
export interface FsFacts {
	kind: FsObjectKind;
	uid: number;
	mode: number;
	size: number;
}

export type TrustVerdict = { ok: true } | { ok: false; reason: string };

export const GROUP_OTHER_BITS = 0o077;
export const GROUP_OTHER_WRITE_BITS = 0o022;

export const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

/**
 * Another local user must never be able to put text into this user's prompts, so the directory is trusted
 * only when nobody else can create or replace files in it.
 */
export function checkDirTrust(path: string, facts: FsFacts, uid: number): TrustVerdict {
	switch (facts.kind) {
		case "directory":
			break;
		case "missing":
			return { ok: false, reason: `${path} does not exist and could not be created` };
		case "symlink":
			return { ok: false, reason: `${path} is a symlink; remove it and let an editor or pi create a real directory` };
		default:
			return { ok: false, reason: `${path} is a ${facts.kind}, not a directory; remove it` };
	}
	if (facts.uid !== uid) {
		return { ok: false, reason: `${path} is owned by uid ${facts.uid}, not by you (uid ${uid}); remove it` };
	}
	if ((facts.mode & GROUP_OTHER_BITS) !== 0) {
		return { ok: false, reason: `${path} has mode ${octal(facts.mode)}; run: chmod 700 ${path}` };
	}
	return { ok: true };
}

/**
 * The VS Code client's socket beside its state file: whoever can connect can show diffs and read the answers,
 * so it is trusted only as a real socket of this user that nobody else may open (connecting needs write).
 */
export function checkSocketTrust(facts: FsFacts, uid: number): TrustVerdict {
	if (facts.kind !== "socket") {
		return { ok: false, reason: facts.kind === "missing" ? "no socket" : `a ${facts.kind}, not a socket` };
	}
	if (facts.uid !== uid) return { ok: false, reason: `owned by uid ${facts.uid}, not by you (uid ${uid})` };
	if ((facts.mode & GROUP_OTHER_BITS) !== 0) {
		return { ok: false, reason: `open to group or others (mode ${octal(facts.mode)}); the client makes it 0600` };
	}
	return { ok: true };
}
