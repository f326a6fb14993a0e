import { runInBackground } from "../../shared/background.ts";
import type { Cancel, Clock } from "../../shared/core/clock.ts";

/**
 * When a source scans `/proc`: one scan at a time, a request during one runs once more after it (a second
 * Emacs just started); after a dir event, a scan after each of `delaysMs` in turn while the scan asks for
 * another look (a socket just bound may not listen yet).
 */
export class ScanSchedule {
	private running?: Promise<void>;
	private queued = false;
	private cancelDelay?: Cancel;
	private closed = false;

	/** `scan` gets whether a look after a delay should follow it (`lookAgain`: call it to ask for one). */
	constructor(
		private readonly task: string,
		private readonly scan: (followUp: (() => void) | undefined) => Promise<void>,
		private readonly clock: Clock,
		private readonly delaysMs: readonly number[],
	) {}

	/** A scan now (or after the one running); never rejects: a scan that throws is recorded for `/ide status`. */
	now(followUp?: () => void): Promise<void> {
		if (this.running) {
			this.queued = true;
			return this.running;
		}
		this.running = runInBackground(this.task, () => this.scan(followUp)).finally(() => {
			this.running = undefined;
			if (this.queued && !this.closed) {
				this.queued = false;
				void this.now();
			}
		});
		return this.running;
	}

	/** A dir event: a scan after the first delay, and after the next ones while each scan asks for a follow-up. */
	soon(index = 0): void {
		if (this.closed || this.cancelDelay) return;
		this.cancelDelay = this.clock.after(this.delaysMs[index] ?? 0, () => {
			this.cancelDelay = undefined;
			const next = index + 1;
			void this.now(next < this.delaysMs.length ? () => this.soon(next) : undefined);
		});
	}

	/** Nothing more is scheduled; resolves once the scan running now has ended. */
	async close(): Promise<void> {
		this.closed = true;
		this.cancelDelay?.();
		await this.running;
	}
}
