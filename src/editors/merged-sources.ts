import { newestFacts } from "../connection/core/rules.ts";
import type { Editor, KeyFacts } from "./core/editor.ts";
import type { EditorSource } from "./editor-source.ts";

/** The source's standing is re-checked every this many liveness ticks (2 s at 500 ms): one lstat each. */
const RECHECK_EVERY_TICKS = 4;

/**
 * All sources as one: every editor once, by its key. The same key from two sources (one pid writing into two
 * state dirs) is one editor, and what was written last counts.
 */
export class EditorList implements EditorSource {
	private ticks = 0;

	constructor(private readonly sources: readonly (EditorSource & { readonly lost?: boolean })[]) {}

	async start(): Promise<void> {
		await Promise.all(this.sources.map((source) => source.start()));
	}

	async close(): Promise<void> {
		await Promise.all(this.sources.map((source) => source.close()));
	}

	editors(): Omit<Editor, "tier">[] {
		const byKey = new Map<string, Omit<Editor, "tier">>();
		for (const source of this.sources) {
			for (const editor of source.editors()) {
				const known = byKey.get(editor.key);
				if (!known || editor.writtenAtSeconds > known.writtenAtSeconds) byKey.set(editor.key, editor);
			}
		}
		return [...byKey.values()];
	}

	facts(key: string): KeyFacts | undefined {
		return newestFacts(this.sources.flatMap((source) => source.facts(key) ?? []));
	}

	checkLiveness(): boolean {
		let died = false;
		for (const source of this.sources) if (source.checkLiveness()) died = true;
		return died;
	}

	/** Called every tick: each source every few ticks, or at once when it lost what it watched. */
	async recheck(): Promise<void> {
		const due = ++this.ticks % RECHECK_EVERY_TICKS === 0;
		await Promise.all(this.sources.filter((source) => due || source.lost).map((source) => source.recheck()));
	}

	isPending(key: string): boolean {
		return this.sources.some((source) => source.isPending(key));
	}

	async flush(key: string): Promise<void> {
		await Promise.all(this.sources.map((source) => source.flush(key)));
	}

	/** Waits for a read of that editor's state under way or due, but never longer than the deadline. */
	async settle(key: string, deadlineMs: number): Promise<void> {
		if (!this.isPending(key)) return;
		let timer: NodeJS.Timeout | undefined;
		const deadline = new Promise<void>((done) => {
			timer = setTimeout(done, deadlineMs);
		});
		await Promise.race([this.flush(key), deadline]);
		clearTimeout(timer);
	}
}
