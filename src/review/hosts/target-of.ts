import type { EditorChannel } from "../../editors/diff-channels.ts";
import type { DiffHost, ReviewTarget } from "../core/diff-host.ts";
import { emacsDiffHost } from "./emacs-host.ts";
import { neovimDiffHost } from "./neovim-host.ts";
import { toolDiffHost } from "./tool-host.ts";

type ChannelKind = EditorChannel["kind"];
type ChannelOf<K extends ChannelKind> = Extract<EditorChannel, { kind: K }>;

/** What a kind of channel gives a review: a host and how to answer there, or why none can; and where it shows. */
type KindEntry<C> = (
	| { host: (channel: C, editorName: string) => DiffHost; hint: string }
	| { unshown: (channel: C) => string }
) & {
	/** `/ide status`'s "shows in" line. */
	shows: (channel: C, editorName: string) => string;
};

/** The VS Code client's editor by its `app`, as the user and the model read it (not the picker's "vscode 1234"). */
const VSCODE_APP_NAMES: ReadonlyMap<string, string> = new Map([
	["vscode", "VS Code"],
	["cursor", "Cursor"],
	["windsurf", "Windsurf"],
	["vscodium", "VSCodium"],
]);

/** pi runs in that editor's own terminal: the review opens there without taking the user away from pi. */
const enclosingNote = (enclosing: boolean, what: string) => (enclosing ? ` (${what}: pi runs in its terminal)` : "");

/**
 * Every kind of channel the connected editor may have, each with its host: a kind added to `EditorChannel` does
 * not compile until it is here.
 */
const KINDS: { [K in ChannelKind]: KindEntry<ChannelOf<K>> } = {
	"ide-server": {
		host: (channel, editorName) => {
			const caller = channel.caller;
			const connect = async () => ({ ok: true as const, caller, release: () => {} });
			return toolDiffHost(editorName, connect, { ownClient: false });
		},
		// Its own diff viewer's buttons.
		hint: "its Accept or Reject (closing the tab rejects there)",
		shows: (_channel, editorName) => `${editorName}, through its IDE server's openDiff (and pi's select)`,
	},
	"vscode-client": {
		host: (channel, editorName) => {
			const connect = async () => {
				const opened = await channel.connect();
				return opened.ok ? { ok: true as const, caller: opened.caller, release: () => opened.caller.close() } : opened;
			};
			return toolDiffHost(VSCODE_APP_NAMES.get(channel.app) ?? editorName, connect, { ownClient: true });
		},
		// The commands in the palette and the diff editor's title bar.
		hint: '"pi: Accept Proposed Change" or "pi: Reject Proposed Change" (title bar, palette)',
		shows: (_channel, editorName) =>
			`${editorName}, a diff editor through its client's socket beside the state file (and pi's select)`,
	},
	neovim: {
		host: (channel) => neovimDiffHost(channel.channel),
		// In the proposal's buffer; closing it decides nothing.
		hint: ":w in the proposal accepts it (edited or not), :PiReject [why] rejects",
		shows: (channel, editorName) =>
			`${editorName}, a tab page of pi's own over its server${enclosingNote(channel.channel.enclosing, "not entered")} (and pi's select)`,
	},
	emacs: {
		host: (channel) => emacsDiffHost(channel.channel),
		// In the proposal's buffer.
		hint: "C-c C-c in the proposal accepts it (edited or not), C-c C-k rejects (asks why), killing it decides nothing",
		shows: (channel, editorName) =>
			`${editorName}, a buffer of pi's own beside the file over its server${enclosingNote(channel.channel.enclosing, "not selected")} (and pi's select)`,
	},
	none: {
		unshown: (channel) => channel.reason,
		shows: (channel) => `pi's select only: ${channel.reason}`,
	},
};

/** The entry of the channel's own kind (the table is keyed by it, so the entry takes that channel). */
const entryOf = (channel: EditorChannel) => KINDS[channel.kind] as KindEntry<EditorChannel>;

/** The connected editor's channel as a review target: a host and how to answer there, or why none can show it. */
export function targetOf(channel: EditorChannel, editorName: string): ReviewTarget {
	const entry = entryOf(channel);
	return "host" in entry
		? { host: entry.host(channel, editorName), hint: entry.hint }
		: { none: entry.unshown(channel) };
}

/** `/ide status`'s "shows in" line. */
export function showsText(channel: EditorChannel, editorName: string): string {
	return entryOf(channel).shows(channel, editorName);
}
