import { absoluteFile } from "./active-buffer.ts";
import type { EditorFacts, EditorOrigin, EditorReading, ListedEditor } from "./editor.ts";

/**
 * How much a copy counts by where it came from: a Neovim or an Emacs read over its open server outranks that
 * editor's own state file (Neovim's public plugin) while it answers; one waiting for the user (its pushes stopped)
 * or busy ranks below the file. An IDE server of an editor read another way is never connected to (its source
 * leaves it out): below all. Every origin has its row, so a new one does not compile until it says where it stands.
 */
const COPY_RANKS: Record<EditorOrigin, { answering: number; blocked: number }> = {
	"ide-server": { answering: -1, blocked: -1 },
	"state-file": { answering: 1, blocked: 1 },
	zed: { answering: 1, blocked: 1 },
	neovim: { answering: 2, blocked: 0 },
	emacs: { answering: 2, blocked: 0 },
};

function rank(copy: { origin: EditorOrigin; blocked?: boolean }): number {
	const ranks = COPY_RANKS[copy.origin];
	return copy.blocked ? ranks.blocked : ranks.answering;
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
 * The facts of one key across sources: a listed copy before one no longer listed; between two channels (a
 * Neovim's server and its plugin's file), a copy with a reading before one without, so a rejected server
 * snapshot never hides the plugin's valid file; then the better origin, then what was written last. Within
 * one channel (one pid writing into two state dirs) the newest write counts even when it was rejected: the
 * older valid state is stale, and pi sends nothing stale.
 */
export function factsThatCount(copies: readonly EditorFacts[]): EditorFacts | undefined {
	const newest = (facts: EditorFacts) => [
		rank({ origin: facts.origin, blocked: facts.reading?.blocked }),
		facts.writtenAtSeconds ?? -1,
	];
	// Each channel's newest copy first, so that the order the sources are asked in decides nothing.
	const perChannel = new Map<EditorFacts["origin"], EditorFacts>();
	for (const candidate of copies) {
		const known = perChannel.get(candidate.origin);
		if (candidate.listed && (!known || isAhead(newest(candidate), newest(known))))
			perChannel.set(candidate.origin, candidate);
	}
	let best: EditorFacts | undefined;
	for (const candidate of perChannel.values()) {
		const ahead = [candidate.reading ? 1 : 0, ...newest(candidate)];
		if (!best || isAhead(ahead, [best.reading ? 1 : 0, ...newest(best)])) best = candidate;
	}
	return best ?? copies[0];
}

/** The first place where two orders differ decides; equal orders keep the copy seen first. */
function isAhead(candidate: readonly number[], known: readonly number[]): boolean {
	const at = candidate.findIndex((value, index) => value !== known[index]);
	return at >= 0 && (candidate[at] as number) > (known[at] as number);
}

/**
 * One editor over two channels, what one copy timed and the other cannot know: a Neovim's server cannot time
 * marks made before pi connected (`selected_at: null`) while its plugin's file did. When another copy holds the
 * same selection (file, start, end, text), its `selected_at` and when pi first saw it are taken from the copy
 * that timed it, the later one when several did; nothing else is copied.
 */
export function withSelectionTimed<T extends EditorReading>(counted: T, copies: readonly EditorReading[]): T {
	const buffer = counted.state.active_buffer;
	const selection = buffer?.selection;
	if (!buffer || !selection) return counted;
	const file = absoluteFile(counted.state);
	let timer: EditorReading | undefined;
	let latest = typeof selection.selected_at === "number" ? selection.selected_at : undefined;
	for (const copy of copies) {
		const other = copy.state.active_buffer?.selection;
		if (copy === counted || typeof other?.selected_at !== "number" || absoluteFile(copy.state) !== file) continue;
		const same =
			other.text === selection.text &&
			other.start.line === selection.start.line &&
			other.start.column === selection.start.column &&
			other.end.line === selection.end.line &&
			other.end.column === selection.end.column;
		if (same && (latest === undefined || other.selected_at > latest)) {
			latest = other.selected_at;
			timer = copy;
		}
	}
	if (!timer) return counted;
	return {
		...counted,
		selectionFirstSeenSeconds: timer.selectionFirstSeenSeconds,
		state: { ...counted.state, active_buffer: { ...buffer, selection: { ...selection, selected_at: latest } } },
	};
}
