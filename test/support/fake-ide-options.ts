import type { IdeFlavour } from "./ide-server-flavours.ts";

/** How a fake IDE server is started: its flavour, its lockfile, and how it misbehaves or answers diffs. */
export interface FakeIdeServerOptions {
	flavour: IdeFlavour;
	/** Where `<port>.lock` goes (the caller picks ~/.claude/ide or ~/.pi/ide under a temp root). */
	lockDir: string;
	workspaceFolders: string[];
	/** The lockfile's pid: default this process; null leaves the field out. */
	pid?: number | null;
	/** Instead of the flavour's ideName. */
	ideName?: string;
	/** Default: a fresh token as the flavour makes one (none for claude-code-ide.el); null: no authToken. */
	token?: string | null;
	/** Default true: a 0644 file, its directory made 0700 when missing. */
	writeLockfile?: boolean;
	/**
	 * `silent` accepts the socket and never answers; `nonsense` answers every request with non-JSON text;
	 * `huge-frame` answers initialize with a 10 MB text frame; `refuse-subprotocol` accepts and never echoes a
	 * subprotocol (nor requires one), whatever the flavour.
	 */
	misbehave?: "silent" | "nonsense" | "huge-frame" | "refuse-subprotocol";
	/**
	 * How long after initialize a replaying flavour (VS Code) pushes the last selection: default 500 ms; `held`
	 * waits for `releaseReplay()` (a test that must see the replay land after the connect's own queries).
	 */
	replayDelayMs?: number | "held";
	/** WebSocket ping interval of ws-ping flavours: default 30 000 ms; a client silent for two intervals is dropped. */
	wsPingMs?: number;
	/** How the "user" answers every openDiff: default FILE_SAVED with the proposed text. */
	diffOutcome?: "FILE_SAVED" | "DIFF_REJECTED";
	/** What the "user" leaves in the proposed side before saving (their edits): the proposal by default. */
	diffText?: (proposed: string) => string;
}
