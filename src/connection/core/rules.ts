import { absoluteFile } from "../../editors/core/active-buffer.ts";
import type { KeyFacts } from "../../editors/core/editor.ts";
import type { Tier } from "../../editors/core/tiers.ts";
import type { GoneReason } from "../../prompt/core/editor-block.ts";

export interface Candidate {
	key: string;
	tier: { tier: Tier | undefined };
}

/** Only the best non-empty tier counts: when an editor matches exactly, weaker matches are not offered. */
export function bestTier<T extends Candidate>(candidates: readonly T[]): { tier: Tier | undefined; editors: T[] } {
	for (const tier of [0, 1] as const) {
		const editors = candidates.filter((candidate) => candidate.tier.tier === tier);
		if (editors.length > 0) return { tier, editors };
	}
	return { tier: undefined, editors: [] };
}

/** Connect on our own only when exactly one live editor is in the best tier; a tie waits for `/ide`. */
export function autoConnectTarget<T extends Candidate>(liveCandidates: readonly T[]): T | undefined {
	const { editors } = bestTier(liveCandidates);
	return editors.length === 1 ? editors[0] : undefined;
}

/** Why a connection ended. pi cannot tell a kill from a crash: both leave the file of a dead process. */
export type ConnectionEnd = "process-gone" | "file-removed" | "app-quit" | "workspace-closed";

export const CONNECTION_END_TEXT: Record<ConnectionEnd, string> = {
	"process-gone": "process gone, its file left behind",
	"file-removed": "file removed (editor quit)",
	"app-quit": "the app quit (or crashed)",
	"workspace-closed": "its window was closed",
};

/**
 * A connection ends when its editor dies or removes its file. A rejected write does not end it: the editor
 * is still there, pi just does not know what it shows until its next valid write.
 */
export function connectionEnd(facts: KeyFacts): ConnectionEnd | undefined {
	if (!facts.listed) return facts.fromDatabase ? "workspace-closed" : "file-removed";
	if (!facts.alive) return facts.fromDatabase ? "app-quit" : "process-gone";
	return undefined;
}

/**
 * One editor seen by several sources (the same pid in two state dirs): what was written last counts, a valid
 * state before a rejection only when it is newer.
 */
export function newestFacts(facts: readonly KeyFacts[]): KeyFacts | undefined {
	let newest: KeyFacts | undefined;
	for (const candidate of facts) {
		if (!candidate.listed) continue;
		if (!newest || (candidate.writtenAtSeconds ?? -1) > (newest.writtenAtSeconds ?? -1)) newest = candidate;
	}
	return newest ?? facts[0];
}

/** What a prompt says instead of the editor block, or undefined when the connected editor can be described. */
export function promptGoneReason(facts: KeyFacts | undefined): GoneReason | undefined {
	if (!facts || connectionEnd(facts)) return "disconnected";
	if (!facts.reading) return "rejected";
	if (absoluteFile(facts.reading.state) === undefined) return "no-file";
	return undefined;
}
