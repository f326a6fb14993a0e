import type { EditorPaths, TierVerdict } from "./path-match.ts";
import type { EditorState } from "./state-schema.ts";

/** What pi knows about one `*.json` in the state dir. */
export interface StateEntry {
	fileName: string;
	/**
	 * The file's latest content, when it passed every check. A rejected write clears it: pi no longer knows
	 * what that editor shows, and stale context is worse than none.
	 */
	valid?: ValidState;
	/** Why the latest content of the file was not used. */
	rejection?: string;
	/** The file names a pid that is not running, so it was not read. */
	deadPid?: number;
}

export interface ValidState {
	pid: number;
	state: EditorState;
	paths: EditorPaths;
	/** When pi first saw this selection's `selected_at` (unix seconds); bounds future timestamps. */
	selectionFirstSeenSeconds: number;
}

/** A valid state plus the shell's facts about it right now. */
export interface EditorFacts extends ValidState {
	alive: boolean;
	tier: TierVerdict;
}
