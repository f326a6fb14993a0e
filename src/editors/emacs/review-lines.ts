import { runInBackground } from "../../shared/background.ts";
import type { EmacsDiffChannel, ReviewMessage } from "../diff-channels.ts";

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
