import { type EditorPaths, scoreTier } from "../../core/tiers.ts";

/** One open editor read over its own server (a Neovim, an Emacs) as the push rule sees it. */
export interface PushCandidate {
	/** Its latest reading's paths; undefined while it has not described itself (or described nonsense). */
	paths: EditorPaths | undefined;
	hasUi: boolean;
	/** pi runs in its terminal (`$NVIM`; an Emacs among pi's ancestors with `INSIDE_EMACS`). */
	enclosing: boolean;
	/** It is the connected editor (one picked by hand pushes whatever its tier). */
	connected: boolean;
}

/**
 * Which editors of one source push: those with a UI (an Emacs: a frame a user sees) in the best tier for the
 * project, the one pi runs in, and the connected one; none while pi is paused or closing, and none without a
 * UI (a user does nothing there: the one pi runs in or the connected one too, until a UI comes back).
 * undefined: left as it is (what it shows is unknown right now).
 */
export function pushesWanted(
	candidates: readonly PushCandidate[],
	projectDir: string,
	stopped: boolean,
): (boolean | undefined)[] {
	const tiers = candidates.map((candidate) =>
		candidate.paths && candidate.hasUi ? scoreTier(candidate.paths, projectDir).tier : undefined,
	);
	const best = Math.min(...tiers.map((tier) => tier ?? Number.POSITIVE_INFINITY));
	return candidates.map((candidate, index) => {
		if (stopped) return false;
		if (!candidate.paths) return undefined;
		if (!candidate.hasUi) return false;
		return tiers[index] === best || candidate.enclosing || candidate.connected;
	});
}
