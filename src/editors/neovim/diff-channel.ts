import type { Clock } from "../../shared/core/clock.ts";
import type { RpcAnswer } from "./rpc.ts";

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
	run(what: string, chunk: string, args: readonly unknown[], deadlineMs?: number): Promise<RpcAnswer>;
	/** Every `pi_ide_diff` notification's params as sent (untrusted); returns the unsubscribe. */
	onDiffEvent(listener: (params: unknown) => void): () => void;
	/** Resolves with the reason once the connection is gone ("Neovim closed the connection"). */
	whenClosed(): Promise<string>;
}
