import { readFileSync } from "node:fs";
import { bootTimeFromProcStat, processStartFromStat } from "../core/pid-reuse.ts";

/**
 * `kill(pid, 0)`: the only liveness signal the protocol has. EPERM means the process exists but belongs to
 * someone else, which still counts as alive. pid 0 and negative pids address process groups, never an editor.
 */
export function isProcessAlive(pid: number): boolean {
	if (!Number.isSafeInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** Read once: the boot time does not change while pi runs. */
let bootTimeSeconds: number | undefined;

/**
 * When the process now holding `pid` started (unix seconds), or undefined where that cannot be read (no
 * `/proc`, as on macOS; a process that is gone). Small synchronous reads of procfs, asked once per file write.
 */
export function processStartSeconds(pid: number): number | undefined {
	if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
	try {
		bootTimeSeconds ??= bootTimeFromProcStat(readFileSync("/proc/stat", "utf8"));
		if (bootTimeSeconds === undefined) return undefined;
		return processStartFromStat(readFileSync(`/proc/${pid}/stat`, "utf8"), bootTimeSeconds);
	} catch {
		return undefined;
	}
}
