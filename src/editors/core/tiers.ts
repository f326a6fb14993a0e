import { isInside, isSameOrInside, normalizePath } from "../../shared/core/paths.ts";

/** Launch args past this many are not looked at: argv is untrusted and each entry costs a stat. */
export const MAX_ARGV_EVIDENCE = 64;

export type Tier = 0 | 1;

/**
 * An editor's paths as the shell resolved them: real paths where they exist, normalized absolute paths
 * otherwise. `file` is set only for an absolute `active_buffer.file`; `argvDirs` holds only launch args
 * that are existing directories.
 */
export interface EditorPaths {
	cwd: string;
	file?: string;
	/** Real path of the active file, relative ones (Obsidian) resolved against cwd first: what the secret-file rule checks. */
	activeFile?: string;
	argvDirs: readonly { arg: string; dir: string }[];
	/** A workspace's root folders (Zed), real paths: they stand for cwd and launch args. */
	roots?: readonly string[];
	/** Files a workspace was opened on (Zed opened on a single file), real paths: evidence like an active file. */
	rootFiles?: readonly string[];
	/**
	 * The active file's project root as the editor knows it (an Emacs's `project-root`), real paths: the editor
	 * works in that project, whatever its cwd (an Emacs started from `~` keeps `~`).
	 */
	projectRoots?: readonly string[];
}

export interface TierVerdict {
	tier: Tier | undefined;
	evidence: string;
}

/** The protocol's tiers. An ancestor `cwd` alone is no evidence: a shared parent must not claim every project. */
export function scoreTier(paths: EditorPaths, projectDir: string): TierVerdict {
	if (paths.roots) return scoreRoots(paths.roots, paths, projectDir);
	if (normalizePath(paths.cwd) === normalizePath(projectDir)) return { tier: 0, evidence: "cwd equals the project" };
	if (isInside(paths.cwd, projectDir)) return { tier: 1, evidence: "cwd is inside the project" };
	if (paths.file !== undefined && isInside(paths.file, projectDir)) {
		return { tier: 1, evidence: "active file is inside the project" };
	}
	const arg = paths.argvDirs.find((entry) => isSameOrInside(entry.dir, projectDir));
	if (arg) return { tier: 1, evidence: `launch arg "${arg.arg}" is the project or inside it` };
	if (paths.projectRoots?.some((root) => isSameOrInside(root, projectDir)))
		return { tier: 1, evidence: "the active file's project root is the project or inside it" };
	const evidence = paths.projectRoots ? "no cwd, file, launch arg or project root" : "no cwd, file or launch arg";
	return { tier: undefined, evidence: `${evidence} in the project` };
}

/** A workspace's roots: one equal to the project is tier 0; one inside it, or the active file inside it, tier 1. */
function scoreRoots(
	roots: readonly string[],
	{ file, rootFiles = [] }: Pick<EditorPaths, "file" | "rootFiles">,
	projectDir: string,
): TierVerdict {
	const project = normalizePath(projectDir);
	if (roots.some((root) => normalizePath(root) === project))
		return { tier: 0, evidence: "a workspace root is the project" };
	if (roots.some((root) => isInside(root, projectDir)))
		return { tier: 1, evidence: "a workspace root is inside the project" };
	if (file !== undefined && isInside(file, projectDir))
		return { tier: 1, evidence: "active file is inside the project" };
	if (rootFiles.some((opened) => isInside(opened, projectDir)))
		return { tier: 1, evidence: "the file the workspace was opened on is inside the project" };
	return { tier: undefined, evidence: "no workspace root or file in the project" };
}
