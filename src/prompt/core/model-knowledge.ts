import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { type EditorFields, FIELD_ORDER } from "./editor-block.ts";

/**
 * Stored with every editor-context message (`details`: persisted, never sent to the model). It says what
 * the model knows about the editor once it has read that message, so the next prompt can send only what
 * changed, and what pi showed in the transcript.
 */
export const ContextDetailsSchema = Type.Object({
	v: Type.Literal(1),
	/**
	 * full: every line; delta: the lines that changed; unchanged: one line; gone: the editor went away;
	 * references: only code the user referenced, nothing of the ambient block (it leaves that chain alone).
	 */
	kind: Type.Union([
		Type.Literal("full"),
		Type.Literal("delta"),
		Type.Literal("unchanged"),
		Type.Literal("gone"),
		Type.Literal("references"),
	]),
	/** The buffer lines the model knows after this message (not for `gone`). */
	fields: Type.Optional(Type.Record(Type.String(), Type.String())),
	/** Identity of the selection the model knows about after this message (text sent, or withheld). */
	selection: Type.Optional(Type.String()),
	/** Set when this message carried the selection's text in full. */
	sentSelection: Type.Optional(Type.String()),
	/** The referenced texts this message carried in full (see `code-reference.ts`). */
	sentReferences: Type.Optional(Type.Array(Type.String())),
	/** The one transcript line. */
	summary: Type.String(),
	/** For whoever reads the session later (an export, another extension); nothing here reads them back. */
	selectionLines: Type.Optional(Type.Integer({ minimum: 0 })),
	redactions: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ContextDetails = Static<typeof ContextDetailsSchema>;

const detailsCheck = Compile(ContextDetailsSchema);

/** The few session-entry fields this reads (pi's `SessionEntry`, structurally). */
export interface BranchEntry {
	type: string;
	id: string;
	customType?: string;
	details?: unknown;
	firstKeptEntryId?: string;
	/** pi 1.x `context_edit`: the entry it omits from the model's context or whose content it replaces. */
	targetId?: string;
}

export interface ModelKnowledge {
	/** What the model was last told about the editor, complete; undefined when it knows nothing usable. */
	known?: { fields: EditorFields; selection?: string };
	/** Selections and referenced code whose text is in the model's context now, by id. */
	sentTextIds: ReadonlySet<string>;
}

export const NO_KNOWLEDGE: ModelKnowledge = { known: undefined, sentTextIds: new Set() };

/**
 * The entries the model still has: pi sends the latest compaction's summary, then the branch from its
 * `firstKeptEntryId` on (a kept id it cannot find keeps nothing before the compaction).
 */
function contextStart(branch: readonly BranchEntry[]): number {
	for (let index = branch.length - 1; index >= 0; index--) {
		const entry = branch[index] as BranchEntry;
		if (entry.type !== "compaction") continue;
		for (let kept = index - 1; kept >= 0; kept--)
			if ((branch[kept] as BranchEntry).id === entry.firstKeptEntryId) return kept;
		return index + 1;
	}
	return 0;
}

function fieldsOf(record: Record<string, string> | undefined): EditorFields | undefined {
	if (!record) return undefined;
	const fields: EditorFields = {};
	for (const name of FIELD_ORDER) if (typeof record[name] === "string") fields[name] = record[name];
	return fields.File === undefined ? undefined : fields;
}

/**
 * What the model has of the editor, from pi's own session data: the current branch as the model sees it
 * after compaction, less messages a pi 1.x context edit omitted or rewrote. A delta or "unchanged" line only
 * means something while the full block it builds on is still in context, so knowledge counts only back to a
 * full block with no "gone" after it.
 */
export function modelKnowledge(branch: readonly BranchEntry[], customType: string): ModelKnowledge {
	const start = contextStart(branch);
	const sentTextIds = new Set<string>();
	let latest: ContextDetails | undefined;
	let decided = false;
	let known: ModelKnowledge["known"];
	// Edits come after what they edit, so walking backwards meets them first.
	const edited = new Set<string>();
	for (let index = branch.length - 1; index >= start; index--) {
		const entry = branch[index] as BranchEntry;
		if (entry.type === "context_edit" && typeof entry.targetId === "string") edited.add(entry.targetId);
		if (entry.type !== "custom_message" || entry.customType !== customType || edited.has(entry.id)) continue;
		if (!detailsCheck.Check(entry.details)) continue;
		const details = entry.details;
		if (details.sentSelection) sentTextIds.add(details.sentSelection);
		for (const id of details.sentReferences ?? []) sentTextIds.add(id);
		if (decided || details.kind === "references") continue;
		latest ??= details;
		if (details.kind === "gone") decided = true;
		else if (details.kind === "full") {
			decided = true;
			const fields = fieldsOf(latest.fields);
			known = fields && { fields, selection: latest.selection };
		}
	}
	return { known, sentTextIds };
}

/**
 * The knowledge after `added` entries (oldest first) were appended to a branch whose knowledge was
 * `before`: the same answer `modelKnowledge` gives for the longer branch, without walking all of it. A
 * compaction or a context edit changes what earlier entries count for: undefined then, walk the branch.
 */
export function advanceKnowledge(
	before: ModelKnowledge,
	added: readonly BranchEntry[],
	customType: string,
): ModelKnowledge | undefined {
	let known = before.known;
	let sentTextIds: Set<string> | undefined;
	for (const entry of added) {
		if (entry.type === "compaction" || entry.type === "context_edit") return undefined;
		if (entry.type !== "custom_message" || entry.customType !== customType || !detailsCheck.Check(entry.details)) {
			continue;
		}
		const details = entry.details;
		const sent = [...(details.sentSelection ? [details.sentSelection] : []), ...(details.sentReferences ?? [])];
		if (sent.length > 0) {
			sentTextIds ??= new Set(before.sentTextIds);
			for (const id of sent) sentTextIds.add(id);
		}
		if (details.kind === "references") continue;
		if (details.kind === "gone") known = undefined;
		else if (details.kind === "full" || known) {
			const fields = fieldsOf(details.fields);
			known = fields && { fields, selection: details.selection };
		}
	}
	return { known, sentTextIds: sentTextIds ?? before.sentTextIds };
}
