import { sanitizeForDisplay } from "../../../shared/core/display-text.ts";
import { isFields } from "../../../shared/core/fields.ts";
import type { toolAnswerOf } from "../../core/mcp.ts";

/** `checkDocumentDirty`'s answer: whether that document has unsaved changes; false for a document not open. */
export function dirtyOf(answer: ReturnType<typeof toolAnswerOf>): boolean | undefined {
	if (!answer) return undefined;
	if ("text" in answer) return answer.text.startsWith("Document not open") ? false : undefined;
	return isFields(answer.json) && typeof answer.json.isDirty === "boolean" ? answer.json.isDirty : undefined;
}

/** `at_mentioned`'s params (0-based lines; 1-based from claude-code-ide.el): the file and 1-based lines, if any. */
export function mentionOf(
	params: unknown,
	oneBased: boolean,
): { file: string; lines?: { start: number; end: number } } | undefined {
	if (!isFields(params) || typeof params.filePath !== "string" || !params.filePath.startsWith("/")) return undefined;
	// It goes into pi's input as a paste: a control character (an ESC that ends the paste early) or a bidi control
	// makes it no path to send.
	if (params.filePath.length > 4096 || sanitizeForDisplay(params.filePath) !== params.filePath) return undefined;
	const line = (value: unknown) =>
		typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 2_147_483_647
			? value + (oneBased ? 0 : 1)
			: undefined;
	const start = line(params.lineStart);
	const end = line(params.lineEnd);
	if (start === undefined) return { file: params.filePath };
	return { file: params.filePath, lines: { start: Math.max(1, start), end: Math.max(1, end ?? start, start) } };
}
