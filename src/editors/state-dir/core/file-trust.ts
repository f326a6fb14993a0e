import { type FsFacts, GROUP_OTHER_WRITE_BITS, octal, type TrustVerdict } from "../../core/path-trust.ts";

/** Largest state file read: a select-all in a big file fits; the injected text is capped far lower. */
export const MAX_STATE_FILE_BYTES = 16 * 1024 * 1024;

/** A state file is read only when it is a regular file of this user that nobody else may change. */
export function checkFileTrust(facts: FsFacts, uid: number): TrustVerdict {
	if (facts.kind !== "file") {
		return { ok: false, reason: facts.kind === "missing" ? "file vanished" : `a ${facts.kind}, not a regular file` };
	}
	if (facts.uid !== uid) return { ok: false, reason: `owned by uid ${facts.uid}, not by you (uid ${uid})` };
	if ((facts.mode & GROUP_OTHER_WRITE_BITS) !== 0) {
		return { ok: false, reason: `writable by group or others (mode ${octal(facts.mode)}); chmod 600 it` };
	}
	if (facts.size > MAX_STATE_FILE_BYTES) {
		return { ok: false, reason: `${facts.size} bytes, over the ${MAX_STATE_FILE_BYTES}-byte limit for a state file` };
	}
	return { ok: true };
}
