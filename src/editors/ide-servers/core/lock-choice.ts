import { isInside, normalizePath } from "../../../shared/core/paths.ts";
import type { Lockfile } from "./lockfile.ts";

/** What choosing among lockfiles reads of one: why it cannot be used, its folders, when it was written. */
export interface LockToChoose {
	unused?: string;
	lockfile?: Pick<Lockfile, "workspaceFolders">;
	writtenAtSeconds?: number;
}

/**
 * How well a lockfile's folders match the project, for choosing among one process's lockfiles: 0 a folder is the
 * project, 1 inside it, 2 neither (the tiers' own rules judge the editor itself).
 */
export function folderTier(folders: readonly string[], projectDir: string): number {
	if (folders.some((folder) => normalizePath(folder) === normalizePath(projectDir))) return 0;
	return folders.some((folder) => isInside(folder, projectDir)) ? 1 : 2;
}

/**
 * The lockfiles pi may list, one per key: a process serving several (one JetBrains holding a server per
 * project) is one editor, listed by the lockfile that matches pi's project best, else the newest. A lockfile
 * with no key (no process proven to hold its port), or of an editor another source reads, is not listed.
 */
export function usableLocks<Lock extends LockToChoose>(
	locks: readonly Lock[],
	rules: {
		keyOf: (lock: Lock) => string | undefined;
		claimedElsewhere: (key: string) => string | undefined;
		projectDir: () => string;
	},
): Lock[] {
	const byKey = new Map<string, Lock>();
	for (const lock of locks) {
		const key = rules.keyOf(lock);
		if (lock.unused !== undefined || key === undefined || rules.claimedElsewhere(key) !== undefined) continue;
		const known = byKey.get(key);
		if (!known || ranksAbove(lock, known, rules.projectDir)) byKey.set(key, lock);
	}
	return [...byKey.values()];
}

function ranksAbove(lock: LockToChoose, known: LockToChoose, projectDir: () => string): boolean {
	const tier = (candidate: LockToChoose) => folderTier(candidate.lockfile?.workspaceFolders ?? [], projectDir());
	const [a, b] = [tier(lock), tier(known)];
	if (a !== b) return a < b;
	return (lock.writtenAtSeconds ?? 0) > (known.writtenAtSeconds ?? 0);
}
