import type { LockDirPlan } from "./core/lock-dirs.ts";
import { type LockFacts, type ReadLock, readLockDir } from "./lockfiles.ts";

/**
 * What the lock dirs hold now, each dir's lockfiles as last read and its verdict. One read of a dir at a time;
 * a change during it reads it once more after (editors write in bursts: a temp file, then a rename).
 */
export class LockTable {
	private readonly locks = new Map<string, ReadLock[]>();
	private readonly verdicts = new Map<string, string>();
	private readonly reading = new Map<string, { again: boolean; done: Promise<void> }>();

	constructor(
		readonly plans: readonly LockDirPlan[],
		private readonly uid: number,
		private readonly facts: LockFacts,
	) {}

	/** Reads the dir (again); resolves once what it holds now is in the table. */
	read(dir: string): Promise<void> {
		const running = this.reading.get(dir);
		if (running) {
			running.again = true;
			return running.done;
		}
		const plan = this.plans.find((candidate) => candidate.path === dir);
		if (!plan) return Promise.resolve();
		const state = { again: false, done: Promise.resolve() };
		state.done = (async () => {
			try {
				do {
					state.again = false;
					const read = await readLockDir(plan, this.uid, this.locks.get(dir) ?? [], this.facts);
					this.verdicts.set(dir, read.verdict);
					this.locks.set(dir, read.locks);
				} while (state.again);
			} finally {
				this.reading.delete(dir);
			}
		})();
		this.reading.set(dir, state);
		return state.done;
	}

	readAll(): Promise<void> {
		return Promise.all(this.plans.map((plan) => this.read(plan.path))).then(() => undefined);
	}

	all(): ReadLock[] {
		return [...this.locks.values()].flat();
	}

	verdict(dir: string): string {
		return this.verdicts.get(dir) ?? "not read yet";
	}
}
