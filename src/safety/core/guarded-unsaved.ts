import type { EditorFacts } from "../../editors/core/editor.ts";
import { type UnsavedBuffer, unsavedBuffers, unsavedFromWholeList } from "./unsaved-buffers.ts";

/**
 * What the guard covers for one editor at a tool call. The guard fails closed: a latest state that was
 * rejected (a torn write, a snapshot pi could not use) leaves the last valid one's unsaved files guarded
 * until a valid state replaces it or the editor goes. A list the editor gave when asked just now decides over
 * what it pushed.
 */
export function unsavedToGuard(
	facts: EditorFacts | undefined,
	askedNow: readonly string[] | undefined,
): UnsavedBuffer[] {
	if (!facts?.listed || !facts.alive) return [];
	const reading = facts.reading ?? facts.lastValid;
	if (!reading) return (askedNow ?? []).map((file) => ({ file, name: file }));
	if (askedNow) return unsavedFromWholeList(reading.state, reading.paths.activeFile, askedNow);
	return unsavedBuffers(reading.state, reading.paths.activeFile, reading.unsavedFiles);
}
