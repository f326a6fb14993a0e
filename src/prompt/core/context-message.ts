import type { GoneReason } from "../../editors/core/editor.ts";
import { CUT_LIMIT } from "../../shared/core/text-cuts.ts";
import { DIAGNOSTICS_NONE_NOW } from "./diagnostics.ts";
import {
	deltaBlock,
	type EditorFields,
	FIELD_ORDER,
	fullBlock,
	goneLine,
	SELECTION_NONE,
	unchangedLine,
} from "./editor-block.ts";
import type { EditorForPrompt } from "./editor-for-prompt.ts";
import type { ContextDetails, ModelKnowledge } from "./model-knowledge.ts";
import type { SelectionPayload } from "./selection-payload.ts";

/** The custom type of every editor-context message pi-ide-context adds to a session. */
export const CONTEXT_MESSAGE_TYPE = "pi-ide-context";

export interface ContextMessage {
	content: string;
	details: ContextDetails;
}

const SENT_EARLIER = "the text sent with an earlier prompt";

/** The Selection line as the model reads it now, given which texts it already has. */
function selectionLine(selection: SelectionPayload, alreadySent: boolean): string {
	if (selection.withheld) return `Selection: ${selection.range}, text withheld: ${selection.withheld.reason}`;
	return alreadySent ? `Selection: ${selection.range}, ${SENT_EARLIER}` : `Selection: ${selection.range}`;
}

function selectionSummary(selection: SelectionPayload | undefined, alreadySent: boolean): string {
	if (!selection) return "no selection";
	if (selection.withheld) return `selection withheld (${selection.withheld.label})`;
	if (alreadySent) return "selection unchanged, not resent";
	const lines = `${selection.lineCount} ${selection.lineCount === 1 ? "line" : "lines"} selected`;
	const parts = [selection.cut ? `${lines}, selection cut at ${CUT_LIMIT}` : lines];
	if (selection.redactions > 0) {
		parts.push(`${selection.redactions} ${selection.redactions === 1 ? "secret" : "secrets"} redacted`);
	}
	return parts.join(", ");
}

const GONE_SUMMARY: Record<GoneReason, string> = {
	disconnected: "editor disconnected",
	"no-file": "editor: no file open",
	rejected: "editor state unknown (its latest state was rejected)",
};

/**
 * The one message for this prompt, or undefined when there is nothing to say. Each thing enters the model's
 * context once: the selection's text only while the model does not hold it, the buffer lines only when they
 * changed (all of them when the file changed or the model knows nothing), one line when nothing changed, one
 * line when the editor went away after the model was told about it.
 */
export function contextMessage(now: EditorForPrompt, knowledge: ModelKnowledge): ContextMessage | undefined {
	if (now.kind === "gone") {
		if (!knowledge.known) return undefined;
		return { content: goneLine(now.reason), details: { v: 1, kind: "gone", summary: GONE_SUMMARY[now.reason] } };
	}
	const { selection } = now;
	const alreadySent = selection?.body !== undefined && knowledge.sentTextIds.has(selection.id);
	const sendsText = selection?.body !== undefined && !alreadySent;
	const where = `${now.fileLabel}${now.cursorLine === undefined ? "" : ` line ${now.cursorLine}`}`;
	const details: ContextDetails = {
		v: 1,
		kind: "full",
		fields: now.fields as Record<string, string>,
		summary: `editor: ${where}, ${selectionSummary(selection, alreadySent)}`,
		...(selection && { selection: selection.id, selectionLines: selection.lineCount }),
		...(sendsText && selection && { sentSelection: selection.id }),
		...(selection?.redactions && { redactions: selection.redactions }),
	};
	const body = sendsText ? selection?.body : undefined;
	const withSelection: EditorFields = {
		...now.fields,
		...(selection && { Selection: selectionLine(selection, alreadySent) }),
	};
	const known = knowledge.known;
	if (!known || known.fields.File !== now.fields.File || known.fields.App !== now.fields.App) {
		return { content: fullBlock(withSelection, body), details };
	}
	const changed: EditorFields = {};
	for (const name of FIELD_ORDER)
		if (name !== "Selection" && known.fields[name] !== now.fields[name])
			changed[name] = now.fields[name] ?? (name === "Diagnostics" ? DIAGNOSTICS_NONE_NOW : `${name}: unknown`);
	// The text goes along whenever the model lacks it, even if the last block named the same selection: the
	// message that carried it may have been compacted away since.
	if (known.selection !== selection?.id || sendsText)
		changed.Selection = selection ? withSelection.Selection : SELECTION_NONE;
	if (Object.keys(changed).length === 0) {
		return { content: unchangedLine(), details: { ...details, kind: "unchanged", summary: "editor unchanged" } };
	}
	return { content: deltaBlock(changed, body), details: { ...details, kind: "delta" } };
}
