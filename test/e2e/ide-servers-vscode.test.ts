/**
 * What only Anthropic's VS Code extension does, through the real pi in RPC mode against its fake: it pushes
 * nothing on a file switch (pi asks before a prompt), it tells unsaved documents (the guard), and it keeps one
 * client, so another agent's connection closes pi's (pi says why and does not take it back on its own).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText, writerModel } from "../support/fake-model-server.ts";
import {
	editorBlock,
	FULL_HEADER,
	handshakeSeen,
	handshakes,
	lockfileListed,
	MAIN_TEXT,
	otherClient,
	pickFirst,
	sleep,
	startIdePi,
	startIdeServer,
	statusOf,
	toolCalls,
	waitForNotice,
} from "../support/ide-server-e2e.ts";
import { processFactsLines } from "../support/pi-cli.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

describe.each(processFactsLines())("the VS Code-like IDE server through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const main = () => join(ws.project, "src", "main.ts");

	test.skipIf(!line.node)(
		"a file switch it does not push is read before the prompt; a dirty document blocks the model's write; another client takes it: pi says why and does not fight; /ide takes it back",
		async () => {
			const fake = await startIdeServer(ws, "vscode");
			fake.setEditor({ file: main(), text: MAIN_TEXT });
			const rpc = startIdePi(ws, line);
			const label = `Visual Studio Code ${process.pid}`;
			await lockfileListed(rpc, fake, PI_START_TIMEOUT_MS);
			await pickFirst(rpc);
			await rpc.waitForWidget("in main.ts");

			// RPC mode: an at_mentioned is not put in the input (set_editor_text would replace all of it).
			fake.mention(main(), { start: 1, end: 2 });
			await sleep(300);
			expect(rpc.uiRequests("set_editor_text")).toEqual([]);

			// Quick open of another file: VS Code pushes nothing; the prompt asks before it is sent.
			const other = join(ws.project, "src", "other.ts");
			writeFileSync(other, "export const other = 1;\n");
			fake.setEditor(
				{
					file: other,
					text: "export const other = 1;\n",
					selection: { start: { line: 0, character: 7 }, end: { line: 0, character: 7 } },
				},
				{ push: false },
			);
			await sleep(300);
			expect(rpc.lastWidget()).toBe("in main.ts");
			const asked = toolCalls(fake, "getOpenEditors");
			await rpc.prompt("which file?");
			expect(toolCalls(fake, "getOpenEditors")).toBeGreaterThan(asked);
			expect(editorBlock(ws)).toEqual([
				FULL_HEADER,
				"App: vscode",
				`File: ${other}`,
				"Language: typescript",
				"Cursor: line 1, column 8",
				"Buffer: 2 lines, no unsaved changes",
			]);
			await rpc.waitForWidget("in other.ts");

			// main.ts typed in and not saved, while other.ts is the active file: the model's write of it is blocked.
			fake.setEditor({ dirty: [main()] });
			ws.server.reply = writerModel("src/main.ts");
			await rpc.prompt("write src/main.ts");
			expect(readFileSync(main(), "utf8")).toBe(MAIN_TEXT);
			// Not the active file: named by its path.
			expect(rpc.notices()).toContain(
				`pi-ide: blocked the model's write of ${main()}: your editor has unsaved changes to it (save or discard them, then let it retry)`,
			);
			const toolResult = ws.server.requests.at(-1)?.messages.find((message) => message.role === "tool");
			expect(messageText(toolResult ?? { content: "" })).toContain(
				`Blocked: the user's editor has unsaved changes to ${main()}.`,
			);
			ws.server.reply = () => "ok";

			// Another agent connects: the one-client server closes pi's socket without a code.
			const upgradesBefore = fake.upgrades.length;
			const intruder = await otherClient(fake);
			ws.defer(() => intruder.terminate());
			const why = "the editor closed pi's connection; another client may have taken it; /ide reconnects";
			await waitForNotice(rpc, `pi-ide: disconnected from ${label}: ${why}`);
			await rpc.waitForWidget("(cleared)");
			await sleep(2500);
			// Only the intruder's upgrade: pi did not reconnect and take the server back.
			expect(fake.upgrades.length).toBe(upgradesBefore + 1);
			expect(handshakes(fake)).toBe(1);
			expect(intruder.readyState).toBe(WebSocket.OPEN);
			const evicted = await statusOf(rpc, fake);
			expect(evicted).toContain(`    not connected: ${why}; unsaved guard: unknown until connected`);

			// Picked again by hand: pi connects (and the server drops the other client, as the user asked for).
			const rows = await pickFirst(rpc);
			expect(rows[0]).toMatch(/\(IDE server: connects when picked\)$/);
			await handshakeSeen(fake, 2, 10_000, rpc);
			await rpc.waitForWidget("in other.ts");
			await waitFor("the intruder closed", () => intruder.readyState === WebSocket.CLOSED);
			expect((await statusOf(rpc, fake)).split("\n")).toContain(`Connected: ${label}: picked with /ide`);
		},
	);
});
