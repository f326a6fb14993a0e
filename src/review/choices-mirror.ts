import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";

/**
 * What the review asks of pi's question mirror (questions/, a feature after this one, handed in by index.ts):
 * its choices shown as one question in the editor a run came from, beside pi's own select. The review asks pi
 * with the functions the mirror wrapped, so the editor gets the choices, not a notice of a dialog in pi.
 */
export interface ChoicesMirror {
	/**
	 * The choices in the editor of the running run, withdrawn by `signal`: the one chosen there, or undefined
	 * once withdrawn. Undefined at once when no editor would show it (a run typed into pi, mirroring off).
	 */
	choose(title: string, choices: readonly string[], signal: AbortSignal): Promise<string | undefined> | undefined;
	/** `ui` with pi's `select` and `custom` as they were before the mirror's wrap (its `input` stays mirrored). */
	unmirrored(ui: ExtensionUIContext): ExtensionUIContext;
}
