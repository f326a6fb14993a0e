import { truncateToWidth } from "@mariozechner/pi-tui";
import { sanitizeForDisplay } from "./display-text.ts";
import { absoluteFile, freshSelection, selectionLineCount } from "./editor-view.ts";
import type { EditorState } from "./state-schema.ts";

/** The widget's words, e.g. `5 lines selected in main.ts` or `in main.ts`; undefined means no widget. */
export function widgetText(
	state: EditorState,
	selectionFirstSeenSeconds: number,
	nowSeconds: number,
): string | undefined {
	if (absoluteFile(state) === undefined) return undefined;
	const name = sanitizeForDisplay(state.active_buffer?.name ?? "").trim() || "untitled";
	const fresh = freshSelection(state, selectionFirstSeenSeconds, nowSeconds);
	if (!fresh) return `in ${name}`;
	const lines = selectionLineCount(fresh.selection);
	return `${lines} ${lines === 1 ? "line" : "lines"} selected in ${name}`;
}

/** Never wider than the terminal: pi exits when a widget line overflows. The name sits last, so it is what gets cut. */
export function fitWidgetLine(text: string, width: number): string {
	return truncateToWidth(text, Math.max(0, width), "...");
}
