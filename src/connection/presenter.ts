import { absoluteFile, freshSelection } from "../editors/core/active-buffer.ts";
import type { Editor } from "../editors/core/editor.ts";
import type { EditorEvent } from "../events.ts";
import type { Cancel, Clock } from "../shared/core/clock.ts";
import { sanitizeForDisplay } from "../shared/core/display-text.ts";
import { NO_EDITOR_TEXT, REVIEW_ALONE_TEXT, REVIEW_SUFFIX, widgetText } from "./core/widget-line.ts";

export interface PresenterOptions {
	showWidget: (text: string | undefined) => void;
	/** Told whenever the connected editor or its widget changes (pi's event bus). */
	announce?: (editor: EditorEvent | undefined) => void;
	clock: Clock;
	isSecret: (editor: Editor) => boolean;
	/** Review of the model's edits is on: the widget says so, with or without an editor. */
	reviewOn: () => boolean;
}

/**
 * Shows the connected editor: the widget line, flipped by a timer the moment a fresh selection turns stale
 * (no editor write wakes pi then), and the event for other extensions, sent only when something changed.
 */
export class EditorPresenter {
	/** Cancels the re-render due when the fresh selection turns stale. */
	private cancelExpiry?: Cancel;
	private lastAnnounced: { state?: Editor["state"]; widget?: string; review?: boolean } = {};

	constructor(
		private readonly options: PresenterOptions,
		private readonly current: () => Editor | undefined,
	) {}

	render(): void {
		this.stop();
		const editor = this.current();
		const now = this.options.clock.nowSeconds();
		const review = this.options.reviewOn();
		const widget = editor
			? widgetText(editor.state, editor.selectionFirstSeenSeconds, now, this.options.isSecret(editor))
			: undefined;
		this.options.showWidget(review ? reviewWidget(widget, editor !== undefined) : widget);
		this.announce(editor, widget, review);
		const fresh = editor && freshSelection(editor.state, editor.selectionFirstSeenSeconds, now);
		if (!fresh) return;
		const delayMs = Math.max(0, (fresh.freshness.staleAtSeconds - now) * 1000) + 1;
		this.cancelExpiry = this.options.clock.after(delayMs, () => this.render());
	}

	stop(): void {
		this.cancelExpiry?.();
		this.cancelExpiry = undefined;
	}

	private announce(editor: Editor | undefined, widget: string | undefined, review: boolean): void {
		const last = this.lastAnnounced;
		if (editor?.state === last.state && widget === last.widget && review === last.review) return;
		this.lastAnnounced = { state: editor?.state, widget, review };
		this.options.announce?.(
			editor && {
				key: editor.key,
				pid: editor.pid,
				app: sanitizeForDisplay(editor.state.app),
				file: absoluteFile(editor.state),
				timestamp: editor.state.timestamp,
				widget,
				review,
			},
		);
	}
}

/** With review on the widget always says so: after the editor's words, or alone for an editor showing no file. */
function reviewWidget(widget: string | undefined, connected: boolean): string {
	if (widget !== undefined) return widget + REVIEW_SUFFIX;
	return connected ? REVIEW_ALONE_TEXT : NO_EDITOR_TEXT + REVIEW_SUFFIX;
}
