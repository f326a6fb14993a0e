/**
 * Where an Emacs's server socket appears, and whether pi runs inside an Emacs, from pi's environment. pi's
 * `XDG_RUNTIME_DIR` can differ from the Emacs's (ssh, su, systemd, a snap), so a socket is always found
 * through `/proc` (../discovery.ts); these dirs only say when to look again.
 */

/**
 * The dirs `server-socket-dir` may be (server.el): `$XDG_RUNTIME_DIR/emacs` when that is set, else
 * `${TMPDIR:-/tmp}/emacs<uid>`. Both are watched, whichever pi's own environment would pick: an Emacs
 * started elsewhere may have had the other. Neither exists before the first `server-start` (watch the parent).
 */
export function serverSocketDirs(env: { XDG_RUNTIME_DIR?: string; TMPDIR?: string }, uid: number): string[] {
	const dirs: string[] = [];
	if (env.XDG_RUNTIME_DIR?.startsWith("/")) dirs.push(`${trimSlash(env.XDG_RUNTIME_DIR)}/emacs`);
	const tmp = env.TMPDIR?.startsWith("/") ? trimSlash(env.TMPDIR) : "/tmp";
	dirs.push(`${tmp}/emacs${uid}`);
	return [...new Set(dirs)];
}

const trimSlash = (dir: string) => dir.replace(/\/+$/, "");

/**
 * Whether pi runs in an Emacs's terminal or shell: `INSIDE_EMACS` is set by `shell`, `term`, `vterm`, `eat`,
 * `compile` (`28.2,comint`, `vterm`, `0.9.4,eat`...). Which Emacs is found among pi's ancestors: the value
 * names none.
 */
export function runsInsideEmacs(env: { INSIDE_EMACS?: string }): boolean {
	return env.INSIDE_EMACS !== undefined && env.INSIDE_EMACS !== "";
}
