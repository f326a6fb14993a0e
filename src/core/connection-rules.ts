import type { Tier } from "./path-match.ts";

export interface Candidate {
	pid: number;
	tier: { tier: Tier | undefined };
}

/** Only the best non-empty tier counts: when an editor matches exactly, weaker matches are not offered. */
export function bestTier<T extends Candidate>(candidates: readonly T[]): { tier: Tier | undefined; editors: T[] } {
	for (const tier of [0, 1] as const) {
		const editors = candidates.filter((candidate) => candidate.tier.tier === tier);
		if (editors.length > 0) return { tier, editors };
	}
	return { tier: undefined, editors: [] };
}

/** Connect on our own only when exactly one live editor is in the best tier; a tie waits for `/ide`. */
export function autoConnectTarget<T extends Candidate>(liveCandidates: readonly T[]): T | undefined {
	const { editors } = bestTier(liveCandidates);
	return editors.length === 1 ? editors[0] : undefined;
}
