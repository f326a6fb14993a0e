import { realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { normalizePath } from "../shared/core/paths.ts";
import { absoluteFile } from "./core/active-buffer.ts";
import type { EditorState } from "./core/protocol-state.ts";
import { type EditorPaths, MAX_ARGV_EVIDENCE } from "./core/tiers.ts";

/** Longer launch args are no plausible directory; skip them without asking the file system. */
const MAX_ARG_CHARS = 4096;

/** Real path where it exists (symlinked project dirs, macOS /tmp -> /private/tmp), normalized path otherwise. */
export async function realOrNormal(path: string): Promise<string> {
	try {
		return await realpath(path);
	} catch {
		return normalizePath(path);
	}
}

/** A file that does not exist yet (a new buffer) still sits in a real directory. */
export async function realFile(path: string): Promise<string> {
	try {
		return await realpath(path);
	} catch {
		return join(await realOrNormal(dirname(path)), basename(path));
	}
}

async function argDirectory(cwd: string, arg: string): Promise<{ arg: string; dir: string } | undefined> {
	if (arg.length === 0 || arg.length > MAX_ARG_CHARS || arg.includes("\0")) return undefined;
	const path = resolve(cwd, arg);
	try {
		if (!(await stat(path)).isDirectory()) return undefined;
		return { arg, dir: await realpath(path) };
	} catch {
		return undefined;
	}
}

/** Resolve the paths the tier rules look at, once per state change and never on the prompt path. */
export async function resolveEditorPaths(state: EditorState): Promise<EditorPaths> {
	const file = state.active_buffer?.file;
	const active = absoluteFile(state);
	const [cwd, realActive, argvDirs] = await Promise.all([
		realOrNormal(state.cwd),
		active === undefined ? undefined : realFile(active),
		Promise.all((state.argv ?? []).slice(0, MAX_ARGV_EVIDENCE).map((arg) => argDirectory(state.cwd, arg))),
	]);
	return {
		cwd,
		// Tiers count only an absolute file: a vault-relative one says nothing about pi's project.
		...(typeof file === "string" && isAbsolute(file) && realActive !== undefined ? { file: realActive } : {}),
		...(realActive === undefined ? {} : { activeFile: realActive }),
		argvDirs: argvDirs.filter((entry) => entry !== undefined),
	};
}

/**
 * An editor's paths, resolved again only when what they come from changed (its cwd, active file, argv): most
 * writes are cursor moves, and they cost no realpath. One per editor (a state file, a Neovim session).
 */
export class EditorPathsCache {
	private last?: { key: string; paths: Promise<EditorPaths> };

	pathsOf(state: EditorState): Promise<EditorPaths> {
		const key = JSON.stringify([state.cwd, state.active_buffer?.file ?? null, state.argv ?? []]);
		if (this.last?.key !== key) this.last = { key, paths: resolveEditorPaths(state) };
		return this.last.paths;
	}
}
