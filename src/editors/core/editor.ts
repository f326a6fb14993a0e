import type { GoneReason } from "../../prompt/core/editor-block.ts";
import type { SecretFileMatch } from "../../safety/core/secret-files.ts";
import type { EditorState } from "./protocol-state.ts";
import type { EditorPaths, TierVerdict } from "./tiers.ts";

/** One valid state of an editor as pi read it. */
export interface EditorReading {
	pid: number;
	state: EditorState;
	paths: EditorPaths;
	/** When pi first saw this selection's `selected_at` (unix seconds); bounds future timestamps. */
	selectionFirstSeenSeconds: number;
	/** When the source last wrote it (a state file's mtime, unix seconds): the newest of two copies wins. */
	writtenAtSeconds: number;
	/** Other files the editor holds with unsaved changes (Zed tells every tab's): the unsaved guard covers them. */
	unsavedFiles?: readonly string[];
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
	/** The file's mtime (unix seconds) when it could be stat-ed. */
	writtenAtSeconds?: number;
}

/** What a source knows of one key right now: the facts the connection rules decide on. */
export interface KeyFacts {
	/** The source still holds something under the key (a state file, a database row). */
	listed: boolean;
	/** The process behind the key is running. */
	alive: boolean;
	reading?: EditorReading;
	rejection?: string;
	/** When the source last wrote what it holds under the key (unix seconds), when known. */
	writtenAtSeconds?: number;
	/** An editor read from its own database (Zed), not a state file: a connection ends in other words. */
	fromDatabase?: boolean;
}

/** The connected editor's state for a prompt, or why there is none. */
export type ConnectedView =
	| {
			kind: "editor";
			state: EditorState;
			selectionFirstSeenSeconds: number;
			nowSeconds: number;
			/** Real path of the active file. */
			realFile?: string;
			/** Set when the active file is a secret file: its selection text stays on the machine. */
			secret?: SecretFileMatch;
			/** Other files with unsaved changes in the editor, beside the active one. */
			unsavedFiles?: readonly string[];
	  }
	| { kind: "gone"; reason: GoneReason };
