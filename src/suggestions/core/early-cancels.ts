/**
 * `request_cancelled` may overtake its request (the editor cancels as the user types on; the two travel apart
 * when pi is busy): such a cancel is remembered, so the request is answered "cancelled" with no model call.
 * Capped, the oldest forgotten first: an editor that cancels ids it never sends cannot grow pi's memory.
 */

export const MAX_EARLY_CANCELS = 50;

/** A JSON-RPC id: `1` and `"1"` are different requests. */
export type RequestId = number | string;

const keyOf = (id: RequestId) => (typeof id === "number" ? `n:${id}` : `s:${id}`);

export class EarlyCancels {
	// A Set keeps insertion order: its first key is the oldest.
	private readonly ids = new Set<string>();

	/** A cancel whose request has not arrived. One seen again counts as the newest. */
	cancelled(id: RequestId): void {
		const key = keyOf(id);
		this.ids.delete(key);
		this.ids.add(key);
		while (this.ids.size > MAX_EARLY_CANCELS) {
			const oldest = this.ids.values().next().value;
			if (oldest === undefined) break;
			this.ids.delete(oldest);
		}
	}

	/** Whether the request arriving now was already cancelled; true once, then forgotten. */
	take(id: RequestId): boolean {
		return this.ids.delete(keyOf(id));
	}

	get size(): number {
		return this.ids.size;
	}
}
