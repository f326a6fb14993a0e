/** Keys of editors gone are remembered this many at most: how a connection to them ended, without growing. */
export const MAX_REMEMBERED_GONE = 64;

/**
 * The keys of editors a source held and no longer does, newest last: the connection rules read "gone" (it
 * was here, now it is not) instead of "never heard of", so they can say how a connection ended.
 */
export class GoneKeys {
	private readonly keys = new Set<string>();

	constructor(private readonly max = MAX_REMEMBERED_GONE) {}

	has(key: string): boolean {
		return this.keys.has(key);
	}

	/** Gone now (again: it moves to the newest); the oldest is forgotten past the cap. */
	add(key: string): void {
		this.keys.delete(key);
		this.keys.add(key);
		while (this.keys.size > this.max) this.keys.delete(this.keys.values().next().value as string);
	}

	/** Here again. */
	delete(key: string): void {
		this.keys.delete(key);
	}
}
