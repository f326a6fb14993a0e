import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { fitWidgetLine } from "../connection/core/widget-line.ts";

export const WIDGET_KEY = "pi-ide-context";

/**
 * Where the widget line goes. The TUI takes a component factory (we truncate to the width it renders at:
 * an over-wide line makes pi exit); RPC ignores factories and takes plain lines; print mode has no UI.
 */
export class WidgetSurface {
	private lastText: string | undefined;
	private rpc = false;
	private disposed = false;
	/** The TUI that built the widget: asked to redraw after text is put into pi's input from outside a key handler. */
	private tui?: { requestRender: () => void };

	constructor(private readonly ui: ExtensionUIContext | undefined) {}

	/** RPC mode, as the first widget shown found out (the TUI builds factories, RPC drops them). */
	get isRpc(): boolean {
		return this.rpc;
	}

	show(text: string | undefined): void {
		if (this.disposed || !this.ui || text === this.lastText) return;
		this.lastText = text;
		if (text === undefined) {
			this.ui.setWidget(WIDGET_KEY, undefined);
			return;
		}
		if (!this.rpc) {
			let rendered = false;
			this.ui.setWidget(
				WIDGET_KEY,
				(tui: { requestRender: () => void }) => {
					rendered = true;
					this.tui = tui;
					return { render: (width: number) => [fitWidgetLine(text, width)], invalidate: () => {} };
				},
				{ placement: "belowEditor" },
			);
			// The TUI builds the component synchronously; RPC drops factories without calling them.
			if (rendered) return;
			this.rpc = true;
		}
		this.ui.setWidget(WIDGET_KEY, [text], { placement: "belowEditor" });
	}

	/**
	 * Puts text at the cursor of pi's input, as a paste, and redraws: only in the interactive TUI (RPC's
	 * `set_editor_text` would replace the whole input, print mode has none). False when it was not put.
	 */
	insert(text: string): boolean {
		if (this.disposed || !this.ui || this.rpc || !this.tui) return false;
		this.ui.pasteToEditor(text);
		this.tui.requestRender();
		return true;
	}

	/** Clears the widget; afterwards the captured ui is never touched again (its session may be gone). */
	dispose(): void {
		if (this.disposed) return;
		if (this.lastText !== undefined) {
			try {
				this.ui?.setWidget(WIDGET_KEY, undefined);
			} catch {
				// The session may already be torn down; nothing left to clear then.
			}
		}
		this.disposed = true;
	}
}
