import { normalizePath } from "../../../shared/core/paths.ts";

/**
 * Where an editor of this user may write its state file. `protocol` is the dir protocol v0.2 names (pi creates
 * it); `side` dirs are where clients started in another environment write (pi only looks); `override` is
 * `PI_IDE_STATE_DIR`, then the only dir.
 */
export type DirRole = "override" | "protocol" | "side";

export interface DirPlan {
	path: string;
	role: DirRole;
}

export interface DirEnv {
	PI_IDE_STATE_DIR?: string;
	XDG_RUNTIME_DIR?: string;
}

/** Where `/tmp` and `/run/user` are: the real roots, or a test's temp dir standing in for them. */
export interface FsRoots {
	tmp: string;
	runUser: string;
}

export const REAL_ROOTS: FsRoots = { tmp: "/tmp", runUser: "/run/user" };

const join = (dir: string, name: string) => `${dir.replace(/\/+$/, "")}/${name}`;

/**
 * Every dir to read, the protocol's first. Clients write `$XDG_RUNTIME_DIR/pi-ide`, or the literal
 * `/tmp/pi-ide` when they have no `XDG_RUNTIME_DIR` (never `TMPDIR`); a tmux server or a desktop launcher
 * may give the editor and pi different environments, so pi reads all of them.
 */
export function stateDirPlan(env: DirEnv, uid: number, runUserDirExists: boolean, roots = REAL_ROOTS): DirPlan[] {
	if (env.PI_IDE_STATE_DIR) return [{ path: env.PI_IDE_STATE_DIR, role: "override" }];
	const tmpDir = join(roots.tmp, "pi-ide");
	const protocol = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, "pi-ide") : tmpDir;
	const plan: DirPlan[] = [{ path: protocol, role: "protocol" }];
	const sides = [...(runUserDirExists ? [join(join(roots.runUser, String(uid)), "pi-ide")] : []), tmpDir];
	for (const path of sides) {
		if (!plan.some((dir) => normalizePath(dir.path) === normalizePath(path))) plan.push({ path, role: "side" });
	}
	return plan;
}

/** Trusted and watched; not there (a side dir pi only looks for); or not read, and why. */
export type DirVerdict = { kind: "trusted" } | { kind: "missing" } | { kind: "untrusted"; reason: string };

/** How `/ide status` names a dir's role. */
export const DIR_ROLE_TEXT: Record<DirRole, string> = {
	override: "PI_IDE_STATE_DIR, the only dir read",
	protocol: "the protocol's dir",
	side: "side dir, read but never created",
};
