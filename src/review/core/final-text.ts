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

/** Lines with their own `\n` (the last may have none): so that joining a span gives back its exact text. */
const linesOf = (text: string) => text.split(/(?<=\n)/);

/**
 * One edit taking the file as it stands when the call runs (`before`) to the user's version: only the span of
 * lines that differ, widened until it occurs once in the file (pi's edit wants a unique match), so the lines
 * around it keep what they are (pi 1.x keeps each untouched line's ending). LF and without BOM, as pi's edit
 * matches; it puts the file's BOM and line endings back. Undefined when the two are the same text.
 */
export function editToAccepted(before: string, accepted: string): { oldText: string; newText: string } | undefined {
	const old = normalizedText(before);
	const mine = normalizedText(accepted);
	if (old === mine) return undefined;
	const a = linesOf(old);
	const b = linesOf(mine);
	let head = 0;
	while (head < a.length && head < b.length && a[head] === b[head]) head++;
	let tail = 0;
	while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
	const span = () => ({
		oldText: a.slice(head, a.length - tail).join(""),
		newText: b.slice(head, b.length - tail).join(""),
	});
	let edit = span();
	// An insertion matches nothing, a repeated span matches twice: one line more on a side until it is unique.
	while ((edit.oldText === "" || old.indexOf(edit.oldText) !== old.lastIndexOf(edit.oldText)) && head + tail > 0) {
		if (head > 0) head--;
		else tail--;
		edit = span();
	}
	return edit;
}

/**
 * The call's input rewritten so pi's own tool writes exactly the user's version: `write` gets it as its content;
 * `edit` becomes the one edit above. Mutated in place: pi reads the same object (both lines), and re-validates
 * nothing. False when there is nothing to write (the user undid the change).
 */
export function rewriteToAccepted(
	tool: ReviewedTool,
	input: Record<string, unknown>,
	before: string,
	accepted: string,
): boolean {
	if (tool === "write") {
		input.content = accepted;
		return true;
	}
	const edit = editToAccepted(before, accepted);
	if (!edit) return false;
	delete input.oldText;
	delete input.newText;
	input.edits = [edit];
	return true;
}
