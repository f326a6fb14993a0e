import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import type { EvalAnswer } from "./server-client.ts";

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
	run(what: string, elispFunction: string, args: unknown, deadlineMs?: number): Promise<EvalAnswer>;
	/** Every `{"kind":"review"}` line from that Emacs as sent (untrusted); returns the unsubscribe. */
	onReviewMessage(listener: (message: ReviewMessage) => void): () => void;
	/** Resolves with the reason once pi's connection with that Emacs is gone. */
	whenClosed(): Promise<string>;
}

/** One Emacs's review lines (`{"kind":"review"}` on its push connection) and the channel a review listens on. */
export class ReviewLines {
	private readonly listeners = new Set<(message: ReviewMessage) => void>();

	/** A review line in: every subscribed review hears it (each checks whether it is its own). */
	deliver(message: ReviewMessage): void {
		for (const listener of [...this.listeners]) void runInBackground("emacs review message", () => listener(message));
	}

	/** The review's channel into that Emacs: the session's functions, and these lines to listen to. */
	channel(parts: Omit<EmacsDiffChannel, "onReviewMessage">): EmacsDiffChannel {
		const listeners = this.listeners;
		return {
			...parts,
			onReviewMessage(listener) {
				// Each subscription its own entry: the same function given twice is two subscriptions.
				const entry = (message: ReviewMessage) => listener(message);
				listeners.add(entry);
				return () => listeners.delete(entry);
			},
		};
	}
}
