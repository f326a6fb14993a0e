/**
 * Which processes are an Emacs the user works in, from what `/proc` says of them. A name is a first cut
 * only: the socket an Emacs listens on is proven through its own fds (../discovery.ts), never by a name.
 */

/** `comm` holds at most 15 bytes (the names matched are ASCII): a longer name is cut there, anywhere. */
const COMM_MAX_BYTES = 15;

/**
 * The names Emacs runs under: `emacs`, or `emacs-<variant>` as Debian's alternatives and versioned builds
 * call the binary (`emacs-nox`, `emacs-gtk`, `emacs-lucid`, `emacs-29.1`); and a Nix or Guix wrapped one, the
 * real binary renamed `.<name>-wrapped` (Nix's makeWrapper) or `.<name>-real` (Guix's wrap-program). `comm` is
 * cut at 15 bytes, so a long variant may end anywhere, and a wrapped name's suffix with it
 * (`.emacs-29.1-wra`). On a Mac (and GNUstep) the binary of an `Emacs.app` is `Emacs`, or `Emacs-<arch>-<os>`
 * beside the launcher of "Emacs for Mac OS X" (`Emacs-arm64-11`, `Emacs-x86_64-10_14`); macOS cuts its
 * kernel name (`ucomm`) at 16 bytes, which the variant's free tail allows. Never `emacsclient`: it is a client,
 * and has no server of its own.
 */
export function isEmacsName(name: string): boolean {
	if (/^[Ee]macs(?:-[A-Za-z0-9._+-]*)?$/.test(name)) return true;
	if (!name.startsWith(".")) return false;
	if (/^\.emacs(?:-[A-Za-z0-9._+-]*)?-(?:wrapped|real)$/.test(name)) return true;
	// Cut by comm: what is left must still begin as a wrapped Emacs's name does.
	return name.length === COMM_MAX_BYTES && /^\.emacs-[A-Za-z0-9._+-]*$/.test(name);
}

/**
 * The file name of the binary a process runs, from its `/proc/<pid>/exe` link. Debian's `/usr/bin/emacs` is
 * a link to `emacs-nox` (or `-gtk`, `-lucid`); after a package upgrade the running binary is ` (deleted)`.
 */
export function exeName(exeLink: string): string {
	const path = withoutDeleted(exeLink);
	return path.slice(path.lastIndexOf("/") + 1);
}

/** The dir a Mac's Emacs.app keeps its binaries in (Emacs for Mac OS X, emacs-plus, emacs-mac, a source build). */
const MAC_BUNDLE_BINARIES = /\/Emacs\.app\/Contents\/MacOS\/([^/]+)$/;

/**
 * Whether the binary a process runs (`/proc/<pid>/exe`, or `lsof`'s `txt` on a Mac) is an Emacs: by its name,
 * or as a binary right in an `Emacs.app` bundle's `Contents/MacOS/` whatever a build named it. Its clients
 * live below that dir (`bin/emacsclient`) or are named so, and are never taken.
 */
export function isEmacsExecutable(exeLink: string): boolean {
	const path = withoutDeleted(exeLink);
	if (isEmacsName(exeName(path))) return true;
	const inBundle = MAC_BUNDLE_BINARIES.exec(path)?.[1];
	return inBundle !== undefined && !/client/i.test(inBundle);
}

const withoutDeleted = (link: string) => (link.endsWith(" (deleted)") ? link.slice(0, -" (deleted)".length) : link);

/** How an Emacs was started, from its arguments. */
export interface EmacsLaunch {
	/** A batch or script Emacs (a native-compile worker, a test runner): no UI, no user in it; never spoken to. */
	batch: boolean;
	/** `--daemon`, `--bg-daemon`, `--fg-daemon` (with or without `=NAME`): it may have no frame at all. */
	daemon: boolean;
}

/** Options that make Emacs run without a terminal: a cold Emacs spawns `emacs -no-comp-spawn --batch -l ...` workers. */
const BATCH_OPTIONS = new Set(["-batch", "--batch", "-script", "--script", "-x", "-no-comp-spawn"]);

const DAEMON_OPTION = /^--?(?:bg-|fg-)?daemon(?:=.*)?$/s;

/** Emacs reads options up to `--` (after it, every argument is a file); `argv[0]` is the program. */
export function launchOf(argv: readonly string[]): EmacsLaunch {
	const end = argv.indexOf("--", 1);
	const options = argv.slice(1, end < 0 ? undefined : end);
	return {
		batch: options.some((arg) => BATCH_OPTIONS.has(arg)),
		daemon: options.some((arg) => DAEMON_OPTION.test(arg)),
	};
}

/**
 * Whether pi runs in an Emacs's terminal or shell: `INSIDE_EMACS` is set by `shell`, `term`, `vterm`, `eat`,
 * `compile` (`28.2,comint`, `vterm`, `0.9.4,eat`...). Which Emacs is found among pi's ancestors: the value
 * names none.
 */
export function runsInsideEmacs(env: { INSIDE_EMACS?: string }): boolean {
	return env.INSIDE_EMACS !== undefined && env.INSIDE_EMACS !== "";
}
