import type { Clock } from "../shared/core/clock.ts";
import type { EditorOrigin } from "./core/editor.ts";
import type { ToolCaller, ToolCallerOpen } from "./tool-caller.ts";

/**
 * How the connected editor can show the model's change as a diff (review/ shows it), by the kind of channel its
 * source holds: each source says which of these it offers for an editor it reads (`EditorSource.diffChannel`),
 * and review/ keeps one host per kind in a table the compiler holds complete.
 */
export type EditorChannel =
	| { kind: "neovim"; channel: NeovimDiffChannel }
	| { kind: "emacs"; channel: EmacsDiffChannel }
	/** The shipped VS Code client's socket beside its state file: connected for each review, closed after. */
	| { kind: "vscode-client"; app: string; connect: () => Promise<ToolCallerOpen> }
	| { kind: "ide-server"; caller: ToolCaller }
	| { kind: "none"; reason: string };

export type EditorChannelKind = EditorChannel["kind"];

/** Why an editor shows no diff when no source of pi's holds a channel to it, by where it is read from. */
export const NO_CHANNEL_REASONS: Record<EditorOrigin, string> = {
	"state-file": "its state-file client cannot show a diff",
	zed: "Zed is read from its database, which cannot show a diff",
	neovim: "pi's connection to that Neovim is not open",
	emacs: "pi's connection to that Emacs is not open",
	"ide-server": "pi's connection to its IDE server is not open",
};

/** One request's answer over an editor's own server: its value (untrusted), or why there is none. */
export type ServerAnswer = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * What a review needs of one Neovim (review/hosts/neovim-host.ts): these functions, not the session. Its chunks
 * of Lua are the review's own (review/core/neovim-diff-lua.ts); this runs them the way every request runs.
 */
export interface NeovimDiffChannel {
	/** pi runs in this Neovim's own terminal (`$NVIM`): a review is opened without taking the user there. */
	readonly enclosing: boolean;
	/** pi's channel id in that Neovim: where its Lua sends the review's notifications. */
	readonly channel: number;
	/** The clock the requests' timeouts run on: a deadline given to `run` is on it. */
	readonly clock: Clock;
	/** `nvim_exec_lua` of one chunk, `nvim_get_mode` first: never sent while Neovim waits for the user. */
	run(what: string, chunk: string, args: readonly unknown[], deadlineMs?: number): Promise<ServerAnswer>;
	/** Every `pi_ide_diff` notification's params as sent (untrusted); returns the unsubscribe. */
	onDiffEvent(listener: (params: unknown) => void): () => void;
	/** Resolves with the reason once the connection is gone ("Neovim closed the connection"). */
	whenClosed(): Promise<string>;
}

/** A review's message from pi's elisp in that Emacs (`{"kind":"review", ...}` on the push connection), unchecked. */
export type ReviewMessage = unknown;

/**
 * What a review needs of one Emacs (review/hosts/emacs-host.ts): these functions, not the session. Its elisp is
 * the review's own (review/core/emacs-diff-elisp.ts); this runs it the way every request to that Emacs runs.
 */
export interface EmacsDiffChannel {
	/** pi runs in this Emacs's own terminal (`INSIDE_EMACS`): a review is opened without taking the user there. */
	readonly enclosing: boolean;
	/** The prefix of every symbol pi's install defined there (`pi-ide-<pi pid>-<n>-`): `<prefix>send` sends a line to pi. */
	readonly prefix: string;
	/** A dir only pi uses (0700): where a review puts the proposal and Emacs writes the accepted text. */
	readonly privateDir: string;
	/** The clock the requests' timeouts run on: a deadline given to `run` is on it. */
	readonly clock: Clock;
	/** One `-eval` of a fixed elisp function with its args (base64 JSON), under the request timeout or the deadline. */
	run(what: string, elispFunction: string, args: unknown, deadlineMs?: number): Promise<ServerAnswer>;
	/** Every `{"kind":"review"}` line from that Emacs as sent (untrusted); returns the unsubscribe. */
	onReviewMessage(listener: (message: ReviewMessage) => void): () => void;
	/** Resolves with the reason once pi's connection with that Emacs is gone. */
	whenClosed(): Promise<string>;
}
