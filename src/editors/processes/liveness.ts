import { processStart } from "./core/pid-reuse.ts";
import { hasExited } from "./core/proc-stat.ts";
import { bootTimeSeconds, procStatOf } from "./proc-files.ts";

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

/**
 * Alive and not exited: `kill(pid, 0)` also succeeds on a zombie (an app that quit and whose parent has not
 * reaped it), which runs no more. Where `/proc` cannot tell, `kill` alone decides.
 */
export function isProcessRunning(pid: number): boolean {
	if (!isProcessAlive(pid)) return false;
	const stat = procStatOf(pid);
	return stat === undefined || !hasExited(stat);
}

/**
 * When the process now holding `pid` started (unix seconds), or undefined where that cannot be read (no
 * `/proc`, as on macOS; a process that is gone). Small synchronous reads of procfs, asked once per file write.
 */
export function processStartSeconds(pid: number): number | undefined {
	const stat = procStatOf(pid);
	const boot = stat && bootTimeSeconds();
	return stat && boot !== undefined ? processStart(stat, boot) : undefined;
}
