/**
 * Which way pi asks the system about processes: Linux's `/proc` (read directly, cheap), or `ps` and `lsof`
 * (macOS, and a Linux whose `/proc` pi cannot read). `PI_IDE_PROCESS_FACTS=proc|ps` forces one: for
 * troubleshooting, and for the tests that run the `ps` backend on Linux.
 */

export type ProcessFactsBackend = "proc" | "ps";

export const PROCESS_FACTS_VARIABLE = "PI_IDE_PROCESS_FACTS";

export interface BackendChoice {
	backend: ProcessFactsBackend;
	/** Why this one, as `/ide status` says it. */
	why: string;
	/** A value of the variable that was not understood, said once in `/ide status`. */
	ignored?: string;
}

export function chooseBackend(forced: string | undefined, platform: string, procReadable: boolean): BackendChoice {
	const value = forced?.trim().toLowerCase();
	if (value === "proc" || value === "ps") return { backend: value, why: `${PROCESS_FACTS_VARIABLE}=${value}` };
	const ignored = value ? { ignored: `${PROCESS_FACTS_VARIABLE}=${forced} is neither proc nor ps: ignored` } : {};
	if (platform === "linux" && procReadable) return { backend: "proc", why: "Linux", ...ignored };
	const why = platform === "linux" ? "/proc cannot be read" : `no /proc on ${platform}`;
	return { backend: "ps", why, ...ignored };
}

/**
 * Two starts of one process as two backends (or one backend twice) tell them: `/proc` counts ticks from a boot
 * time the kernel derives again on every read, `ps` prints whole seconds. A pid reused within a second of the
 * same start is not a case to design for.
 */
export function sameStart(a: number, b: number): boolean {
	return Math.abs(a - b) <= 1;
}
