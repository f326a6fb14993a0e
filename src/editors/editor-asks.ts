/**
 * The way back from an editor to pi itself: a prompt typed in the editor (`:Pi`, `M-x pi-ask`, "pi: Ask…"),
 * references put into pi's input, a stop, the reply. A source hands each message of an editor to `EditorAsks`
 * (asks/, a feature after `editors`) with a way to tell that editor what became of it; asks/ knows no editor.
 */
import type { AskMethod, AskNews } from "./core/ask-methods.ts";

export type { AskNews };

/** One editor that asks, as its source hands it over. */
export interface AskingEditor {
	/** The editor's key (`pid:<n>`): the connection's and the controller's name for it. */
	key: string;
	/** How pi names it to the user: `Neovim 4242`. */
	label: string;
	/** Shows news in that editor; never throws (an editor gone meanwhile shows nothing). */
	tell(news: AskNews): void;
	/** Why this editor cannot show pi's questions (a VS Code client older than 0.7.0), when it cannot. */
	noQuestions?: string;
	/**
	 * pi-bridge.nvim's part: `plugin`, a connection of the plugin's (pi-bridge/); `host`, a Neovim that runs the
	 * plugin, which shows pi's questions of a turn the plugin asked in too through the plugin, never twice.
	 */
	piBridge?: "plugin" | "host";
}

export interface EditorAsks {
	/** Asks are on (the settings, a pi with a UI or RPC): a source defines its commands in an editor only then. */
	on(): boolean;
	/** One message of the editor's, unchecked; the answer (or the refusal) reaches the editor through `tell`. */
	received(editor: AskingEditor, method: AskMethod, params: unknown): void;
	/** The editor's connection ended: nothing more is told it. */
	gone(key: string): void;
}

/** What a source answers when asked to make its buffers follow the disk at a run's end: per editor key. */
export interface DiskFollowed {
	key: string;
	/** Files changed on disk that stay as the buffer had them (unsaved changes, `autoread` off). */
	notReloaded: number;
}
