import type { FsFacts } from "../../core/path-trust.ts";
import { MAX_LOCKFILE_BYTES } from "./lockfile.ts";

export type LockTrust = { ok: true } | { ok: false; reason: string };

const GROUP_OTHER_WRITE_BITS = 0o022;
const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

/**
 * A lock dir is read when nobody else can put a lockfile in it. Unlike the state dir (0700: its files are
 * prompt text), group and others may read it: Anthropic's extension makes `~/.claude/ide` 0755 and pi never
 * writes here. What a lockfile says is trusted only as far as the port's owner proves it (`checkPortListeners` in processes/core/port-trust.ts,
 * below, the holder found by lockfiles.ts).
 */
export function checkLockDirTrust(path: string, facts: FsFacts, uid: number): LockTrust {
	if (facts.kind === "missing") return { ok: false, reason: "not there (yet)" };
	if (facts.kind === "symlink") return { ok: false, reason: `${path} is a symlink: not read` };
	if (facts.kind !== "directory") return { ok: false, reason: `${path} is a ${facts.kind}, not a directory` };
	if (facts.uid !== uid) return { ok: false, reason: `owned by uid ${facts.uid}, not by you (uid ${uid})` };
	if ((facts.mode & GROUP_OTHER_WRITE_BITS) !== 0)
		return { ok: false, reason: `writable by group or others (mode ${octal(facts.mode)}); run: chmod 755 ${path}` };
	return { ok: true };
}

/** A lockfile is a regular file of this user that nobody else may change, small enough to be one. */
export function checkLockfileTrust(facts: FsFacts, uid: number): LockTrust {
	if (facts.kind === "missing") return { ok: false, reason: "removed" };
	if (facts.kind === "symlink") return { ok: false, reason: "a symlink, not a regular file" };
	if (facts.kind !== "file") return { ok: false, reason: `a ${facts.kind}, not a regular file` };
	if (facts.uid !== uid) return { ok: false, reason: `owned by uid ${facts.uid}, not by you (uid ${uid})` };
	if ((facts.mode & GROUP_OTHER_WRITE_BITS) !== 0)
		return { ok: false, reason: `writable by group or others (mode ${octal(facts.mode)})` };
	if (facts.size > MAX_LOCKFILE_BYTES)
		return { ok: false, reason: `${facts.size} bytes, over the ${MAX_LOCKFILE_BYTES}-byte limit for a lockfile` };
	return { ok: true };
}
