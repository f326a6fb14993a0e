import { readFileSync } from "node:fs";
import { bootTimeFromProcStat, processStart } from "./core/pid-reuse.ts";
import { hasExited, type ProcStat, parseProcStat } from "./core/proc-stat.ts";

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

/** `/proc/<pid>/stat`, parsed; undefined where there is no `/proc` (macOS) or the process is gone. */
function procStatOf(pid: number): ProcStat | undefined {
	if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
	try {
		return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return undefined;
	}
}

/**
 * Alive and not exited: `kill(pid, 0)` also succeeds on a zombie (an app that quit and whose parent has not
 * reaped it), which runs no more. Where `/proc` cannot tell, `kill` alone decides.
 */
export function isProcessRunning(pid: number): boolean {
	if (!isProcessAlive(pid)) return false;
	const stat = procStatOf(pid);
	return stat === undefined || !hasExited(stat);
}

/** Read once: the boot time does not change while pi runs. */
let bootTimeSeconds: number | undefined;

/**
 * When the process now holding `pid` started (unix seconds), or undefined where that cannot be read (no
 * `/proc`, as on macOS; a process that is gone). Small synchronous reads of procfs, asked once per file write.
 */
export function processStartSeconds(pid: number): number | undefined {
	const stat = procStatOf(pid);
	if (!stat) return undefined;
	try {
		bootTimeSeconds ??= bootTimeFromProcStat(readFileSync("/proc/stat", "utf8"));
	} catch {
		return undefined;
	}
	return bootTimeSeconds === undefined ? undefined : processStart(stat, bootTimeSeconds);
}
