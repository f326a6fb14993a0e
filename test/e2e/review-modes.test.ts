/**
 * Review with no editor that can show a diff, in the real pi on both lines: print mode blocks (nobody to ask)
 * unless review is only a project's word, RPC asks with pi's select (with a timeout: an RPC host's dialog cannot
 * be withdrawn), `/ide review on|off` turns it on and off for the pi process, and the widget says so.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { writerModel } from "../support/fake-model-server.ts";
import { piLines, spawnPi, writeAgentDir } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

describe.each(piLines())("review without an editor to show it, in the real $name", (line) => {
	const ws = useE2eWorkspace();
	const target = () => join(ws.project, "src", "main.ts");
	const toolResult = () => ws.toolResults();

	async function print(prompt: string): Promise<void> {
		const run = spawnPi(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, args: ["-p", prompt] });
		expect(await run.exited, run.stderr()).toBe(0);
	}

	test.skipIf(!line.node)(
		"print mode, review on in the global settings: the write is blocked, saying how to turn review off",
		async () => {
			writeFileSync(target(), "mine\n");
			writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { review: true } });
			ws.server.reply = writerModel(target(), "theirs\n");
			await print(`write ${target()}`);
			expect(readFileSync(target(), "utf8")).toBe("mine\n");
			expect(toolResult()).toContain("no editor that can show a diff is connected");
			expect(toolResult()).toContain('"review": false');
		},
	);

	test.skipIf(!line.node)(
		"print mode, review on only in the project's settings: a script's writes are not blocked",
		async () => {
			writeFileSync(target(), "mine\n");
			mkdirSync(join(ws.project, ".pi"), { recursive: true });
			writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify({ "pi-ide": { review: true } }));
			ws.server.reply = writerModel(target(), "theirs\n");
			await print(`write ${target()}`);
			expect(readFileSync(target(), "utf8")).toBe("theirs\n");
		},
	);

	test.skipIf(!line.node)(
		"RPC: /ide review on puts ', review on' in the widget; pi's select asks (with a timeout), Reject keeps the file; off again",
		async () => {
			writeFileSync(target(), "mine\n");
			ws.server.reply = writerModel(target(), "theirs\n");
			const rpc = ws.stopLater(
				RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, env: { NVIM: "" } }),
			);
			await rpc.command({ type: "prompt", message: "/ide review on" }, PI_START_TIMEOUT_MS);
			await rpc.waitForWidget("no editor, review on", PI_START_TIMEOUT_MS);
			const done = rpc.prompt(`write ${target()}`);
			const select = await waitFor("pi's review select", () =>
				rpc.uiRequests("select").find((request) => String(request.title).startsWith("Review: ")),
			);
			expect(select.title).toBe(
				"Review: write src/main.ts (+1 -1)\nNot shown in an editor: no editor is connected. Decide here.",
			);
			expect(select.timeout).toBe(120_000);
			rpc.respond(String(select.id), { value: "Reject" });
			await done;
			expect(readFileSync(target(), "utf8")).toBe("mine\n");
			expect(toolResult()).toContain("The user rejected this write of src/main.ts in pi");
			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toContain("Review of the model's edits: on (/ide review, for this pi process)");
			expect(status).toContain("shows in: pi's select only: no editor is connected");
			expect(status).toMatch(/0s ago: write src\/main\.ts: rejected \(in pi\)/);
			await rpc.command({ type: "prompt", message: "/ide review off" });
			await waitFor("the widget cleared", () => rpc.lastWidget() === "(cleared)");
			await rpc.prompt(`write ${target()}`);
			expect(readFileSync(target(), "utf8")).toBe("theirs\n");
		},
	);

	test.skipIf(!line.node)(
		"RPC: Esc on pi's select rejects and stops the turn: the model is not asked again",
		async () => {
			writeFileSync(target(), "mine\n");
			writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { review: true } });
			ws.server.reply = writerModel(target(), "theirs\n");
			const rpc = ws.stopLater(
				RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, env: { NVIM: "" } }),
			);
			await rpc.waitForWidget("no editor, review on", PI_START_TIMEOUT_MS);
			const done = rpc.prompt(`write ${target()}`);
			const select = await waitFor("pi's review select", () =>
				rpc.uiRequests("select").find((request) => String(request.title).startsWith("Review: ")),
			);
			const asked = ws.server.requests.length;
			rpc.respond(String(select.id), { cancelled: true });
			await done;
			expect(readFileSync(target(), "utf8")).toBe("mine\n");
			expect(ws.server.requests.length).toBe(asked);
		},
	);
});
