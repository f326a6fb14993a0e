import type { ReviewStanding } from "../settings/core/settings.ts";
import type { ReviewedTool } from "./core/diff-host.ts";

/**
 * A surface that approves the model's writes beside pi's own select: pi-bridge.nvim's picker, for the turns its
 * plugin asked (pi-bridge/, a feature after this one, hands it in). It joins the review's race as one more
 * answer; the first answer wins and the others are withdrawn.
 */
export interface TurnApprovals {
	/** The approver of the running turn, or undefined (a turn typed into pi, the plugin's approvals off). */
	approver(): Approver | undefined;
}

/** `yes` accepts, `no` rejects, `all` accepts and leaves this file unasked for the rest of the session. */
export type ApproverDecision = "yes" | "no" | "all";

export interface ApprovalRequest {
	tool: ReviewedTool;
	/** Absolute. */
	file: string;
	/** Undefined: a new file. */
	before: string | undefined;
	proposed: string;
}

export interface Approver {
	/** Where it is answered, as pi names it ("Neovim (pi-bridge)"). */
	name: string;
	/** Shown until `signal` withdraws it: the decision there, or undefined (withdrawn, nobody left to answer). */
	ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApproverDecision | undefined>;
}

/**
 * The plugin's approvals are on for its turns even when the review is off by default, as its users expect; a
 * review turned off on purpose (`/ide review off`, a global `"review": false`) turns them off too.
 */
export const approvalsAllowed = (standing: ReviewStanding) =>
	standing.on || (standing.source !== "process" && standing.source !== "global");
