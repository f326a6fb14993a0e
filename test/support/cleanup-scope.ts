/**
 * What a test opened (pi processes, editors, servers, temp dirs), closed after it in the reverse order of
 * opening, each awaited, one failure not keeping the others open: the one lifecycle every harness uses.
 */
export class CleanupScope {
	private readonly closers: (() => unknown)[] = [];

	/** Closed when the scope closes, after everything deferred later. */
	defer(close: () => unknown): void {
		this.closers.push(close);
	}

	/** Closes everything deferred, newest first; rethrows the first failure once all ran. */
	async close(): Promise<void> {
		let failure: unknown;
		for (const close of this.closers.splice(0).reverse()) {
			try {
				await close();
			} catch (error) {
				failure ??= error;
			}
		}
		if (failure !== undefined) throw failure;
	}
}
