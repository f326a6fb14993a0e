import type { ReviewedTool } from "./diff-host.ts";
import { normalizedText } from "./final-text.ts";
import { unifiedDiff } from "./unified-diff.ts";

/**
 * What the model is told of a review. Only a rejection and a changed proposal say anything: a change accepted
 * as proposed gets pi's usual result, so review on costs the model nothing when the user agrees.
 */

/** The user's reason is theirs, but one line at most of it reaches the model's tool result, and capped. */
const MAX_REASON_CHARS = 2000;

/** Blocked: the user said no, here or in the editor. */
export function rejectedText(tool: ReviewedTool, path: string, where: string, reason: string | undefined): string {
	const said = reason?.trim() ? ` The user's reason: "${reason.trim().slice(0, MAX_REASON_CHARS)}".` : "";
	return (
		`The user rejected this ${tool} of ${path} in ${where}; the file was not changed.${said} ` +
		`Do not make the same change again: ${said ? "take the reason into account" : "ask the user how to proceed"}.`
	);
}

/** Added to pi's own result: the file holds the user's version, and the model sees what differs from its own. */
export function changedText(tool: ReviewedTool, path: string, proposed: string, accepted: string): string {
	const what = tool === "write" ? "content" : "edit";
	const diff = unifiedDiff(normalizedText(proposed), normalizedText(accepted), {
		from: `${path} (your proposal)`,
		to: `${path} (as the user accepted it)`,
	});
	return (
		`The user changed your proposed ${what} before accepting it: ${path} now holds the user's version. ` +
		`Their changes against your proposal:\n\n${diff}\n` +
		"The file is exactly your proposal with this diff applied: no need to read it again; build on the user's version."
	);
}

/** Print mode, review on, and no editor to show it in: nobody could answer. */
export const NO_REVIEWER_TEXT =
	'Review of the model\'s edits is on ("pi-ide": { "review": true }) and no editor that can show a diff is connected, ' +
	"and print mode has no one to ask: not written. Run pi interactively, connect an editor, or turn review off " +
	'("review": false in ~/.pi/agent/settings.json).';

/** The editor could not show it, print mode cannot ask. */
export function unshownText(where: string, why: string): string {
	return `The change could not be reviewed: ${where} ${why}, and print mode has no one to ask. Not written.`;
}

/** A review that took long enough for the file to move under it: the guard's rule, never overwrite the user's save. */
export function movedText(path: string): string {
	return `${path} changed on disk while the change was under review (saved in the editor?): not written. Read it again before changing it.`;
}

/** The turn was stopped (Esc, or the agent aborted) while the review was open. */
export const ABORTED_TEXT = "The review was cancelled: the turn was stopped; the file was not changed.";
