import { selectionLineCount } from "../../editors/core/active-buffer.ts";
import type { Selection } from "../../editors/core/protocol-state.ts";
import { contentId, cutText, fencedText } from "../../shared/core/text-cuts.ts";
import { selectionRange } from "./editor-block.ts";

/** A fresh selection as it will be described to the model, prepared once per distinct selection. */
export interface SelectionPayload {
	/** `lines 2-4 (from line 2 column 1 to line 4 column 5)`. */
	range: string;
	lineCount: number;
	/** Identity of what the model would hold: file, range, `selected_at` and the text as sent. */
	id: string;
	/** The fenced text to send; absent when withheld. */
	body?: string;
	cut: boolean;
	/** Why the text may not leave the machine (secret file); the block says so instead of sending it. */
	withheld?: { reason: string; label: string };
	redactions: number;
}

export interface SelectionSource {
	file: string;
	language: string | null | undefined;
	selection: Selection;
}

/** The text that may go to the model: cut to the cap first, so later steps never see a 16 MiB select-all. */
export function cutForPrompt(selection: Selection): { text: string; note?: string } {
	return cutText(selection.text, { first: selection.start.line, last: selection.end.line }, "selection");
}

/** Range, line count and an id over where the selection is and `detail`: the text as sent, or why it was withheld. */
function identify(source: SelectionSource, kind: "sent" | "withheld", detail: string) {
	const { file, selection } = source;
	return {
		range: selectionRange(selection),
		lineCount: selectionLineCount(selection),
		id: contentId([kind, file, selection.start, selection.end, selection.selected_at, detail]),
	};
}

/** A selection whose text is sent (after cutting and redaction): its id covers the text exactly as sent. */
export function sentSelection(
	source: SelectionSource,
	cut: { text: string; note?: string },
	redactions: number,
): SelectionPayload {
	return {
		...identify(source, "sent", cut.text),
		body: fencedText(cut.text, source.language, cut.note),
		cut: cut.note !== undefined,
		redactions,
	};
}

/** A selection whose text stays on the machine: it never counts as sent. */
export function withheldSelection(
	source: SelectionSource,
	withheld: { reason: string; label: string },
): SelectionPayload {
	return {
		...identify(source, "withheld", withheld.reason),
		cut: false,
		withheld,
		redactions: 0,
	};
}
