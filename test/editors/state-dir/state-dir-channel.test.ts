/**
 * The state-dir source names the VS Code client's channel for a connected key (for the review) and says in
 * `/ide status` when this package's client has none: real dir, real state files, the client's real server.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { listenChannel } from "../../../clients/vscode/src/channel-server.ts";
import { pidKey } from "../../../src/editors/core/editor-key.ts";
import { StateDir } from "../../../src/editors/state-dir/state-dir.ts";
import { editorState } from "../../support/fixtures.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";

const uid = process.getuid?.() ?? 0;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A dir holding this process's state file, written by `client`; the source started on it. */
async function sourceWith(client: string | undefined): Promise<{ source: StateDir; dir: string }> {
	const root = tempDir("state-dir-channel");
	cleanups.push(root.cleanup);
	chmodSync(root.path, 0o700);
	const state = editorState({ pid: process.pid, timestamp: Date.now() / 1000, ...(client && { client }) });
	writeFileSync(join(root.path, `${process.pid}.json`), JSON.stringify(state), { mode: 0o600 });
	const hooks = sourceHooks();
	const source = new StateDir({ path: root.path, role: "override" }, uid, hooks, testProcessFacts());
	cleanups.push(() => source.close());
	await source.start();
	return { source, dir: root.path };
}

const key = pidKey(process.pid);

describe("the state dir and the VS Code client's channel", () => {
	test("a client with the channel: its socket named for the key; /ide status quiet once it listens", async () => {
		const { source, dir } = await sourceWith("pi-ide-context-vscode/0.4.0");
		const socket = join(dir, `${process.pid}.sock`);
		expect(source.clientChannelOf(key)).toMatchObject({ dir, pid: process.pid, uid, socket });
		expect(source.files()[0]?.channelMissing).toBe(
			`review channel: ${socket}: no socket: update with /ide install vscode`,
		);
		const started = await listenChannel(socket, "0.4.0", {
			callTool: async () => ({ result: {} }),
			peerGone: () => {},
		});
		if (!started.ok) throw new Error(started.reason);
		cleanups.push(started.close);
		expect(source.files()[0]?.channelMissing).toBeUndefined();
		// The editors list is read on every tick: it never pays the socket's lstat.
		expect(source.editors()[0]).not.toHaveProperty("channelMissing");
	});

	test("an older client: no channel to name, and /ide status says to update", async () => {
		const { source } = await sourceWith("pi-ide-context-vscode/0.3.0");
		expect(source.clientChannelOf(key)).toBeUndefined();
		expect(source.files()[0]?.channelMissing).toBe(
			"client 0.3.0 has no review channel: update with /ide install vscode",
		);
	});

	test("another client, no client field, an unknown key: nothing", async () => {
		for (const client of ["someone-else/1.0.0", undefined]) {
			const { source } = await sourceWith(client);
			expect(source.clientChannelOf(key)).toBeUndefined();
			expect(source.files()[0]?.channelMissing).toBeUndefined();
			expect(source.clientChannelOf("pid:1")).toBeUndefined();
		}
	});
});
