import type { EditorFacts } from "../editors/core/editor.ts";
import { GUARD_ASK_MS, PROMPT_FLUSH_TIMEOUT_MS } from "../shared/core/timing.ts";
import { unsavedToGuard } from "./core/guarded-unsaved.ts";
import type { UnsavedBuffer } from "./core/unsaved-buffers.ts";

/** What the guard reads of the sources, as functions. */
export interface UnsavedListSources {
	waitForPendingRead: (key: string, deadlineMs: number) => Promise<void>;
	unsavedNow: (key: string, deadlineMs: number, target?: string) => Promise<readonly string[] | undefined>;
	facts: (key: string) => EditorFacts | undefined;
	nowMs: () => number;
}

/**
 * The files the editor under `key` holds unsaved, decided on its latest word: a write of its state being
 * read right now is waited for (as a prompt waits), then an editor that can be asked (a Neovim, an Emacs, an IDE server) is asked,
 * all of that within one short budget, then core/guarded-unsaved.ts decides.
 */
export async function unsavedOfEditor(
	key: string,
	sources: UnsavedListSources,
	target?: string,
): Promise<UnsavedBuffer[]> {
	await sources.waitForPendingRead(key, PROMPT_FLUSH_TIMEOUT_MS);
	const askedNow = await sources.unsavedNow(key, sources.nowMs() + GUARD_ASK_MS, target);
	return unsavedToGuard(sources.facts(key), askedNow);
}
