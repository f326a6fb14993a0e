import type { EditorState } from "./protocol-state.ts";
import type { EditorPaths, TierVerdict } from "./tiers.ts";

/**
 * Where an editor was read: its own state file (protocol v0.2), Zed's state database, a Neovim's own server, an
 * Emacs's own server (and the push connection pi's elisp opens back), or the IDE server its editor runs for
 * Claude Code (a lockfile and MCP over a WebSocket). The merged list
 * ranks two copies of one key by it (core/copies.ts), and a connection to it ends in its own words.
 */
export type EditorOrigin = "state-file" | "zed" | "neovim" | "emacs" | "ide-server";

/** Why a source cannot tell unsaved changes (see `EditorReading.unsavedUnknown`). */
export type UnsavedUnknown = "no-unsaved-text" | "not-told";

/** One valid state of an editor as pi read it. */
export interface EditorReading {
	origin: EditorOrigin;
	pid: number;
	state: EditorState;
	paths: EditorPaths;
	/** When pi first saw this selection's `selected_at` (unix seconds); bounds future timestamps. */
	selectionFirstSeenSeconds: number;
	/** When the source last wrote it (a state file's mtime, unix seconds): the newest of two copies wins. */
	writtenAtSeconds: number;
	/**
	 * Files the editor holds with unsaved changes (Zed tells every tab's, Neovim and `unsaved_files` the whole
	 * list, the active file maybe among them): the unsaved guard covers them.
	 */
	unsavedFiles?: readonly string[];
	/**
	 * Not what the user looks at now: a workspace its window does not show (Zed's sidebar holds several). Its
	 * selection is never fresh, `/ide` marks it, and pi does not connect to it on its own.
	 */
	hidden?: boolean;
	/**
	 * The source cannot know about unsaved changes, and why: Zed with `restore_unsaved_buffers: false` stores no
	 * unsaved text (a dirty buffer looks saved, positions count the file on disk); an IDE server that offers no
	 * way to ask (JetBrains): positions are the editor's own, whether its buffer is saved is not told.
	 */
	unsavedUnknown?: UnsavedUnknown;
	/**
	 * Neovim waits for the user (a prompt) or does not answer, an Emacs did not answer its last request in time
	 * (a long command): what it pushed last still stands, but a state file of the same editor, if any, is newer news.
	 */
	blocked?: boolean;
	/**
	 * pi runs in this editor's terminal (`$NVIM`; `INSIDE_EMACS` with that Emacs among pi's ancestors): the
	 * editor meant, above every tier.
	 */
	enclosing?: boolean;
	/**
	 * The selection covers whole lines, as its source can tell (Neovim's `V` or a multi-line selection, Zed from
	 * the text it holds, a state file multi-line by the protocol): only then may a line reference be served from
	 * it. Unset for a one-line selection from column 1 of a state file: whole only when it equals the line on disk.
	 */
	wholeLineSelection?: boolean;
	/**
	 * Connected only when the user picks it (`/ide`): an IDE server may keep one client or belong to one Claude
	 * session, and pi does not cut another agent off unasked (`"ideServers": "auto"` lifts it, an eviction sets it).
	 */
	byHand?: boolean;
	/** The name the editor gives itself (an IDE server's `ideName`): shown instead of its `app`. */
	name?: string;
	/** Read over an IDE server: `/ide` marks it, and whether pi holds a connection to it now. */
	ideServer?: { connected: boolean };
}

/** An editor as its source lists it: its key, and whether its process runs now. */
export interface ListedEditor extends EditorReading {
	/**
	 * What its source calls it (`pid:1234` for a state file): the connection, the `/ide` picker and the event
	 * payload carry it. The pid is only a liveness handle.
	 */
	key: string;
	alive: boolean;
}

/** An editor in the list pi connects from, with how well it matches the project. */
export interface Editor extends ListedEditor {
	match: TierVerdict;
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
	/** The newest valid reading while the latest content is rejected (see `EditorFacts.lastValid`). */
	lastValid?: EditorReading;
	/** Optional fields of the latest content that were malformed and left out, each with why. */
	dropped?: readonly string[];
	/** The file names a pid that is not running, so it was not read. */
	deadPid?: number;
	/** The file's mtime (unix seconds) when it could be stat-ed. */
	writtenAtSeconds?: number;
}

/** What a source knows of one key right now: the facts the connection rules decide on. */
export interface EditorFacts {
	origin: EditorOrigin;
	/** The source still holds something under the key (a state file, a database row). */
	listed: boolean;
	/** The process behind the key is running. */
	alive: boolean;
	reading?: EditorReading;
	rejection?: string;
	/**
	 * While the latest state is rejected: the newest valid one before it. Nothing is sent from it (pi does not
	 * know what the editor shows now), but the unsaved guard keeps covering what it said was unsaved.
	 */
	lastValid?: EditorReading;
	/** When the source last wrote what it holds under the key (unix seconds), when known. */
	writtenAtSeconds?: number;
	/**
	 * The editor's side ended pi's connection while it still runs: its server closed it (another client took it)
	 * or refused it. pi disconnects, says why (`rejection`), and does not connect again on its own.
	 */
	ended?: "closed-by-editor" | "connect-failed";
}

/** Why there is no editor to describe now, once the model has been told about one. */
export type GoneReason = "disconnected" | "no-file" | "rejected";

/** What a source tells the event log of its own standing: dirs coming and going, an app found or quit. */
export type SourceEvent =
	| { kind: "dir-appeared"; dir: string }
	| { kind: "dir-gone"; dir: string }
	| { kind: "dir-untrusted"; dir: string; reason: string }
	| { kind: "app-found"; label: string; detail: string }
	| { kind: "app-gone"; label: string };
