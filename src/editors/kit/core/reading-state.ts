import type { EditorReading } from "../../core/editor.ts";

/** One snapshot an editor's server gave, taken: checked and turned into a reading, or why it was refused. */
export type TakenSnapshot<Snapshot> =
	| { ok: true; snapshot: Snapshot; reading: EditorReading; cuts: readonly string[] }
	| { ok: false; reason: string };

/**
 * What one connection knows of its editor now: the reading (none while the latest state was refused, so nothing
 * stale is sent), the latest snapshot that passed (what `/ide status` shows of it), what pi cut from it, and the
 * problem: the refusal's reason, or the connection's own (refused, closed).
 */
export class ReadingState<Snapshot> {
	reading?: EditorReading;
	snapshot?: Snapshot;
	problem?: string;
	cuts: readonly string[] = [];

	take(taken: TakenSnapshot<Snapshot>): void {
		this.problem = taken.ok ? undefined : taken.reason;
		this.cuts = taken.ok ? taken.cuts : [];
		this.reading = taken.ok ? taken.reading : undefined;
		if (taken.ok) this.snapshot = taken.snapshot;
	}

	/** Its `/ide status` fields: the problem and the cuts, when there are any. */
	reportFields(): { problem?: string; cuts?: readonly string[] } {
		return {
			...(this.problem !== undefined && { problem: this.problem }),
			...(this.cuts.length > 0 && { cuts: this.cuts }),
		};
	}
}
