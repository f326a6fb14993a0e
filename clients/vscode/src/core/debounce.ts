/** The timers the debounce runs on: the system's in VS Code, a test's own in tests. */
export interface Timers {
	set: (run: () => void, ms: number) => unknown;
	clear: (handle: unknown) => void;
}

/**
 * At most one write per `ms` while events come, the last state always written: a change reaches the file
 * within `ms`, and nothing runs while nothing happens.
 */
export class Debounce {
	private handle: unknown;

	constructor(
		private readonly ms: number,
		private readonly run: () => void,
		private readonly timers: Timers,
	) {}

	schedule(): void {
		if (this.handle !== undefined) return;
		this.handle = this.timers.set(() => {
			this.handle = undefined;
			this.run();
		}, this.ms);
	}

	/** Runs a scheduled write now (deactivate), or nothing when none is due. */
	flush(): void {
		if (this.handle === undefined) return;
		this.timers.clear(this.handle);
		this.handle = undefined;
		this.run();
	}

	cancel(): void {
		if (this.handle !== undefined) this.timers.clear(this.handle);
		this.handle = undefined;
	}
}
