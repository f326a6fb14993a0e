/**
 * Asks from Neovim through the real pi on both lines, with nothing installed in Neovim: a real Neovim 0.7.2 with
 * a UI in tmux, read over its own server, the offline fake model recording what it was sent. What the user sees
 * is read from tmux's pane; commands go over Neovim's server as typed (`nvim_input`).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { type ChatRequest, messageText, type Reply } from "../support/fake-model-server.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the Neovim asks tests");

const FILE_TEXT = "const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n";
/** The user messages of a request, joined: what the model read of the user. */
const userText = (request: ChatRequest | undefined) =>
	(request?.messages ?? [])
		.filter((message) => message.role === "user")
		.map(messageText)
		.join("\n---\n");
const count = (text: string, part: string) => text.split(part).length - 1;

describe.skipIf(!available).each(piLines())("asks from Neovim through the real $name (RPC)", (line: PiLine) => {
	const ws = useE2eWorkspace();
	const tmp = () => join(ws.root, "tmp");
	const scope = () => `asks-${process.pid}-${ws.root.split("-").at(-1)}`;
	const file = () => join(ws.project, "src", "ask.ts");

	async function neovim(args = ["src/ask.ts"]): Promise<RealNeovim> {
		writeFileSync(file(), FILE_TEXT);
		const nvim = await RealNeovim.start({ cwd: ws.project, args, tmpDir: tmp(), ui: true, scope: scope() });
		ws.defer(() => nvim.close());
		return nvim;
	}

	function startPi(settings?: Record<string, unknown>): RpcPi {
		mkdirSync(tmp(), { recursive: true });
		if (settings) writeFileSync(join(ws.agentDir, "settings.json"), JSON.stringify({ "pi-ide": settings }));
		return ws.stopLater(
			RpcPi.start(line, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: { TMPDIR: tmp(), XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: scope() },
			}),
		);
	}

	const commands = (nvim: RealNeovim) =>
		nvim.lua(
			`local out = {} for name in pairs(vim.api.nvim_get_commands({ builtin = false })) do out[#out + 1] = name end table.sort(out) return out`,
		) as Promise<string[]>;
	const asksReady = (nvim: RealNeovim) =>
		waitFor("pi's commands in Neovim", async () => (await commands(nvim)).includes("Pi"), PI_START_TIMEOUT_MS);
	const screenHas = (nvim: RealNeovim, text: string, timeoutMs = 10_000) =>
		waitFor(`${JSON.stringify(text)} on Neovim's screen`, async () => nvim.screen().includes(text), timeoutMs);

	test.skipIf(!line.node).each(["explicit", "auto"])(
		":'<,'>Pi explain @this (context %s) sends the prompt and the three lines under their path, once; working and done show; no Press ENTER",
		async (context) => {
			const nvim = await neovim();
			const rpc = startPi({ context });
			await asksReady(nvim);
			const before = ws.server.requests.length;
			// ":" in Visual mode types the range '<,'> itself.
			await nvim.keys("2GVjj:Pi explain @this<CR>", "n");
			await waitFor("the ask reached the model", async () => ws.server.requests.length > before, 15_000);
			const sent = userText(ws.server.requests.at(-1));
			expect(sent).toContain(`explain @${file()}#L2-4`);
			expect(sent).toContain("const b = 2;\nconst c = 3;\nconst d = 4;");
			expect(count(sent, "const c = 3;")).toBe(1);
			expect(sent).not.toContain("[pi-ide-ask");
			await screenHas(nvim, "pi: done");
			expect(nvim.screen()).not.toContain("Press ENTER");
			expect(await nvim.lua("return vim.fn.execute('messages')")).not.toContain("pi: ");
			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toContain("asks: :Pi, :PiAdd, :PiReply, :PiStop");
			expect(status).toContain("Asks from editors: on (1 asked, 1 sent, 0 not sent, 0 malformed)");
			// The reply in a read-only scratch buffer.
			await nvim.keys(":PiReply<CR>", "n");
			await screenHas(nvim, "ok");
			expect(await nvim.lua("return vim.bo.modifiable")).toBe(false);
		},
	);

	test.skipIf(!line.node)("a .env buffer's @this is withheld; a token in a selection is redacted", async () => {
		const nvim = await neovim();
		startPi();
		await asksReady(nvim);
		writeFileSync(join(ws.project, ".env"), "API_KEY=abc123secretvalue\n");
		writeFileSync(join(ws.project, "src", "token.ts"), 'const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";\n');
		await nvim.command("edit .env");
		let before = ws.server.requests.length;
		await nvim.keys(":Pi look at @this<CR>", "n");
		await waitFor("the ask reached the model", async () => ws.server.requests.length > before, 15_000);
		let sent = userText(ws.server.requests.at(-1));
		expect(sent).toContain("text withheld");
		expect(sent).not.toContain("abc123secretvalue");
		await nvim.command("edit src/token.ts");
		before = ws.server.requests.length;
		await nvim.keys("V:Pi check @selection<CR>", "n");
		await waitFor("the second ask reached the model", async () => ws.server.requests.length > before, 15_000);
		sent = userText(ws.server.requests.at(-1));
		expect(sent).toContain("const token =");
		expect(sent).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
	});

	test.skipIf(!line.node)(
		"a busy pi takes the ask into its run: the very next request holds it and its lines; :PiStop stops a slow run",
		async () => {
			const nvim = await neovim();
			const slow: Reply = (request) =>
				request.messages.at(-1)?.role === "tool"
					? "after the tool"
					: { toolCall: { name: "bash", arguments: { command: "sleep 2; echo slept" } } };
			ws.server.reply = slow;
			const rpc = startPi();
			await asksReady(nvim);
			rpc.send({ type: "prompt", message: "run the slow thing" });
			await waitFor("the bash call under way", async () => ws.server.requests.length >= 1, 10_000);
			const before = ws.server.requests.length;
			await nvim.keys("3G:Pi also @this<CR>", "n");
			await screenHas(nvim, "pi: working");
			await waitFor("the next request", async () => ws.server.requests.length > before, 10_000);
			const sent = userText(ws.server.requests[before]);
			expect(sent).toContain(`[asked from Neovim ${nvim.pid}]\nalso @${file()}#L3`);
			expect(sent).toContain("const c = 3;");
			await screenHas(nvim, "pi: done", 10_000);

			// A slow run stopped from Neovim.
			ws.server.reply = () => ({ toolCall: { name: "bash", arguments: { command: "sleep 20" } } });
			rpc.send({ type: "prompt", message: "sleep long" });
			await waitFor("the long bash call", async () => ws.server.requests.length > before + 2, 10_000);
			await nvim.keys(":PiStop<CR>", "n");
			await screenHas(nvim, "pi: stopping the run");
		},
	);

	test.skipIf(!line.node)(
		"a file the model's bash changed reloads at the run's end when unmodified; a modified one is untouched and counted",
		async () => {
			writeFileSync(join(ws.project, "src", "other.ts"), "other\n");
			const nvim = await neovim();
			ws.server.reply = (request) =>
				request.messages.at(-1)?.role === "tool"
					? "rewrote them"
					: {
							toolCall: {
								name: "bash",
								arguments: { command: "printf 'changed\\n' > src/ask.ts; printf 'changed too\\n' > src/other.ts" },
							},
						};
			startPi();
			await asksReady(nvim);
			await nvim.command("edit src/other.ts");
			await nvim.keys("iX<Esc>", "n");
			await nvim.command("edit src/ask.ts");
			await nvim.keys(":Pi rewrite the files<CR>", "n");
			await screenHas(nvim, "1 file changed on disk, not reloaded", 10_000);
			expect(await nvim.lua("return vim.api.nvim_buf_get_lines(0, 0, -1, false)")).toEqual(["changed"]);
			const other = `return vim.api.nvim_buf_get_lines(vim.fn.bufnr("${join(ws.project, "src", "other.ts")}"), 0, -1, false)`;
			expect(await nvim.lua(other)).toEqual(["Xother"]);
			expect(readFileSync(join(ws.project, "src", "other.ts"), "utf8")).toBe("changed too\n");
			expect(nvim.screen()).not.toContain("Press ENTER");
			expect(nvim.screen()).not.toContain("W12");
		},
	);

	test.skipIf(!line.node)("a user's own :Pi is kept and pi's is :PiAsk; the commands go when pi exits", async () => {
		const nvim = await neovim();
		await nvim.command("command! Pi echo 'mine'");
		const rpc = startPi();
		await waitFor("pi's :PiAsk", async () => (await commands(nvim)).includes("PiAsk"), PI_START_TIMEOUT_MS);
		expect((await rpc.ideStatus()).join("\n")).toContain("a command of yours holds :Pi");
		const before = ws.server.requests.length;
		await nvim.keys(":PiAsk hello from the fallback<CR>", "n");
		await waitFor("the ask reached the model", async () => ws.server.requests.length > before, 15_000);
		await rpc.stop();
		// pi 1.x removes them in its shutdown; pi 0.73 ends on SIGTERM without one: its pushes fail at Neovim's next
		// event, and everything of pi's goes with them.
		await nvim.keys("j", "n");
		await waitFor("pi's commands gone", async () => !(await commands(nvim)).includes("PiAsk"), 10_000);
		expect(await commands(nvim)).toContain("Pi");
		expect(await nvim.lua(`return package.loaded["pi_ide_asks"] == nil and _G.PiIdeAsksComplete == nil`)).toBe(true);
	});

	test.skipIf(!line.node)(":Pi after pi was killed says pi: gone, sends nothing, and the commands go", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await asksReady(nvim);
		const before = ws.server.requests.length;
		process.kill(rpc.pid, "SIGKILL");
		await nvim.keys(":Pi anyone there?<CR>", "n");
		await screenHas(nvim, "pi: gone");
		expect(ws.server.requests.length).toBe(before);
		await waitFor("the commands gone", async () => !(await commands(nvim)).includes("Pi"), 10_000);
	});

	/** The user messages an RPC pi started a run with or was steered by (its own events). */
	const userMessages = (rpc: RpcPi) =>
		rpc.messages
			.filter((message) => message.type === "message_start")
			.map((message) => message.message as { role?: string; content?: unknown })
			.filter((message) => message.role === "user")
			.map((message) => messageText(message as { content: unknown }));

	test.skipIf(!line.node)(
		"two pis read one Neovim: one command set, kept when the first exits; neither connected: a numbered list, the choice kept",
		async () => {
			const nvim = await neovim();
			const first = startPi();
			await asksReady(nvim);
			const second = startPi();
			await waitFor(
				"both pis registered",
				async () => (await nvim.lua(`return vim.tbl_count(package.loaded["pi_ide_asks"].pis)`)) === 2,
				PI_START_TIMEOUT_MS,
			);
			expect((await commands(nvim)).filter((name) => name.startsWith("Pi"))).toEqual([
				"Pi",
				"PiAdd",
				"PiReply",
				"PiStop",
			]);
			for (const rpc of [first, second]) await rpc.command({ type: "prompt", message: "/ide off" });
			await waitFor(
				"neither connected",
				async () =>
					(await nvim.lua(
						`local n = 0 for _, pi in pairs(package.loaded["pi_ide_asks"].pis) do if pi.connected then n = n + 1 end end return n`,
					)) === 0,
				10_000,
			);
			await nvim.keys(":Pi which of you?<CR>", "n");
			await screenHas(nvim, "Which pi takes the ask?");
			expect(nvim.screen()).toContain(`pi ${second.pid}`);
			const row =
				nvim
					.screen()
					.split("\n")
					.find((text) => text.includes(`pi ${second.pid}`)) ?? "";
			await nvim.keys(row.trim().slice(0, 1), "n");
			await waitFor(
				"the second pi took the ask",
				async () => userMessages(second).some((text) => text.includes("which of you?")),
				10_000,
			);
			expect(userMessages(first).some((text) => text.includes("which of you?"))).toBe(false);
			// The ask connected its pi again after /ide off, with its own reason.
			expect((await second.ideStatus()).join("\n")).toContain(`: asked from Neovim ${nvim.pid}`);
			await nvim.keys(":Pi again?<CR>", "n");
			await waitFor(
				"the same pi took the next ask",
				async () => userMessages(second).some((text) => text.includes("again?")),
				10_000,
			);
			expect(userMessages(first).some((text) => text.includes("again?"))).toBe(false);
			await second.stop();
			// A wait, not a latency claim: a loaded machine took over ten seconds to see pi's shutdown through.
			await waitFor(
				"one pi left",
				async () => (await nvim.lua(`return vim.tbl_count(package.loaded["pi_ide_asks"].pis)`)) === 1,
				30_000,
			);
			expect(await commands(nvim)).toContain("Pi");
			// The last pi killed (pi 0.73 ends on SIGTERM without its shutdown, and this one pushes nothing after
			// /ide off): Neovim learns of it when the user asks, says so, and the commands go.
			process.kill(first.pid, "SIGKILL");
			await first.run.exited;
			await nvim.keys(":PiStop<CR>", "n");
			await screenHas(nvim, "pi: gone");
			await waitFor("the commands gone with the last pi", async () => !(await commands(nvim)).includes("Pi"), 10_000);
		},
	);

	test.skipIf(!line.node)(
		":Pi with no prompt opens a small buffer (Ctrl-S sends several lines); :PiAdd in RPC mode says why nothing was added; the transcript names Neovim",
		async () => {
			const nvim = await neovim();
			const rpc = startPi();
			await asksReady(nvim);
			await nvim.keys("3G:Pi<CR>", "i");
			expect(await nvim.lua("return vim.api.nvim_buf_get_name(0)")).toContain("pi://ask");
			await nvim.keys("first line<CR>second about @this<C-s>", "n");
			await waitFor("the ask ran", async () => userMessages(rpc).some((text) => text.includes("second about")), 10_000);
			const asked = userMessages(rpc).find((text) => text.includes("second about")) ?? "";
			expect(asked).toContain(`first line\nsecond about @${file()}#L3`);
			expect(await nvim.lua("return vim.api.nvim_buf_get_name(0)")).toBe(file());
			// The dim line's message is the run's custom message, which may reach the RPC output after the user's.
			const summaries = () =>
				rpc.messages
					.filter((message) => message.type === "message_start")
					.map((message) => message.message as { role?: string; details?: { summary?: string } })
					.filter((message) => message.role === "custom")
					.map((message) => message.details?.summary ?? "");
			await waitFor("the dim line naming Neovim", () =>
				summaries().some((summary) => summary.includes(`asked from Neovim ${nvim.pid}`)),
			);
			await screenHas(nvim, "pi: done");
			// pi 1.x's RPC mode takes no paste (the TUI test puts the reference into pi's input): said so, nothing runs.
			// pi 0.73's RPC mode draws widgets like a TUI, and the paste goes out as its set_editor_text.
			const before = ws.server.requests.length;
			await nvim.keys("2G:PiAdd<CR>", "n");
			await waitFor("the add answered", async () =>
				["pi: added @src/ask.ts#L2 to pi's input", "pi: not sent: this pi has no input box"].some((text) =>
					nvim.screen().includes(text),
				),
			);
			expect(ws.server.requests.length).toBe(before);
		},
	);
});
