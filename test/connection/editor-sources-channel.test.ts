/**
 * How the connected editor could show a diff (`channelOf`), for an editor read from a state file: this
 * package's VS Code client with the channel is reached over its socket (the client's real server, a real dir),
 * an older client or another one cannot show one.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { listenChannel } from "../../clients/vscode/src/channel-server.ts";
import { EditorSources } from "../../src/connection/editor-sources.ts";
import { pidKey } from "../../src/editors/core/editor-key.ts";
import type { EditorState } from "../../src/editors/core/protocol-state.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { editorState } from "../support/fixtures.ts";
import { testProcessFacts } from "../support/process-facts.ts";
import { sourceHooks } from "../support/source-hooks.ts";
import { tempDir } from "../support/temp-dir.ts";

const uid = process.getuid?.() ?? 0;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Sources on a dir holding this process's state file, written by `client`. */
async function sourcesWith(client: string) {
	const root = tempDir("editor-sources-channel");
	cleanups.push(root.cleanup);
	chmodSync(root.path, 0o700);
	const state = editorState({ pid: process.pid, timestamp: Date.now() / 1000, client });
	writeFileSync(join(root.path, `${process.pid}.json`), JSON.stringify(state), { mode: 0o600 });
	const sources = new EditorSources(
		{ stateDirs: [{ path: root.path, role: "override" }], uid, facts: testProcessFacts() },
		sourceHooks(),
		{ projectDir: () => root.path, connectedKey: () => undefined, mentioned: () => {} },
	);
	for (const dir of sources.dirs) {
		cleanups.push(() => dir.close());
		await dir.start();
	}
	return { sources, dir: root.path, editor: { key: pidKey(process.pid), origin: "state-file" as const, state } };
}

describe("channelOf for an editor read from a state file", () => {
	test("this package's client with the channel: a vscode-client channel that connects to its socket", async () => {
		const { sources, dir, editor } = await sourcesWith("pi-ide-context-vscode/0.4.0");
		const started = await listenChannel(join(dir, `${process.pid}.sock`), "0.4.0", {
			callTool: async () => ({ result: {} }),
			peerGone: () => {},
		});
		if (!started.ok) throw new Error(started.reason);
		cleanups.push(started.close);
		const channel = sources.channelOf(editor);
		if (channel.kind !== "vscode-client") throw new Error(`not the client's channel: ${JSON.stringify(channel)}`);
		expect(channel.app).toBe(editor.state.app);
		const opened = await channel.connect();
		if (!opened.ok) throw new Error(opened.reason);
		cleanups.push(() => opened.caller.close());
		expect(opened.caller.offers("openDiff")).toBe(true);
	});

	test("an older client or another one: no diff, and why", async () => {
		for (const client of ["pi-ide-context-vscode/0.3.0", "someone-else/1.0.0"]) {
			const { sources, editor } = await sourcesWith(client);
			expect(sources.channelOf(editor)).toEqual({ kind: "none", reason: "its state-file client cannot show a diff" });
		}
	});
});

describe("channelOf for an Emacs read over its own server", () => {
	test("pi holds no open connection with it: no diff, and why (never a state file's channel)", async () => {
		const { sources, editor } = await sourcesWith("pi-ide-context-vscode/0.4.0");
		expect(sources.channelOf({ ...editor, origin: "emacs" })).toEqual({
			kind: "none",
			reason: "pi's connection to that Emacs is not open",
		});
	});
});

describe("the Emacs source among the sources", () => {
	test('"emacs": false: its status section and /ide line say where; no Emacs source is asked for a reload', async () => {
		const root = tempDir("editor-sources-emacs");
		cleanups.push(root.cleanup);
		const sources = new EditorSources(
			{
				stateDirs: [],
				uid,
				facts: testProcessFacts(),
				emacs: {
					enabled: { on: false, source: "/g/settings.json" },
					uid,
					platform: process.platform,
					env: {},
					facts: testProcessFacts(),
				},
			},
			sourceHooks(),
			{ projectDir: () => root.path, connectedKey: () => undefined, mentioned: () => {} },
		);
		await sources.merged.start();
		cleanups.push(() => sources.merged.close());
		const off = 'Emacs: off ("emacs": false in /g/settings.json)';
		expect(sources.statusSections(systemClock.nowSeconds(), root.path)).toEqual([
			expect.stringMatching(/^Processes: (procfs|ps \+ lsof)/),
			off,
		]);
		expect(sources.noMatchLines()).toEqual([off]);
		const emacsEditor = { key: pidKey(process.pid), origin: "emacs" as const, state: {} as EditorState };
		expect(await sources.reloadAfterWrite(emacsEditor, join(root.path, "a.ts"))).toBeUndefined();
	});
});
