/**
 * When the user last made each file's selection. A selection VS Code restores (switching back to a tab)
 * keeps the time it was made; one this client never saw made is `null` (stale for pi).
 */
export class SelectionClock {
	private readonly made = new Map<string, { range: string; atSeconds: number }>();

	/** The user changed the selection in `file` (keyboard, mouse, a command). */
	madeNow(file: string, range: string, nowSeconds: number): void {
		this.made.set(file, { range, atSeconds: nowSeconds });
	}

	selectedAt(file: string, range: string): number | null {
		const made = this.made.get(file);
		return made?.range === range ? made.atSeconds : null;
	}

	forget(file: string): void {
		this.made.delete(file);
	}
}

/** A selection's identity: where it starts and ends. */
export const rangeKey = (start: { line: number; character: number }, end: { line: number; character: number }) =>
	`${start.line}:${start.character}-${end.line}:${end.character}`;
