/**
 * One guard against a late read: every read takes a ticket when it starts, and only the newest ticket may
 * land. An older read that finishes after a newer one started (a slow `realpath`, a request answered late)
 * is dropped instead of replacing what the newer one says.
 */
export class Generation {
	private newest = 0;

	/** A ticket for a read starting now: `isNewest()` while no later read has started. */
	start(): { isNewest: () => boolean } {
		const ticket = ++this.newest;
		return { isNewest: () => ticket === this.newest };
	}
}
