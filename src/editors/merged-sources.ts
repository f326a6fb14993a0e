import type { Clock } from "../shared/core/clock.ts";
import { RECHECK_EVERY_TICKS } from "../shared/core/timing.ts";
import { factsThatCount, listedCopyWins, withSelectionTimed } from "./core/copies.ts";
import type { EditorFacts, ListedEditor } from "./core/editor.ts";
import type { EditorSource } from "./editor-source.ts";

/**
 * All sources as one: every editor once, by its key. The same key from two sources (one pid writing into two
 * state dirs) is one editor, and which copy counts is a rule of core/copies.ts.
 */
export class MergedSources {
	private ticks = 0;

	constructor(
		private readonly sources: readonly EditorSource[],
		private readonly clock: Clock,
	) {}

	async start(): Promise<void> {
		await Promise.all(this.sources.map((source) => source.start()));
	}

	async close(): Promise<void> {
		await Promise.all(this.sources.map((source) => source.close()));
	}

	editors(): ListedEditor[] {
		const copiesByKey = new Map<string, ListedEditor[]>();
		for (const source of this.sources)
			for (const editor of source.editors())
				copiesByKey.set(editor.key, [...(copiesByKey.get(editor.key) ?? []), editor]);
		return [...copiesByKey.values()].map((copies) => {
			const counted = copies.reduce((known, candidate) => (listedCopyWins(candidate, known) ? candidate : known));
			// Almost always one copy: the selection's time is looked for only where there are two.
			return copies.length === 1 ? counted : withSelectionTimed(counted, copies);
		});
	}

	facts(key: string): EditorFacts | undefined {
		const copies = this.sources.flatMap((source) => source.facts(key) ?? []);
		const counted = factsThatCount(copies);
		if (!counted?.reading || copies.length < 2) return counted;
		const readings = copies.flatMap((facts) => (facts.listed && facts.reading ? [facts.reading] : []));
		return { ...counted, reading: withSelectionTimed(counted.reading, readings) };
	}

	checkLiveness(): boolean {
		let died = false;
		for (const source of this.sources) if (source.checkLiveness()) died = true;
		return died;
	}

	/**
	 * Counts one liveness tick and returns the re-checks due on it: every source's every few ticks, a source's that
	 * lost what it watched at once. Most ticks nothing is due and nothing is made (no promise, no array, no task):
	 * an idle pi wakes twice a second, and that wake-up should cost the liveness checks alone.
	 */
	recheckDue(): (() => Promise<void>) | undefined {
		const everySource = ++this.ticks % RECHECK_EVERY_TICKS === 0;
		if (!everySource && !this.someLost()) return undefined;
		return () => this.recheck(everySource);
	}

	private async recheck(everySource: boolean): Promise<void> {
		await Promise.all(this.sources.filter((source) => everySource || source.lost).map((source) => source.recheck()));
	}

	private someLost(): boolean {
		for (const source of this.sources) if (source.lost) return true;
		return false;
	}

	/** Every source looks again now (`/ide`): what appeared since is listed before the picker opens. */
	async lookAgain(): Promise<void> {
		await Promise.all(this.sources.map((source) => source.lookAgain()));
	}

	/**
	 * The editor's unsaved files asked of it now by whichever source can ask (a Neovim), answered by the clock's
	 * `deadlineMs`; undefined when no source could.
	 */
	async unsavedNow(key: string, deadlineMs: number, target?: string): Promise<readonly string[] | undefined> {
		const answers = await Promise.all(this.sources.map((source) => source.unsavedNow(key, deadlineMs, target)));
		return answers.find((answer) => answer !== undefined);
	}

	/** Waits for a read of that editor's state under way or due, but never longer than `deadlineMs`. */
	async waitForPendingRead(key: string, deadlineMs: number): Promise<void> {
		if (!this.sources.some((source) => source.isPending(key))) return;
		let cancel: (() => void) | undefined;
		const deadline = new Promise<void>((done) => {
			cancel = this.clock.after(deadlineMs, done);
		});
		await Promise.race([Promise.all(this.sources.map((source) => source.flush(key))), deadline]);
		cancel?.();
	}
}
