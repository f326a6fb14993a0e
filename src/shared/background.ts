/**
 * Work pi-ide does on its own (a scan, a read, a push decided, a timer's or a watcher's callback) runs outside
 * any pi handler: a rejection nobody awaits, or a throw inside a callback, would end pi's process. Everything
 * that runs in the background goes through here: a failure is recorded for `/ide status`, never thrown on.
 */

import type { BackgroundFailure } from "./core/background-failure.ts";

export type { BackgroundFailure };

/** Distinct tasks remembered at most: the names are fixed strings, so this bounds only a bug's worth of them. */
const MAX_TASKS = 32;
/** A reason is cut here before it is kept: a thrown value may be anything, of any size. */
const MAX_REASON_CHARS = 500;

const FAILURES_KEY = Symbol.for("pi-ide-context.background-failures");

function failuresStore(): Map<string, BackgroundFailure> {
	const holder = globalThis as { [FAILURES_KEY]?: Map<string, BackgroundFailure> };
	holder[FAILURES_KEY] ??= new Map();
	return holder[FAILURES_KEY];
}

function reasonOf(error: unknown): string {
	let text: string;
	try {
		text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
	} catch {
		text = "a value that cannot be shown";
	}
	return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}

/** Records a failure of `task`: `/ide status` shows it, a pi process keeps running. */
export function recordBackgroundFailure(task: string, error: unknown): void {
	const store = failuresStore();
	const known = store.get(task);
	const failure = {
		task,
		count: (known?.count ?? 0) + 1,
		lastReason: reasonOf(error),
		lastAtSeconds: Date.now() / 1000,
	};
	store.delete(task);
	store.set(task, failure);
	if (store.size > MAX_TASKS) store.delete(store.keys().next().value as string);
}

/**
 * Starts `work` and lets it run: nobody waits for it, and whatever it throws or rejects with is recorded under
 * `task`. Returns the promise for a caller that does want to wait (it never rejects).
 */
export function runInBackground(task: string, work: () => unknown): Promise<void> {
	try {
		const result = work();
		if (result instanceof Promise)
			return result.then(
				() => undefined,
				(error: unknown) => recordBackgroundFailure(task, error),
			);
	} catch (error) {
		recordBackgroundFailure(task, error);
	}
	return Promise.resolve();
}

/** `callback` for a timer, `setImmediate` or a watcher: a throw, or a promise it returns rejecting, is recorded. */
export function guarded<Args extends unknown[]>(
	task: string,
	callback: (...args: Args) => unknown,
): (...args: Args) => void {
	return (...args) => {
		void runInBackground(task, () => callback(...args));
	};
}

/** Every task that failed in this pi process, the latest failure last. */
export function backgroundFailures(): BackgroundFailure[] {
	return [...failuresStore().values()];
}

/** Tests start from none. */
export function forgetBackgroundFailures(): void {
	failuresStore().clear();
}
