import type { EditorPaths, TierVerdict } from "./path-match.ts";
import type { EditorState } from "./state-schema.ts";

/** One valid state of an editor as pi read it. */
export interface EditorReading {
	pid: number;
	state: EditorState;
	paths: EditorPaths;
	/** When pi first saw this selection's `selected_at` (unix seconds); bounds future timestamps. */
	selectionFirstSeenSeconds: number;
}

/**
 * An editor in the list pi connects from. `key` is what its source calls it (`pid:1234` for a state file):
 * the connection, the `/ide` picker and the event payload carry it. The pid is only a liveness handle.
 */
export interface Editor extends EditorReading {
	key: string;
	alive: boolean;
	tier: TierVerdict;
}

/** What one `*.json` in a state dir holds for pi. */
export interface StateFileEntry {
	fileName: string;
	/**
	 * The file's latest content, when it passed every check. A rejected write clears it: pi no longer knows
	 * what that editor shows, and stale context is worse than none.
	 */
	reading?: EditorReading;
	/** Why the latest content of the file was not used. */
	rejection?: string;
	/** The file names a pid that is not running, so it was not read. */
	deadPid?: number;
}

/** What a source knows of one key right now: the facts the connection rules decide on. */
export interface KeyFacts {
	/** The source still holds something under the key (a state file, a database row). */
	listed: boolean;
	/** The process behind the key is running. */
	alive: boolean;
	reading?: EditorReading;
	rejection?: string;
}
