/**
 * pi-bridge.nvim's socket served by the real pi on both lines (RPC mode), against a client that behaves as the
 * plugin's Lua does (test/support/pi-bridge-client.ts): NDJSON over the socket at the path the plugin computes,
 * a prompt with its code already inlined, approvals, pi's questions, probes, a foreign owner, a stale file.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { PluginClient } from "../support/pi-bridge-client.ts";
import { bridgePi, bridgeSocket, pluginContext } from "../support/pi-bridge-e2e.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const GITHUB_TOKEN = "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";

describe.each(piLines())("pi-bridge.nvim's socket served by the real $name (RPC)", (line: PiLine) => {
	const ws = useE2eWorkspace();
	const socketPath = () => bridgeSocket(ws);
	const saved = (range?: string) => pluginContext(ws, range ? { range } : {});

	async function startPi(
		options: { env?: Record<string, string>; settings?: Record<string, unknown> } = {},
	): Promise<RpcPi> {
		if (options.settings)
			writeFileSync(join(ws.agentDir, "settings.json"), JSON.stringify({ "pi-ide": options.settings }));
		const rpc = bridgePi(ws, line, options.env);
		// The first command waits for pi's start; the socket is bound by then.
		await rpc.ideStatus();
		return rpc;
	}

	const connected = (options?: { mirrorReady?: boolean }) => PluginClient.connect(socketPath(), options);
	/** What the model was sent after its last answer: the prompt and what pi-ide-context added. */
	const lastAsked = () => ws.lastContext();
	const toolResults = () =>
		ws.server.requests.flatMap((request) =>
			request.messages.filter((message) => message.role === "tool").map((message) => messageText(message)),
		);
	const status = async (rpc: RpcPi) => (await rpc.ideStatus()).join("\n");

	test.skipIf(!line.node)(
		"the socket where the plugin looks (0600); probes come and go; mirror_ready + prompt in one write runs with the link; every client hears the run",
		async () => {
			const rpc = await startPi();
			expect(existsSync(socketPath())).toBe(true);
			expect(statSync(socketPath()).mode & 0o777).toBe(0o600);
			for (let probe = 0; probe < 3; probe++) (await connected({ mirrorReady: false })).close();
			const plugin = await connected();
			const other = await connected();
			plugin.prompt("explain this line\n\n```typescript\nline2\n```\n\n", saved("2"));
			const start = await plugin.waitFor("agent_start");
			const end = await plugin.waitFor("agent_end");
			expect(String(start.message)).toMatch(/is working/);
			expect(end.message).toBe("done");
			expect(await other.waitFor("agent_end")).toMatchObject({ message: "done" });
			const asked = lastAsked();
			expect(asked).toContain("File: @src/main.ts#L2\n\nexplain this line");
			expect(asked).toContain("```typescript\nline2\n```");
			expect(asked).toContain("asked from Neovim (pi-bridge)");
			const said = await status(rpc);
			expect(said).toContain(`pi-bridge.nvim's socket: served at ${socketPath()}`);
			expect(said).toContain("2 connected, 1 prompts");
			// A run typed into pi reaches the plugin too, as pi-bridge.ext sends it.
			await rpc.prompt("hello");
			await plugin.waitFor("agent_end", 2);
		},
	);

	test.skipIf(!line.node)(
		"busy: a second prompt steers the run; another extension's confirm is mirrored to the plugin and answered there",
		async () => {
			const rpc = await startPi();
			const plugin = await connected();
			plugin.prompt("guard alpha", saved());
			const question = await plugin.waitFor("ui_prompt_request");
			expect(question).toMatchObject({ kind: "confirm", options: ["Yes", "No"] });
			expect(String(question.title)).toContain("Allow alpha?");
			plugin.prompt("and say banana", saved());
			await waitFor(
				"the steer queued",
				() => rpc.messages.some((message) => message.type === "queue_update"),
				10_000,
			).catch(() => undefined);
			plugin.answer(question.id, { value: "Yes" });
			expect(await plugin.waitFor("ui_prompt_resolved")).toMatchObject({ id: question.id });
			await plugin.waitFor("agent_end");
			expect(toolResults()).toContain("allowed alpha");
			expect(plugin.of("agent_start")).toHaveLength(1);
			const texts = ws.server.requests.map((request) => request.messages.map(messageText).join("\n"));
			expect(texts.some((text) => text.includes("and say banana"))).toBe(true);
			expect(plugin.of("ui_prompt_resolved")).toHaveLength(1);
			// A question of a turn typed into pi stays in pi.
			const typed = rpc.send({ type: "prompt", message: "guard beta" });
			const dialog = await waitFor("pi's confirm", () => rpc.uiRequests("confirm").at(1), 15_000);
			expect(typed).toBeTruthy();
			rpc.respond(String(dialog.id), { confirmed: true });
			await plugin.waitFor("agent_end", 2);
			expect(plugin.of("ui_prompt_request")).toHaveLength(1);
		},
	);

	test.skipIf(!line.node)(
		"approvals for the plugin's turns: yes writes, no does not, all asks that file no more, pi answered first withdraws it",
		async () => {
			const rpc = await startPi();
			const plugin = await connected();
			const write = async (name: string) => {
				const ends = plugin.of("agent_end").length;
				plugin.prompt(`write src/${name}`, saved());
				return ends;
			};
			const ended = (before: number) => plugin.waitFor("agent_end", before + 1);

			const yes = await write("yes.txt");
			const asked = await plugin.waitFor("approval_request");
			expect(asked).toMatchObject({ tool: "write", path: join(ws.project, "src", "yes.txt") });
			expect(String(asked.diff)).toContain("+from the model");
			plugin.decide("yes");
			await ended(yes);
			expect(readFileSync(join(ws.project, "src", "yes.txt"), "utf8")).toBe("from the model\n");
			expect(plugin.of("approval_resolved").filter((message) => message.id === asked.id)).toHaveLength(1);

			const no = await write("no.txt");
			await plugin.waitFor("approval_request", 2);
			plugin.decide("no");
			await ended(no);
			expect(existsSync(join(ws.project, "src", "no.txt"))).toBe(false);
			expect(toolResults().at(-1)).toContain("rejected");

			const all = await write("all.txt");
			await plugin.waitFor("approval_request", 3);
			plugin.decide("all");
			await ended(all);
			writeFileSync(join(ws.project, "src", "all.txt"), "again\n");
			const again = await write("all.txt");
			await ended(again);
			expect(plugin.of("approval_request")).toHaveLength(3);
			expect(readFileSync(join(ws.project, "src", "all.txt"), "utf8")).toBe("from the model\n");

			const first = await write("pi.txt");
			const fourth = await plugin.waitFor("approval_request", 4);
			const select = await waitFor("pi's review select", () =>
				rpc.uiRequests("select").find((request) => String(request.title).includes("pi.txt")),
			);
			rpc.respond(String(select.id), { value: "Accept" });
			await ended(first);
			expect(plugin.of("approval_resolved").filter((message) => message.id === fourth.id)).toHaveLength(1);
			expect(readFileSync(join(ws.project, "src", "pi.txt"), "utf8")).toBe("from the model\n");
			expect(await status(rpc)).toContain("approvals on (4 asked)");

			// A write typed into pi: review is off by default, nothing goes to the plugin.
			await rpc.prompt("write src/typed.txt");
			expect(plugin.of("approval_request")).toHaveLength(4);
			expect(existsSync(join(ws.project, "src", "typed.txt"))).toBe(true);
		},
	);

	test.skipIf(!line.node)(
		"the safety rules on inlined code: a .env buffer's block withheld, a token redacted, the words as typed",
		async () => {
			await startPi();
			const plugin = await connected();
			const env = join(ws.project, ".env");
			writeFileSync(env, "API_KEY=do-not-send-1234567890\n");
			plugin.prompt("what is in here?\n\n```sh\nAPI_KEY=do-not-send-1234567890\n```\n\n", {
				...saved(),
				file: env,
				filetype: "sh",
			});
			await plugin.waitFor("agent_end");
			expect(lastAsked()).toContain("what is in here?");
			expect(lastAsked()).toMatch(/\[code block withheld: \.env matches the secret-file pattern/);
			expect(lastAsked()).not.toContain("do-not-send");

			plugin.prompt(`check this\n\n\`\`\`typescript\nconst token = "${GITHUB_TOKEN}";\n\`\`\`\n\n`, saved());
			await plugin.waitFor("agent_end", 2);
			expect(lastAsked()).toContain("check this");
			expect(lastAsked()).toContain("[redacted: github]");
			expect(lastAsked()).not.toContain(GITHUB_TOKEN);

			// A block pi cannot tell the file of, from a secret file's buffer: nothing is sent.
			const requests = ws.server.requests.length;
			plugin.prompt("and this\n\n```python\nprint(1)\n```", { ...saved(), file: env, filetype: "sh" });
			const error = await plugin.waitFor("error");
			expect(error).toMatchObject({ code: "send_failed" });
			expect(String(error.message)).toContain("cannot tell the file of");
			expect(ws.server.requests.length).toBe(requests);
		},
	);

	test.skipIf(!line.node)("a live foreign owner is left alone and named, its file never removed", async () => {
		mkdirSync(dirname(socketPath()), { recursive: true });
		const heard: string[] = [];
		const foreign = createServer((socket) => socket.on("data", (data) => heard.push(data.toString())));
		await new Promise<void>((listening) => foreign.listen(socketPath(), listening));
		ws.defer(() => new Promise((closed) => foreign.close(closed)));
		const inode = statSync(socketPath()).ino;
		const rpc = await startPi();
		expect(await status(rpc)).toContain("pi-bridge.nvim's socket: not served: another pi serves it");
		expect(rpc.notices().join("\n")).toContain("this pi does not serve");
		expect(statSync(socketPath()).ino).toBe(inode);
		(await connected()).close();
		await waitFor("the foreign owner heard the plugin", () => heard.join("").includes("mirror_ready"));
	});

	test.skipIf(!line.node)(
		"PI_BRIDGE_EDIT_APPROVAL=0 and PI_BRIDGE_UI_PROMPT_MIRROR=0: the plugin's turns write unasked, questions stay in pi",
		async () => {
			const rpc = await startPi({ env: { PI_BRIDGE_EDIT_APPROVAL: "0", PI_BRIDGE_UI_PROMPT_MIRROR: "0" } });
			const plugin = await connected();
			plugin.prompt("write src/free.txt", saved());
			await plugin.waitFor("agent_end");
			expect(readFileSync(join(ws.project, "src", "free.txt"), "utf8")).toBe("from the model\n");
			plugin.prompt("guard omega", saved());
			const dialog = await waitFor("pi's confirm", () => rpc.uiRequests("confirm").at(0), 15_000);
			rpc.respond(String(dialog.id), { confirmed: true });
			await plugin.waitFor("agent_end", 2);
			expect(toolResults()).toContain("allowed omega");
			expect(plugin.of("approval_request")).toEqual([]);
			expect(plugin.of("ui_prompt_request")).toEqual([]);
			const said = await status(rpc);
			expect(said).toContain("approvals off (PI_BRIDGE_EDIT_APPROVAL=0), questions off (PI_BRIDGE_UI_PROMPT_MIRROR=0)");
		},
	);

	test.skipIf(!line.node)('"piBridge": false serves nothing, and says so', async () => {
		const rpc = await startPi({ settings: { piBridge: false } });
		expect(existsSync(socketPath())).toBe(false);
		expect(await status(rpc)).toContain(`pi-bridge.nvim's socket: off ("piBridge": false in the global settings)`);
	});

	test.skipIf(!line.node)("kept across /new (the plugin's connection too), removed when pi quits", async () => {
		const rpc = await startPi();
		const plugin = await connected();
		const inode = statSync(socketPath()).ino;
		await rpc.command({ type: "new_session" });
		plugin.prompt("after new", saved());
		expect(await plugin.waitFor("agent_end")).toMatchObject({ message: "done" });
		expect(statSync(socketPath()).ino).toBe(inode);
		await rpc.stop();
		await waitFor("the plugin's connection closed", () => plugin.closed);
		expect(existsSync(socketPath())).toBe(false);
	});

	test.skipIf(!line.node)(
		"a stale socket is replaced; past 1 MiB without a newline drops that connection, pi fine",
		async () => {
			mkdirSync(dirname(socketPath()), { recursive: true });
			// A pi that died with -9 leaves its socket file behind.
			const owner = spawn(process.execPath, [
				"-e",
				`require("net").createServer().listen(${JSON.stringify(socketPath())}, () => console.log("up"))`,
			]);
			await new Promise<void>((up) => owner.stdout.once("data", () => up()));
			owner.kill("SIGKILL");
			await new Promise((exited) => owner.once("exit", exited));
			expect(existsSync(socketPath())).toBe(true);
			const rpc = await startPi();
			expect(await status(rpc)).toContain("pi-bridge.nvim's socket: served at");
			const flood = await connected();
			flood.writeRaw("x".repeat(1024 * 1024 + 16));
			await waitFor("the flooding connection dropped", () => flood.closed);
			const plugin = await connected();
			plugin.prompt("still there?", saved());
			expect(await plugin.waitFor("agent_end")).toMatchObject({ message: "done" });
			expect(await status(rpc)).toContain("without a newline");
		},
	);
});
