import type { EditorFacts, ListedEditor } from "./editor.ts";

/**
 * How much a copy counts by where it came from: a Neovim read over its open server outranks that Neovim's own
 * state file (the public plugin) while it answers; a Neovim waiting for the user (its pushes stopped) ranks below
 * the file. Other origins are equal.
 */
function rank(copy: { origin: EditorFacts["origin"]; blocked?: boolean }): number {
	if (copy.origin !== "neovim") return 1;
	return copy.blocked ? 0 : 2;
}

/**
 * One editor seen by several sources (one pid writing into two state dirs, a Neovim with the plugin read over
 * its server too): which copy counts. The better origin first, then what was written last.
 */
export function listedCopyWins(candidate: ListedEditor, known: ListedEditor | undefined): boolean {
	if (!known) return true;
	if (rank(candidate) !== rank(known)) return rank(candidate) > rank(known);
	return candidate.writtenAtSeconds > known.writtenAtSeconds;
}

/**
 * The facts of one key across sources: a listed copy before one no longer listed, the better origin first,
 * then what was written last (a valid state before a rejection only when it is newer).
 */
export function factsThatCount(copies: readonly EditorFacts[]): EditorFacts | undefined {
	let best: EditorFacts | undefined;
	const factsRank = (facts: EditorFacts) => rank({ origin: facts.origin, blocked: facts.reading?.blocked });
	for (const candidate of copies) {
		if (!candidate.listed) continue;
		if (
			!best ||
			factsRank(candidate) > factsRank(best) ||
			(factsRank(candidate) === factsRank(best) && (candidate.writtenAtSeconds ?? -1) > (best.writtenAtSeconds ?? -1))
		)
			best = candidate;
	}
	return best ?? copies[0];
}
