import type { ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, test } from "vitest";
import type { Editor } from "../../src/editors/core/editor.ts";
import { type IdeCommandConnection, runIdeCommand } from "../../src/ui/ide-command.ts";
import { editorState } from "../support/fixtures.ts";

const NOW = 1_800_000_000;

const editor = (pid: number, tier: 0 | 1 | undefined): Editor => ({
	origin: "state-file",
	key: `pid:${pid}`,
	pid,
	alive: true,
	state: editorState({ pid, timestamp: NOW - pid }),
	paths: { cwd: "/home/dev/proj", argvDirs: [] },
	selectionFirstSeenSeconds: NOW,
	writtenAtSeconds: NOW,
	match: { tier, evidence: "cwd equals the project" },
});

/** `/ide`'s view of the connection, recording what it was asked to do. */
function connection(editors: Editor[], connectedKey?: string) {
	const calls: string[] = [];
	const fake: IdeCommandConnection = {
		statusText: () => "pi-ide status\n...",
		setReview: (on) => (on ? "review on" : "review off"),
		setSuggestions: (on) => {
			calls.push(`suggestions ${on ? "on" : "off"}`);
			return on ? "suggestions on" : "suggestions off";
		},
		pickable: (all) => (all ? editors : editors.filter((e) => e.match.tier === 0)),
		liveEditors: () => editors,
		connectedKey: () => connectedKey,
		connect: (picked, why) => calls.push(`connect ${picked.key}: ${why}`),
		disconnect: (options) => calls.push(`disconnect${options.pauseAutoConnect ? ", auto-connect paused" : ""}`),
		noMatchText: () => "No editor found for /home/dev/proj.",
		nowSeconds: () => NOW,
		lookAgain: async () => {
			calls.push("look again");
		},
		installVscodeClient: async () => {
			calls.push("install vscode");
			return "VS Code client (pi-ide-context.vscode-client): ...";
		},
	};
	return { fake, calls };
}

/** pi's command context as `/ide` uses it; `choose` answers the picker (RPC mode: no custom UI, a select). */
function context(choose: (options: string[]) => string | undefined = () => undefined) {
	const notices: string[] = [];
	const shown: string[][] = [];
	const ctx = {
		hasUI: true,
		ui: {
			notify: (message: string, level: string) => notices.push(`${level}: ${message}`),
			custom: async () => undefined,
			select: async (_title: string, options: string[]) => {
				shown.push(options);
				return choose(options);
			},
		},
	} as unknown as ExtensionCommandContext;
	return { ctx, notices, shown };
}

describe("/ide and its subcommands, on the connection's functions", () => {
	test("status: the doctor's text", async () => {
		const { fake } = connection([]);
		const { ctx, notices } = context();
		await runIdeCommand(" status ", ctx, fake);
		expect(notices).toEqual(["info: pi-ide status\n..."]);
	});

	test("install vscode: the install's report as one notice", async () => {
		const { fake, calls } = connection([]);
		const { ctx, notices } = context();
		await runIdeCommand("install vscode", ctx, fake);
		expect(calls).toEqual(["install vscode"]);
		expect(notices).toEqual(["info: VS Code client (pi-ide-context.vscode-client): ..."]);
	});

	test("off: disconnect and pause auto-connect", async () => {
		const { fake, calls } = connection([editor(12, 0)], "pid:12");
		const { ctx, notices } = context();
		await runIdeCommand("off", ctx, fake);
		expect(calls).toEqual(["disconnect, auto-connect paused"]);
		expect(notices).toEqual(["info: pi-ide: disconnected; auto-connect paused until you pick an editor with /ide"]);
	});

	test.each([
		["suggestions on", "info: suggestions on"],
		["suggestions off", "info: suggestions off"],
	])("%s: for this pi process, what is now true as one notice", async (args, notice) => {
		const { fake, calls } = connection([editor(12, 0)]);
		const { ctx, notices } = context();
		await runIdeCommand(` ${args} `, ctx, fake);
		expect(calls).toEqual([args]);
		expect(notices).toEqual([notice]);
	});

	test("an unknown argument: a warning that lists the right ones", async () => {
		const { fake, calls } = connection([editor(12, 0)]);
		const { ctx, notices } = context();
		await runIdeCommand("bogus", ctx, fake);
		expect(calls).toEqual([]);
		expect(notices).toEqual(['warning: pi-ide: unknown argument "bogus"; use /ide, /ide all, /ide off or /ide status']);
	});

	test("nothing to pick in this project (after looking again): where pi looked and what runs elsewhere", async () => {
		const { fake } = connection([editor(12, undefined)]);
		const { ctx, notices, shown } = context();
		await runIdeCommand("", ctx, fake);
		expect(shown).toEqual([]);
		expect(notices).toEqual(["info: No editor found for /home/dev/proj."]);
	});

	test("the picker: newest first, the connected one marked, a Disconnect row; picking connects", async () => {
		const { fake, calls } = connection([editor(12, 0), editor(13, 0)], "pid:13");
		const { ctx, notices, shown } = context((options) => options[1]);
		await runIdeCommand("", ctx, fake);
		expect(shown).toEqual([
			[
				"nvim 12  src/main.ts - main.ts, active 12s ago",
				"* nvim 13  src/main.ts - main.ts, active 13s ago  (connected)",
				"Disconnect - stop sending editor context",
			],
		]);
		expect(calls).toEqual(["look again", "connect pid:13: picked with /ide"]);
		expect(notices).toEqual(["info: pi-ide: connected to * nvim 13  src/main.ts"]);
	});

	test("/ide all offers editors of other projects too; Disconnect pauses auto-connect", async () => {
		const { fake, calls } = connection([editor(12, 0), editor(14, undefined)], "pid:12");
		const { ctx, shown } = context((options) => options.at(-1));
		await runIdeCommand("all", ctx, fake);
		expect(shown[0]).toHaveLength(3);
		expect(calls).toEqual(["look again", "disconnect, auto-connect paused"]);
	});

	test("an editor that went away while the picker was open: said, nothing connected", async () => {
		const editors = [editor(12, 0)];
		const { fake, calls } = connection(editors);
		const { ctx, notices } = context((options) => {
			editors.splice(0);
			return options[0];
		});
		await runIdeCommand("", ctx, fake);
		expect(calls).toEqual(["look again"]);
		expect(notices).toEqual(["warning: pi-ide: that editor is gone"]);
	});

	test("cancelled: nothing happens", async () => {
		const { fake, calls } = connection([editor(12, 0)]);
		const { ctx, notices } = context(() => undefined);
		await runIdeCommand("", ctx, fake);
		expect(calls).toEqual(["look again"]);
		expect(notices).toEqual([]);
	});
});
