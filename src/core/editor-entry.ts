import type { EditorPaths, TierVerdict } from "./path-match.ts";
import type { EditorState } from "./state-schema.ts";

/** What pi knows about one `*.json` in the state dir. */
export interface StateEntry {
	fileName: string;
	/** Last state that passed every check; kept when a later write is rejected (a torn write must not blink the widget). */
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
