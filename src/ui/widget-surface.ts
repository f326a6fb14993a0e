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

	constructor(private readonly ui: ExtensionUIContext | undefined) {}

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
				() => {
					rendered = true;
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
