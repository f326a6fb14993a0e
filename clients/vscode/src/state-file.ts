import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkDirTrust } from "../../../src/editors/core/path-trust.ts";
import { lstatFactsNow } from "../../../src/editors/fs-facts.ts";

/**
 * The state dir by pi's own rules: created 0700 when missing, never used when pi would not trust it (another
 * user's, a symlink, group- or world-accessible): a client must not write where pi will not read.
 */
export function openStateDir(dir: string, uid: number): { ok: true } | { ok: false; reason: string } {
	if (lstatFactsNow(dir).facts.kind === "missing") {
		try {
			mkdirSync(dir, { recursive: true, mode: 0o700 });
		} catch (error) {
			return { ok: false, reason: `cannot create ${dir}: ${(error as Error).message}` };
		}
	}
	return checkDirTrust(dir, lstatFactsNow(dir).facts, uid);
}

/** `<pid>.json`, written atomically (a temp file renamed over it) with mode 0600. */
export function writeStateFile(dir: string, pid: number, state: object): void {
	const target = join(dir, `${pid}.json`);
	const temp = `${target}.tmp`;
	writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
	renameSync(temp, target);
}

export function removeStateFile(dir: string, pid: number): void {
	rmSync(join(dir, `${pid}.json`), { force: true });
	rmSync(join(dir, `${pid}.json.tmp`), { force: true });
}
