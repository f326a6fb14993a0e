import { visibleWidth } from "@mariozechner/pi-tui";
import { absoluteFile, freshSelection, selectionLineCount } from "../../editors/core/active-buffer.ts";
import type { EditorState } from "../../editors/core/protocol-state.ts";
import { clip, sanitizeForDisplay } from "../../shared/core/display-text.ts";

/** A name longer than this is clipped before any width math: RPC clients get the line unclipped otherwise. */
export const MAX_WIDGET_NAME_CHARS = 120;

/**
 * The widget's words, e.g. `5 lines selected in main.ts`, `5 lines selected in .env (not sent)` or
 * `in main.ts`; undefined means no widget.
 */
export function widgetText(
	state: EditorState,
	selectionFirstSeenSeconds: number,
	nowSeconds: number,
	/** The file is a secret file: its selection is not sent, and the widget says so. */
	secretFile = false,
): string | undefined {
	if (absoluteFile(state) === undefined) return undefined;
	const name = clip(sanitizeForDisplay(state.active_buffer?.name ?? "").trim(), MAX_WIDGET_NAME_CHARS) || "untitled";
	const fresh = freshSelection(state, selectionFirstSeenSeconds, nowSeconds);
	if (!fresh) return `in ${name}`;
	const lines = selectionLineCount(fresh.selection);
	return `${lines} ${lines === 1 ? "line" : "lines"} selected in ${name}${secretFile ? NOT_SENT_SUFFIX : ""}`;
}

const CUT_MARKER = "...";
/** Says a secret file's selection stays here; a narrow terminal cuts the name, never this. */
export const NOT_SENT_SUFFIX = " (not sent)";
/** The widget's end while the model's edits are reviewed; kept whole like the one above. */
export const REVIEW_SUFFIX = ", review on";
/** What the widget says with review on and no editor connected: pi's own select will ask. */
export const NO_EDITOR_TEXT = "no editor";
/** Review on, the connected editor showing no file (a Neovim in pi's review tab). */
export const REVIEW_ALONE_TEXT = "review on";
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Never wider than the terminal: pi exits when a widget line overflows. The name sits last, so it is what
 * gets cut, marked with a plain "..." (pi-tui's own truncation adds SGR resets, and the line stays escape-free).
 * Widths are display cells, so wide CJK and emoji count double.
 */
export function fitWidgetLine(text: string, width: number): string {
	const room = Math.max(0, Math.floor(width));
	if (visibleWidth(text) <= room) return text;
	for (const suffix of [REVIEW_SUFFIX, NOT_SENT_SUFFIX])
		if (text.endsWith(suffix) && room >= suffix.length + CUT_MARKER.length + 1) {
			const head = text.slice(0, -suffix.length);
			return fitWidgetLine(head, room - suffix.length) + suffix;
		}
	if (room <= CUT_MARKER.length) return CUT_MARKER.slice(0, room);
	let kept = "";
	let used = 0;
	for (const { segment } of graphemes.segment(text)) {
		const cells = visibleWidth(segment);
		if (used + cells > room - CUT_MARKER.length) break;
		kept += segment;
		used += cells;
	}
	return kept + CUT_MARKER;
}
