import { type ContextMessage, contextMessage } from "../core/context-message.ts";
import { describeEditor } from "../core/editor-now.ts";
import type { ModelKnowledge } from "../core/model-knowledge.ts";
import { cutForPrompt, type SelectionPayload, type SelectionSource, sentSelection } from "../core/selection-payload.ts";
import type { PromptView } from "./ide-controller.ts";

/** Turns a selection into what may be sent (cut, and whatever checks the caller adds). */
export type PrepareSelection = (source: SelectionSource) => Promise<SelectionPayload>;

export const prepareCutOnly: PrepareSelection = async (source) =>
	sentSelection(source, cutForPrompt(source.selection), 0);

function sameSource(a: SelectionSource, b: SelectionSource): boolean {
	const x = a.selection;
	const y = b.selection;
	return (
		a.file === b.file &&
		a.language === b.language &&
		x.selected_at === y.selected_at &&
		x.start.line === y.start.line &&
		x.start.column === y.start.column &&
		x.end.line === y.end.line &&
		x.end.column === y.end.column &&
		x.text === y.text
	);
}

/**
 * The editor-context message of one prompt. A selection is prepared once (cutting and redaction cost
 * something) and reused while the editor reports the same one: later prompts and cursor moves cost nothing.
 */
export class PromptContext {
	private cached?: { source: SelectionSource; payload: Promise<SelectionPayload> };

	constructor(
		private readonly projectDir: () => string,
		private readonly prepare: PrepareSelection = prepareCutOnly,
	) {}

	async message(view: PromptView, knowledge: ModelKnowledge): Promise<ContextMessage | undefined> {
		if (view.kind === "gone") return contextMessage(view, knowledge);
		const editor = describeEditor(view.state, view.selectionFirstSeenSeconds, view.nowSeconds, this.projectDir());
		if (!editor) return contextMessage({ kind: "gone", reason: "no-file" }, knowledge);
		const selection = editor.fresh && (await this.payload(editor.fresh));
		return contextMessage(
			{
				kind: "editor",
				fields: editor.fields,
				fileLabel: editor.fileLabel,
				...(editor.cursorLine !== undefined && { cursorLine: editor.cursorLine }),
				...(selection && { selection }),
			},
			knowledge,
		);
	}

	private payload(source: SelectionSource): Promise<SelectionPayload> {
		if (this.cached && sameSource(this.cached.source, source)) return this.cached.payload;
		const payload = this.prepare(source);
		this.cached = { source, payload };
		// A failed preparation is not cached: the next prompt tries again.
		payload.catch(() => {
			if (this.cached?.payload === payload) this.cached = undefined;
		});
		return payload;
	}
}
