/**
 * Review of the model's edits through an IDE server's `openDiff`, in the real pi (RPC) on both lines: the fakes
 * answer as the reference says the servers do (JetBrains' FILE_SAVED with LF text, DIFF_REJECTED), or hold the
 * call as a user who never looks; pi's own select answers at the same moment.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { writerModel } from "../support/fake-model-server.ts";
import { connectionOpen, pickFirst, startIdePi, startIdeServer, toolCalls } from "../support/ide-server-e2e.ts";
import { processFactsLines, writeAgentDir } from "../support/pi-cli.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const REVIEW_ON = { "pi-ide": { review: true } };

describe.each(processFactsLines())("review through an IDE server's openDiff, in the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const target = () => join(ws.project, "src", "main.ts");

	/** pi with review on, connected to the fake; the model will write `content` into src/main.ts when asked. */
	async function connected(rpc: RpcPi, fake: { port: number }) {
		await waitFor(
			"the lockfile listed",
			async () => (await rpc.ideStatus()).join("\n").includes(`holds port ${fake.port}`),
			PI_START_TIMEOUT_MS,
		);
		await pickFirst(rpc);
		await connectionOpen(rpc, fake as never);
	}

	function start(content: string): RpcPi {
		writeAgentDir(ws.agentDir, ws.server.baseUrl, REVIEW_ON);
		ws.server.reply = writerModel(target(), content);
		return startIdePi(ws, line);
	}

	const toolResult = () => ws.toolResults();

	/** The select pi raises for the review, answered (or left) by the test. */
	const reviewSelect = (rpc: RpcPi) =>
		waitFor("pi's review select", () =>
			rpc.uiRequests("select").find((request) => String(request.title).startsWith("Review: ")),
		);

	test.skipIf(!line.node)(
		"JetBrains-like: FILE_SAVED with the user's LF text on a CRLF file: the file gets their version in CRLF, the model the diff of their changes",
		async () => {
			writeFileSync(target(), "one\r\ntwo\r\nthree\r\n");
			const fake = await startIdeServer(ws, "jetbrains", {
				diffText: (proposed) => proposed.replace("TWO", "TWO, said the user"),
			});
			const rpc = start("one\r\nTWO\r\nthree\r\n");
			await connected(rpc, fake);
			await rpc.prompt(`write ${target()}`);
			expect(readFileSync(target(), "utf8")).toBe("one\r\nTWO, said the user\r\nthree\r\n");
			const call = fake.received.find((received) => received.message?.params?.name === "openDiff")?.message.params
				.arguments;
			expect(call).toMatchObject({
				old_file_path: target(),
				new_file_path: target(),
				new_file_contents: "one\r\nTWO\r\nthree\r\n",
			});
			expect(call.tab_name).toMatch(/^✻ \[pi\] main\.ts \([0-9a-f]{6}\) ⧉$/);
			expect(toolResult()).toContain("The user changed your proposed content before accepting it");
			expect(toolResult()).toContain("-TWO\n+TWO, said the user");
			expect(toolCalls(fake, "close_tab")).toBe(1);
			expect(toolCalls(fake, "closeAllDiffTabs")).toBe(0);
			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toContain("Review of the model's edits: on (global settings)");
			expect(status).toMatch(/0s ago: write src\/main\.ts: accepted, changed by you \(in .*\)/);
		},
	);

	test.skipIf(!line.node)(
		"DIFF_REJECTED: the file untouched, the model told it was rejected and not to repeat it",
		async () => {
			writeFileSync(target(), "mine\n");
			const fake = await startIdeServer(ws, "vscode", { diffOutcome: "DIFF_REJECTED" });
			const rpc = start("theirs\n");
			await connected(rpc, fake);
			await rpc.prompt(`write ${target()}`);
			expect(readFileSync(target(), "utf8")).toBe("mine\n");
			expect(toolResult()).toContain("The user rejected this write of src/main.ts in");
			expect(toolResult()).toContain("Do not make the same change again");
			const select = await reviewSelect(rpc);
			expect(String(select.title)).toContain("Review: write src/main.ts (+1 -1)");
		},
	);

	test.skipIf(!line.node)(
		"a server that never answers while pi's select does: accepted in pi, the tab closed, the file written once",
		async () => {
			writeFileSync(target(), "before\n");
			const fake = await startIdeServer(ws, "jetbrains");
			const held = fake.holdTool("openDiff");
			ws.defer(() => held.release());
			const rpc = start("after\n");
			await connected(rpc, fake);
			const done = rpc.prompt(`write ${target()}`);
			const select = await reviewSelect(rpc);
			expect(select.options).toEqual(["Accept", "Accept all in this session", "Reject", "Reject and say why"]);
			expect(String(select.title)).toContain('tab "✻ [pi] main.ts (');
			expect(select.timeout).toBe(120_000);
			await waitFor("openDiff asked", () => toolCalls(fake, "openDiff") === 1);
			rpc.respond(String(select.id), { value: "Accept" });
			await done;
			expect(readFileSync(target(), "utf8")).toBe("after\n");
			expect(toolCalls(fake, "close_tab")).toBe(1);
			expect(toolResult()).not.toContain("The user changed");
		},
	);
});
