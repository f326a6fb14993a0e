import { pidReused } from "../processes/core/pid-reuse.ts";
import { isProcessAlive } from "../processes/liveness.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";

/**
 * The pids a state dir's files name, as pi last found them: alive or not (`kill(pid, 0)`, asked again on every
 * tick only for those believed alive), and whether the pid now belongs to a process started after the file was
 * written (its start time read once per pid and write, not per tick; where asking means spawning `ps`, once per
 * pid, in the background: until the answer the editor is not offered, and then `learned` is told). Pids no file
 * names any more are forgotten.
 */
export class PidLiveness {
	constructor(
		private readonly facts: Pick<ProcessFacts, "knownStart" | "learnStarts">,
		private readonly learned: () => void,
	) {}

	/** The starts of the pids the files name, found out at once (one `ps` where that is how), before a listing. */
	learnStarts(pids: readonly number[]): Promise<void> {
		return this.facts.learnStarts(pids);
	}

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

	/** Whether the pid now belongs to a process started after that write; `"asking"` until that is known. */
	isReused(pid: number, writtenAtSeconds: number): boolean | "asking" {
		const known = this.reuse.get(pid);
		if (known?.writtenAtSeconds === writtenAtSeconds) return known.reused;
		const started = this.facts.knownStart(pid, this.learned);
		if (started === "asking") return started;
		const reused = pidReused(started, writtenAtSeconds);
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
