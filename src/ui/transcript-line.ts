import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { type Component, truncateToWidth } from "@mariozechner/pi-tui";
import { CONTEXT_MESSAGE_TYPE } from "../prompt/core/context-message.ts";
import { sanitizeForDisplay } from "../shared/core/display-text.ts";

type Theme = Parameters<Parameters<ExtensionAPI["registerMessageRenderer"]>[1]>[2];

/**
 * One dim line under the user's prompt saying what went along; pi's expand toggle (ctrl+o) shows the exact
 * text the model received. Every line is cut to the width `render` is given: pi exits on an over-wide line,
 * and pi 0.73 gives the renderer no width of its own. The session file may have been edited, so both the
 * summary and the text are sanitised again here.
 */
export class TranscriptLine implements Component {
	constructor(
		private readonly summary: string,
		private readonly text: string | undefined,
		private readonly theme: Theme,
	) {}

	render(width: number): string[] {
		const room = Math.max(1, Math.floor(width));
		const lines = [this.summary, ...(this.text === undefined ? [] : this.text.split("\n"))];
		return lines.map((line) => truncateToWidth(this.theme.fg("dim", sanitizeForDisplay(line)), room));
	}

	invalidate(): void {}
}

function summaryOf(details: unknown): string {
	const summary = (details as { summary?: unknown } | undefined)?.summary;
	return typeof summary === "string" ? summary : "editor context";
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((part) => (part?.type === "text" && typeof part.text === "string" ? part.text : "")).join("");
}

export function registerTranscriptLine(pi: ExtensionAPI): void {
	pi.registerMessageRenderer(CONTEXT_MESSAGE_TYPE, (message, { expanded }, theme) => {
		return new TranscriptLine(summaryOf(message.details), expanded ? textOf(message.content) : undefined, theme);
	});
}
