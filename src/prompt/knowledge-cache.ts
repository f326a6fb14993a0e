import { advanceKnowledge, type BranchEntry, type ModelKnowledge, modelKnowledge } from "./core/model-knowledge.ts";

/** Past this many new entries since the last prompt, walking the whole branch is as cheap. */
const MAX_NEW_ENTRIES = 256;

/** The part of pi's `ReadonlySessionManager` this reads (the same on both pi lines). */
interface Session {
	getSessionId(): string;
	getLeafId(): string | null;
	getEntry(id: string): (BranchEntry & { parentId: string | null }) | undefined;
	getBranch(): BranchEntry[];
}

/**
 * What the model already has, remembered from the previous prompt and advanced by the entries appended
 * since: a prompt in a session of thousands of entries looks at a handful. It stays correct across session
 * switches because it only advances along the same session's branch: another session id, a leaf whose
 * ancestors do not include the remembered one (`/fork`, `/tree`), or a compaction or context edit among the
 * new entries makes it walk the whole branch again.
 */
export class KnowledgeCache {
	private last?: { sessionId: string; leafId: string | null; knowledge: ModelKnowledge };

	constructor(private readonly customType: string) {}

	knowledge(session: Session): ModelKnowledge {
		const sessionId = session.getSessionId();
		const leafId = session.getLeafId();
		let knowledge: ModelKnowledge | undefined;
		const last = this.last;
		if (last?.sessionId === sessionId) {
			const added = entriesSince(session, leafId, last.leafId);
			if (added) knowledge = advanceKnowledge(last.knowledge, added, this.customType);
		}
		knowledge ??= modelKnowledge(session.getBranch(), this.customType);
		this.last = { sessionId, leafId, knowledge };
		return knowledge;
	}
}

/** The entries from just after `since` to `leaf`, oldest first; undefined when `since` is not an ancestor. */
function entriesSince(session: Session, leaf: string | null, since: string | null): BranchEntry[] | undefined {
	const added: BranchEntry[] = [];
	let id = leaf;
	while (id !== since) {
		if (id === null || added.length > MAX_NEW_ENTRIES) return undefined;
		const entry = session.getEntry(id);
		if (!entry) return undefined;
		added.push(entry);
		id = entry.parentId;
	}
	return added.reverse();
}
