import type { EditorChannel } from "../../connection/editor-sources.ts";
import type { ReviewTarget } from "../core/diff-host.ts";
import { emacsDiffHost } from "./emacs-host.ts";
import { neovimDiffHost } from "./neovim-host.ts";
import { toolDiffHost } from "./tool-host.ts";

/** How to answer in Neovim: in the proposal's buffer (closing it decides nothing). */
const NEOVIM_HINT = ":w in the proposal accepts it (edited or not), :PiReject [why] rejects";
/** How to answer in Emacs: in the proposal's buffer (killing it decides nothing). */
const EMACS_HINT =
	"C-c C-c in the proposal accepts it (edited or not), C-c C-k rejects (asks why), killing it decides nothing";
/** How to answer in VS Code: the commands in the palette and the diff editor's title bar. */
const VSCODE_HINT = '"pi: Accept Proposed Change" or "pi: Reject Proposed Change" (title bar, palette)';
/** The VS Code client's editor by its `app`, as the user and the model read it (not the picker's "vscode 1234"). */
const VSCODE_APP_NAMES: ReadonlyMap<string, string> = new Map([
	["vscode", "VS Code"],
	["cursor", "Cursor"],
	["windsurf", "Windsurf"],
	["vscodium", "VSCodium"],
]);
/** How to answer in the IDE: its own diff viewer's buttons. */
const IDE_HINT = "its Accept or Reject (closing the tab rejects there)";

/** The connected editor's channel as a review target: a host and how to answer there, or why none can show it. */
export function targetOf(channel: EditorChannel, editorName: string): ReviewTarget {
	switch (channel.kind) {
		case "ide-server": {
			const caller = channel.caller;
			const connect = async () => ({ ok: true as const, caller, release: () => {} });
			return { host: toolDiffHost(editorName, connect, { ownClient: false }), hint: IDE_HINT };
		}
		case "neovim":
			return { host: neovimDiffHost(channel.channel), hint: NEOVIM_HINT };
		case "emacs":
			return { host: emacsDiffHost(channel.channel), hint: EMACS_HINT };
		case "vscode-client": {
			const connect = async () => {
				const opened = await channel.connect();
				return opened.ok ? { ok: true as const, caller: opened.caller, release: () => opened.caller.close() } : opened;
			};
			const name = VSCODE_APP_NAMES.get(channel.app) ?? editorName;
			return { host: toolDiffHost(name, connect, { ownClient: true }), hint: VSCODE_HINT };
		}
		case "none":
			return { none: channel.reason };
	}
}

/** `/ide status`'s "shows in" line. */
export function showsText(channel: EditorChannel, editorName: string): string {
	switch (channel.kind) {
		case "ide-server":
			return `${editorName}, through its IDE server's openDiff (and pi's select)`;
		case "vscode-client":
			return `${editorName}, a diff editor through its client's socket beside the state file (and pi's select)`;
		case "neovim":
			return `${editorName}, a tab page of pi's own over its server${channel.channel.enclosing ? " (not entered: pi runs in its terminal)" : ""} (and pi's select)`;
		case "emacs":
			return `${editorName}, a buffer of pi's own beside the file over its server${channel.channel.enclosing ? " (not selected: pi runs in its terminal)" : ""} (and pi's select)`;
		case "none":
			return `pi's select only: ${channel.reason}`;
	}
}
