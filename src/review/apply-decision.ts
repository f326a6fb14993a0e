import type { ExtensionContext, ToolCallEvent, ToolCallEventResult } from "@mariozechner/pi-coding-agent";
import { acceptedText, rewriteToAccepted, userChanged } from "./core/final-text.ts";
import { ABORTED_TEXT, changedText, movedText, rejectedText, undoneText, unshownText } from "./core/model-texts.ts";
import type { ReviewRecord } from "./core/review-status.ts";
import type { Decision } from "./decide.ts";
import { type Proposal, textOnDisk } from "./proposal.ts";

/** One decided review: the call, what it proposed, where it was shown. */
export interface DecidedCall {
	event: ToolCallEvent;
	ctx: ExtensionContext;
	proposal: Proposal;
	displayName: string;
	/** The editor it was shown in, or "pi" when none could. */
	where: string;
	secretFile: boolean;
}

/** What the decision leaves besides the call's result: for `/ide status`, the model's note, the message's pending text. */
export interface Applied {
	result: ToolCallEventResult | undefined;
	outcome: ReviewRecord["outcome"];
	/** Added to pi's own result when the user changed the proposal. */
	note?: string;
	/** What the file holds once pi ran the call: a later edit of this message builds on it. */
	accepted?: string;
	acceptAll?: boolean;
	stopTurn?: boolean;
}

/**
 * The decision applied to the call: blocked with what the model should know, or let through as accepted, the
 * input rewritten to the user's version when they changed it. Accepted or not, the disk is read again first: a
 * file saved meanwhile is never overwritten (the guard's rule), and the unsaved guard is asked again.
 */
export async function applyDecision(
	decision: Decision,
	call: DecidedCall,
	guard: (event: ToolCallEvent, ctx: ExtensionContext) => Promise<ToolCallEventResult | undefined>,
): Promise<Applied> {
	const { proposal, displayName } = call;
	const block = (reason: string) => ({ block: true, reason });
	switch (decision.kind) {
		case "aborted":
			return { result: block(ABORTED_TEXT), outcome: "cancelled" };
		case "unshown":
			return { result: block(unshownText(decision.reason)), outcome: "blocked" };
		case "reject": {
			const where = decision.by === "pi" ? "pi" : call.where;
			const result = block(rejectedText(proposal.tool, displayName, where, decision.reason));
			return { result, outcome: "rejected", ...(decision.stopTurn && { stopTurn: true }) };
		}
	}
	const all = decision.all ? { acceptAll: true } : {};
	const accepted = decision.text === undefined ? proposal.proposed : acceptedText(proposal.proposed, decision.text);
	const now = await textOnDisk(proposal.file);
	if (!now.ok || now.text !== proposal.onDisk)
		return { result: block(movedText(displayName)), outcome: "not written, the file moved", ...all };
	const guarded = await guard(call.event, call.ctx);
	if (guarded?.block) return { result: guarded, outcome: "blocked", ...all };
	if (!userChanged(proposal.proposed, accepted)) return { result: undefined, outcome: "accepted", accepted, ...all };
	const input = call.event.input as Record<string, unknown>;
	if (!rewriteToAccepted(proposal.tool, input, proposal.before ?? "", accepted))
		return { result: block(undoneText(displayName)), outcome: "accepted, changed by you", ...all };
	const note = changedText(proposal.tool, displayName, {
		proposed: proposal.proposed,
		accepted,
		secretFile: call.secretFile,
	});
	return { result: undefined, outcome: "accepted, changed by you", note, accepted, ...all };
}
