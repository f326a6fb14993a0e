import type { EditorFacts, ListedEditor } from "./editor.ts";

/**
 * One editor seen by several sources (one pid writing into two state dirs): which copy counts. Today what was
 * written last; the rule has the origin at hand for sources that outrank a file (a live connection).
 */
export function listedCopyWins(candidate: ListedEditor, known: ListedEditor | undefined): boolean {
	return !known || candidate.writtenAtSeconds > known.writtenAtSeconds;
}

/**
 * The facts of one key across sources: what was written last counts, a valid state before a rejection only
 * when it is newer; a copy that is no longer listed counts only when no copy is.
 */
export function factsThatCount(copies: readonly EditorFacts[]): EditorFacts | undefined {
	let newest: EditorFacts | undefined;
	for (const candidate of copies) {
		if (!candidate.listed) continue;
		if (!newest || (candidate.writtenAtSeconds ?? -1) > (newest.writtenAtSeconds ?? -1)) newest = candidate;
	}
	return newest ?? copies[0];
}
