import { sameStart } from "./core/backend-choice.ts";
import { isProcessAlive } from "./liveness.ts";

/**
 * When each pid pi has seen started, kept while the pid lives: the synchronous questions (does the editor that
 * wrote this file still run, is its pid reused) are answered from here where asking the system means spawning a
 * process. A record is made when a pid is first seen and dropped the first time `kill(pid, 0)` says it is gone.
 */
export class PidRecords {
	private readonly starts = new Map<number, number>();

	note(pid: number, startSeconds: number): void {
		this.starts.set(pid, startSeconds);
	}

	/** Its start as recorded, if the pid still runs. */
	startOf(pid: number): number | undefined {
		const start = this.starts.get(pid);
		if (start === undefined) return undefined;
		if (isProcessAlive(pid)) return start;
		this.starts.delete(pid);
		return undefined;
	}

	/** Runs, and (given) is the process recorded with that start. */
	runs(pid: number, startSeconds?: number): boolean {
		if (!isProcessAlive(pid)) {
			this.starts.delete(pid);
			return false;
		}
		const known = this.starts.get(pid);
		return startSeconds === undefined || known === undefined || sameStart(known, startSeconds);
	}

	get size(): number {
		return this.starts.size;
	}
}
