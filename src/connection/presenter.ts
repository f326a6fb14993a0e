import { absoluteFile, freshSelection } from "../editors/core/active-buffer.ts";
import type { Editor } from "../editors/core/editor.ts";
import type { EditorEvent } from "../events.ts";
import { sanitizeForDisplay } from "../shared/core/display-text.ts";
import { widgetText } from "./core/widget-line.ts";

export interface PresenterOptions {
	showWidget: (text: string | undefined) => void;
	/** Told whenever the connected editor or its widget changes (pi's event bus). */
	announce?: (editor: EditorEvent | undefined) => void;
	nowSeconds: () => number;
	isSecret: (editor: Editor) => boolean;
}

/**
 * Shows the connected editor: the widget line, flipped by a timer the moment a fresh selection turns stale
 * (no editor write wakes pi then), and the event for other extensions, sent only when something changed.
 */
export class EditorPresenter {
	private expiryTimer?: NodeJS.Timeout;
	private lastAnnounced: { state?: Editor["state"]; widget?: string } = {};

	constructor(
		private readonly options: PresenterOptions,
		private readonly current: () => Editor | undefined,
	) {}

	render(): void {
		this.stop();
		const editor = this.current();
		const now = this.options.nowSeconds();
		const widget = editor
			? widgetText(editor.state, editor.selectionFirstSeenSeconds, now, this.options.isSecret(editor))
			: undefined;
		this.options.showWidget(widget);
		this.announce(editor, widget);
		const fresh = editor && freshSelection(editor.state, editor.selectionFirstSeenSeconds, now);
		if (!fresh) return;
		const delayMs = Math.max(0, (fresh.freshness.staleAtSeconds - now) * 1000) + 1;
		this.expiryTimer = setTimeout(() => this.render(), delayMs);
		this.expiryTimer.unref?.();
	}

	stop(): void {
		clearTimeout(this.expiryTimer);
		this.expiryTimer = undefined;
	}

	private announce(editor: Editor | undefined, widget: string | undefined): void {
		if (editor?.state === this.lastAnnounced.state && widget === this.lastAnnounced.widget) return;
		this.lastAnnounced = { state: editor?.state, widget };
		this.options.announce?.(
			editor && {
				key: editor.key,
				pid: editor.pid,
				app: sanitizeForDisplay(editor.state.app),
				file: absoluteFile(editor.state),
				timestamp: editor.state.timestamp,
				widget,
			},
		);
	}
}
