import type { ReviewedTool } from "./diff-host.ts";

/**
 * The file as the user accepted it. Editors hand back LF text without a BOM (Neovim joins its lines, VS Code's
 * virtual document is LF), and Neovim adds a final newline on `:w`: none of that is the user's change. The
 * proposal's own BOM and line endings (pi's edit keeps the file's) are put back; what is left is theirs.
 */

const BOM = "\uFEFF";

/** Without a BOM, every CRLF (and lone CR) as LF: how the editor shows it and how two versions compare. */
export function normalizedText(text: string): string {
	const unmarked = text.startsWith(BOM) ? text.slice(BOM.length) : text;
	return unmarked.replace(/\r\n?/g, "\n");
}

/** The proposal's line ending: CRLF when it has one before any bare LF, as pi's edit detects a file's. */
function lineEndingOf(text: string): "\r\n" | "\n" {
	const crlf = text.indexOf("\r\n");
	const lf = text.indexOf("\n");
	return crlf !== -1 && crlf < lf ? "\r\n" : "\n";
}

/** The user's version as the file gets it: the proposal's BOM and line endings, no final newline it lacked. */
export function acceptedText(proposed: string, editorText: string): string {
	const proposal = normalizedText(proposed);
	let text = normalizedText(editorText);
	if (!proposal.endsWith("\n") && text.endsWith("\n") && !text.endsWith("\n\n")) text = text.slice(0, -1);
	const ending = lineEndingOf(proposed);
	const restored = ending === "\r\n" ? text.replaceAll("\n", "\r\n") : text;
	return proposed.startsWith(BOM) ? BOM + restored : restored;
}

/** Whether the user changed the proposal: compared as the editor showed both. */
export function userChanged(proposed: string, accepted: string): boolean {
	return normalizedText(proposed) !== normalizedText(accepted);
}

/**
 * The call's input rewritten so pi's own tool writes exactly the user's version: `write` gets it as its content;
 * `edit` becomes one edit of the whole file as it stands when the call runs (`before`), compared LF and without
 * its BOM as pi's edit matches, which then puts the file's BOM and line endings back. Mutated in place: pi reads
 * the same object (both lines), and re-validates nothing.
 */
export function rewriteToAccepted(
	tool: ReviewedTool,
	input: Record<string, unknown>,
	before: string,
	accepted: string,
): void {
	if (tool === "write") {
		input.content = accepted;
		return;
	}
	delete input.oldText;
	delete input.newText;
	input.edits = [{ oldText: normalizedText(before), newText: normalizedText(accepted) }];
}
