import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { goneLine, unchangedLine } from "../../src/prompt/core/editor-block.ts";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { projectState, selection } from "../support/fixtures.ts";
import { piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const now = () => Math.floor(Date.now() / 1000);
const MARKER = "const marker = 'the selected text';";
const BIG_SELECTION = [MARKER, ...Array.from({ length: 560 }, (_, i) => `const line${i} = ${i} * 2;`)].join("\n");

describe.each(piLines())("send once through the real $name CLI (RPC, sessions on disk)", (line) => {
	const ws = useE2eWorkspace();

	const texts = () => ws.server.requests.at(-1)?.messages.map(messageText) ?? [];
	const copies = () => texts().join("\n").split(MARKER).length - 1;
	const lastText = () => texts().at(-1);

	async function startWithSelection() {
		const nvim = ws.editor();
		nvim.write({
			...projectState(ws.project, { buffer: { selection: selection(1, 561, BIG_SELECTION, now()) } }),
			pid: nvim.pid,
		});
		const rpc = ws.stopLater(
			RpcPi.start(line, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				sessionDir: join(ws.root, "sessions"),
			}),
		);
		await waitFor("connected", () => rpc.lastWidget() === "561 lines selected in main.ts", 30_000);
		return { nvim, rpc };
	}

	test.skipIf(!line.node)(
		"one copy after three prompts; sent again after fork to before it and after new_session; not after resuming the first session; gone said once",
		async () => {
			const { nvim, rpc } = await startWithSelection();
			for (const prompt of ["first", "second", "third"]) await rpc.prompt(prompt);
			expect(copies()).toBe(1);
			expect(lastText()).toBe(unchangedLine());
			const firstSession = (await rpc.command({ type: "get_state" })).data as { sessionFile: string };

			const forks = (await rpc.command({ type: "get_fork_messages" })).data as {
				messages: { entryId: string; text: string }[];
			};
			const first = forks.messages.find((message) => message.text === "first");
			if (!first) throw new Error("no fork point");
			await rpc.command({ type: "fork", entryId: first.entryId });
			await rpc.prompt("on a fork from before the selection");
			expect(copies()).toBe(1);
			expect(lastText()).toContain(MARKER);

			await rpc.command({ type: "new_session" });
			await rpc.prompt("in a new session");
			expect(copies()).toBe(1);
			expect(lastText()).toContain(`File: ${ws.project}/src/main.ts`);

			await rpc.command({ type: "switch_session", sessionPath: firstSession.sessionFile });
			// Still connected across /fork, /new and /resume, and the resumed session still holds the text.
			await waitFor("widget after resume", () => rpc.lastWidget() === "561 lines selected in main.ts");
			await rpc.prompt("back in the first session");
			expect(copies()).toBe(1);
			expect(lastText()).toBe(unchangedLine());

			await nvim.kill();
			await waitFor("cleared", () => rpc.lastWidget() === "(cleared)", 3000);
			await rpc.prompt("editor closed");
			expect(lastText()).toBe(goneLine("disconnected"));
			await rpc.prompt("and again");
			expect(texts().filter((text) => text === goneLine("disconnected"))).toHaveLength(1);
			expect(lastText()).toBe("and again");
		},
	);

	test.skipIf(!line.node)(
		"a compaction that kept the text changes nothing; one that dropped it sends it again",
		async () => {
			writeFileSync(
				join(ws.agentDir, "settings.json"),
				JSON.stringify({ quietStartup: true, compaction: { enabled: false, keepRecentTokens: 3000 } }),
			);
			const { rpc } = await startWithSelection();
			// The first turn carries the selection (about 4 000 tokens): a small earlier turn gives compaction
			// something else to summarise.
			await rpc.prompt("hello");
			await rpc.prompt("look at this");
			await rpc.prompt("and this");
			const kept = await rpc.command({ type: "compact" }, 30_000);
			expect(kept, JSON.stringify(kept)).toMatchObject({ success: true });
			await rpc.prompt("after a compaction that kept it");
			expect(copies()).toBe(1);
			expect(lastText()).toBe(unchangedLine());
			for (const filler of ["a", "b", "c"]) await rpc.prompt(`filler ${filler} ${"z".repeat(8000)}`);
			await rpc.command({ type: "compact" }, 30_000);
			await rpc.prompt("after a compaction that dropped it");
			expect(copies()).toBe(1);
			expect(lastText()).toContain(MARKER);
		},
	);
});
