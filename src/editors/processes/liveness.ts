/**
 * `kill(pid, 0)`: the only liveness signal the protocol has, on every backend. EPERM means the process exists but
 * belongs to someone else, which still counts as alive. pid 0 and negative pids address process groups, never an
 * editor.
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
