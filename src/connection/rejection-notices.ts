import type { EditorFacts } from "../editors/core/editor.ts";
import { connectionEnd } from "./core/rules.ts";

/**
 * The connected editor's latest state was rejected: the user is told once per editor and reason, so a client
 * that keeps writing the same bad state is not a stream of warnings. What is remembered is the connected
 * editor's only: it is forgotten when that connection ends.
 */
export class RejectionNotices {
	private readonly told = new Set<string>();

	constructor(private readonly tell: (label: string, reason: string) => void) {}

	/** The reads of `key` settled: a rejection of the connected editor's latest state is news once. */
	settled(key: string, connected: { key: string; label: string } | undefined, facts: EditorFacts | undefined): void {
		if (connected?.key !== key || !facts || connectionEnd(facts) || facts.reading || facts.rejection === undefined)
			return;
		const told = `${key}\u0000${facts.rejection}`;
		if (this.told.has(told)) return;
		this.told.add(told);
		this.tell(connected.label, facts.rejection);
	}

	/** The connection to `key` ended. */
	forget(key: string): void {
		for (const told of this.told) if (told.startsWith(`${key}\u0000`)) this.told.delete(told);
	}

	/** How many are remembered: one per reason of the connected editor at most. */
	get size(): number {
		return this.told.size;
	}
}
