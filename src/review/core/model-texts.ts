import { cutText } from "../../shared/core/text-cuts.ts";
import type { ReviewedTool } from "./diff-host.ts";
import { normalizedText } from "./final-text.ts";
import { unifiedDiff } from "./unified-diff.ts";

/**
 * What the model is told of a review. Only a rejection and a changed proposal say anything: a change accepted
 * as proposed gets pi's usual result, so review on costs the model nothing when the user agrees.
 */

/** The user's reason is theirs, but one line at most of it reaches the model's tool result, and capped. */
const MAX_REASON_CHARS = 2000;

/** Blocked: the user said no, here or in the editor. The reason goes as one quoted line (JSON's escapes). */
export function rejectedText(tool: ReviewedTool, path: string, where: string, reason: string | undefined): string {
	const line = reason?.replace(/\s+/g, " ").trim().slice(0, MAX_REASON_CHARS);
	const said = line ? ` The user's reason: ${JSON.stringify(line)}.` : "";
	return (
		`The user rejected this ${tool} of ${path} in ${where}; the file was not changed.${said} ` +
		`Do not make the same change again: ${said ? "take the reason into account" : "ask the user how to proceed"}.`
	);
}

/**
 * Added to pi's own result: the file holds the user's version, and the model sees what differs from its own
 * (cut at 64 KiB like any text sent, control characters escaped). A secret file's diff would carry lines the model
 * never saw: it is told only that the user changed it.
 */
export function changedText(
	tool: ReviewedTool,
	path: string,
	texts: { proposed: string; accepted: string; secretFile: boolean },
): string {
	const what = tool === "write" ? "content" : "edit";
	const head = `The user changed your proposed ${what} before accepting it: ${path} now holds the user's version.`;
	if (texts.secretFile)
		return `${head} It is a secret file, so the changes are not shown here; do not read it to see them unless the user asks.`;
	const diff = unifiedDiff(normalizedText(texts.proposed), normalizedText(texts.accepted), {
		from: `${path} (your proposal)`,
		to: `${path} (as the user accepted it)`,
	});
	const cut = cutText(diff, { first: 1, last: diff.split("\n").length }, "diff");
	const whole = cut.note === undefined;
	return (
		`${head} Their changes against your proposal:\n\n${cut.text}\n${cut.note ? `${cut.note}\n` : ""}\n` +
		(whole
			? "The file is exactly your proposal with this diff applied: no need to read it again; build on the user's version."
			: "The diff is cut: read the file again before changing it.")
	);
}

/** Print mode, review on, and no editor to show it in: nobody could answer. */
export const NO_REVIEWER_TEXT =
	'Review of the model\'s edits is on ("pi-ide": { "review": true }) and no editor that can show a diff is connected, ' +
	"and print mode has no one to ask: not written. Run pi interactively, connect an editor, or turn review off " +
	'(`"pi-ide": { "review": false }` in ~/.pi/agent/settings.json).';

/** Print mode: the editor could not show it or closed it, and there is no one else to ask. Not the user's "no". */
export function unshownText(why: string): string {
	return `The change could not be reviewed (${why}), and print mode has no one else to ask: not written. The user did not reject it.`;
}

/** The user's version is the file as it was: they undid the change, and pi's edit would have nothing to do. */
export function undoneText(path: string): string {
	return `The user undid your change to ${path} in the review before accepting it: the file is unchanged. Ask the user how to proceed.`;
}

/** A sibling call after the user stopped the turn (Esc): not shown, not run. */
export const TURN_STOPPED_TEXT = "The user stopped the turn during a review: this call was not run.";

/** A review that took long enough for the file to move under it: the guard's rule, never overwrite the user's save. */
export function movedText(path: string): string {
	return `${path} changed on disk while the change was under review (saved in the editor?): not written. Read it again before changing it.`;
}

/** The turn was stopped (Esc, or the agent aborted) while the review was open. */
export const ABORTED_TEXT = "The review was cancelled: the turn was stopped; the file was not changed.";
