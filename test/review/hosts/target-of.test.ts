import { describe, expect, test } from "vitest";
import type { EditorChannel, EmacsDiffChannel, NeovimDiffChannel } from "../../../src/editors/diff-channels.ts";
import type { ToolCaller } from "../../../src/editors/tool-caller.ts";
import { showsText, targetOf } from "../../../src/review/hosts/target-of.ts";

/** A channel's parts are only called when a review opens: none is here. */
const unused = () => {
	throw new Error("not asked");
};
const neovim = (enclosing: boolean) =>
	({
		enclosing,
		channel: 3,
		clock: unused,
		run: unused,
		onDiffEvent: unused,
		whenClosed: unused,
	}) as unknown as NeovimDiffChannel;
const emacs = (enclosing: boolean) =>
	({
		enclosing,
		prefix: "p-",
		privateDir: "/d",
		clock: unused,
		run: unused,
		onReviewMessage: unused,
		whenClosed: unused,
	}) as unknown as EmacsDiffChannel;
const caller = {
	callTool: unused,
	offers: unused,
	onNotification: unused,
	whenClosed: unused,
} as unknown as ToolCaller;

describe("the connected editor's channel as a review target", () => {
	test.each<[string, EditorChannel, string, { editorName: string; hint: string }]>([
		[
			"an IDE server, by the editor's name",
			{ kind: "ide-server", caller },
			"IntelliJ IDEA",
			{ editorName: "IntelliJ IDEA", hint: "its Accept or Reject (closing the tab rejects there)" },
		],
		[
			"the VS Code client, by its app",
			{ kind: "vscode-client", app: "cursor", connect: unused },
			"cursor 12",
			{
				editorName: "Cursor",
				hint: '"pi: Accept Proposed Change" or "pi: Reject Proposed Change" (title bar, palette)',
			},
		],
		[
			"the VS Code client of an app pi does not know, by the editor's name",
			{ kind: "vscode-client", app: "other", connect: unused },
			"other 12",
			{
				editorName: "other 12",
				hint: '"pi: Accept Proposed Change" or "pi: Reject Proposed Change" (title bar, palette)',
			},
		],
		[
			"Neovim",
			{ kind: "neovim", channel: neovim(false) },
			"nvim 12",
			{ editorName: "Neovim", hint: ":w in the proposal accepts it (edited or not), :PiReject [why] rejects" },
		],
		[
			"Emacs",
			{ kind: "emacs", channel: emacs(false) },
			"emacs 12",
			{
				editorName: "Emacs",
				hint: "C-c C-c in the proposal accepts it (edited or not), C-c C-k rejects (asks why), killing it decides nothing",
			},
		],
	])("%s: its host, and how to answer there", (_name, channel, editorName, expected) => {
		const target = targetOf(channel, editorName);
		expect("host" in target && { editorName: target.host.editorName, hint: target.hint }).toEqual(expected);
	});

	test("no channel: why none can show it", () => {
		expect(targetOf({ kind: "none", reason: "Zed is read from its database" }, "Zed")).toEqual({
			none: "Zed is read from its database",
		});
	});
});

describe("/ide status's shows-in line", () => {
	test.each<[string, EditorChannel, string]>([
		[
			"IntelliJ IDEA, through its IDE server's openDiff (and pi's select)",
			{ kind: "ide-server", caller },
			"IntelliJ IDEA",
		],
		[
			"cursor 12, a diff editor through its client's socket beside the state file (and pi's select)",
			{ kind: "vscode-client", app: "cursor", connect: unused },
			"cursor 12",
		],
		[
			"Neovim, a tab page of pi's own over its server (and pi's select)",
			{ kind: "neovim", channel: neovim(false) },
			"Neovim",
		],
		[
			"Neovim, a tab page of pi's own over its server (not entered: pi runs in its terminal) (and pi's select)",
			{ kind: "neovim", channel: neovim(true) },
			"Neovim",
		],
		[
			"Emacs, a buffer of pi's own beside the file over its server (and pi's select)",
			{ kind: "emacs", channel: emacs(false) },
			"Emacs",
		],
		[
			"Emacs, a buffer of pi's own beside the file over its server (not selected: pi runs in its terminal) (and pi's select)",
			{ kind: "emacs", channel: emacs(true) },
			"Emacs",
		],
		["pi's select only: no editor is connected", { kind: "none", reason: "no editor is connected" }, ""],
	])("%s", (expected, channel, editorName) => {
		expect(showsText(channel, editorName)).toBe(expected);
	});
});
