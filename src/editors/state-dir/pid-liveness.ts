import { pidReused } from "../processes/core/pid-reuse.ts";
import { isProcessAlive, processStartSeconds } from "../processes/liveness.ts";

/**
 * The pids a state dir's files name, as pi last found them: alive or not (`kill(pid, 0)`, asked again on every
 * tick only for those believed alive), and whether the pid now belongs to a process started after the file was
 * written (its start time read once per pid and write, not per tick). Pids no file names any more are forgotten.
 */
export class PidLiveness {
	private readonly alive = new Map<number, boolean>();
	/** Per pid, the file write its start time was compared with. */
	private readonly reuse = new Map<number, { writtenAtSeconds: number; reused: boolean }>();

	/** As last found; asked now for a pid not seen before. */
	isAlive(pid: number): boolean {
		return this.alive.get(pid) ?? this.checkAlive(pid);
	}

	/** Asked now. */
	checkAlive(pid: number): boolean {
		const alive = isProcessAlive(pid);
		this.alive.set(pid, alive);
		return alive;
	}

	/** Every pid believed alive asked again; true when one died. A dead editor's file is read again when written. */
	checkBelievedAlive(): boolean {
		let died = false;
		// `forEach`, not `for...of` over the entries: no [pid, alive] pair made per known pid twice a second.
		this.alive.forEach((alive, pid) => {
			if (alive && !this.checkAlive(pid)) died = true;
		});
		return died;
	}

	isReused(pid: number, writtenAtSeconds: number): boolean {
		const known = this.reuse.get(pid);
		if (known?.writtenAtSeconds === writtenAtSeconds) return known.reused;
		const reused = pidReused(processStartSeconds(pid), writtenAtSeconds);
		this.reuse.set(pid, { writtenAtSeconds, reused });
		return reused;
	}

	/** Once the records outgrow the files (twice as many), those of pids `named` leaves out are dropped. */
	forgetOthers(fileCount: number, named: () => ReadonlySet<number>): void {
		if (this.alive.size + this.reuse.size <= 2 * fileCount) return;
		const known = named();
		for (const pid of this.alive.keys()) if (!known.has(pid)) this.alive.delete(pid);
		for (const pid of this.reuse.keys()) if (!known.has(pid)) this.reuse.delete(pid);
	}
}
