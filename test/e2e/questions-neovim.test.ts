/**
 * pi's questions in Neovim through the real pi on both lines: a turn asked with `:Pi`, a test extension whose tool
 * asks `confirm` (and `select`, `input`), a real Neovim 0.7.2 with a UI in tmux. What the user sees is read from
 * tmux's pane; keys go over Neovim's server as typed; pi's own dialog is RPC's `extension_ui_request`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { questionArmed, questionPi } from "../support/question-e2e.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import type { RpcMessage, RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the Neovim question tests");

/** The tool results the model was sent, in order: what each question decided. */
const toolResults = (requests: { messages: { role: string; content: unknown }[] }[]) =>
	requests.flatMap((request) =>
		request.messages.filter((message) => message.role === "tool").map((message) => messageText(message)),
	);

describe.skipIf(!available).each(piLines())("pi's questions in Neovim through the real $name (RPC)", (line: PiLine) => {
	const ws = useE2eWorkspace();
	const tmp = () => join(ws.root, "tmp");
	const scope = () => `questions-${process.pid}-${ws.root.split("-").at(-1)}`;

	async function neovim(): Promise<RealNeovim> {
		writeFileSync(join(ws.project, "src", "q.ts"), "const q = 1;\n");
		const nvim = await RealNeovim.start({
			cwd: ws.project,
			args: ["src/q.ts"],
			tmpDir: tmp(),
			ui: true,
			scope: scope(),
		});
		ws.defer(() => nvim.close());
		return nvim;
	}

	function startPi(options: { settings?: Record<string, unknown>; nvim?: string } = {}): RpcPi {
		mkdirSync(tmp(), { recursive: true });
		if (options.settings)
			writeFileSync(join(ws.agentDir, "settings.json"), JSON.stringify({ "pi-ide": options.settings }));
		const env = { TMPDIR: tmp(), XDG_RUNTIME_DIR: "", NVIM: options.nvim ?? "", PI_IDE_TEST_PROC_SCOPE: scope() };
		return questionPi(ws, line, env);
	}

	const asksReady = (nvim: RealNeovim) =>
		waitFor(
			"pi's commands in Neovim",
			async () => ((await nvim.lua("return vim.fn.exists(':Pi')")) as number) === 2,
			PI_START_TIMEOUT_MS,
		);
	const onScreen = (nvim: RealNeovim, text: string, timeoutMs = 10_000) =>
		waitFor(`${JSON.stringify(text)} on Neovim's screen`, () => nvim.screen().includes(text), timeoutMs, 20);
	const offScreen = (nvim: RealNeovim, text: string, timeoutMs = 1000) =>
		waitFor(`${JSON.stringify(text)} gone from Neovim's screen`, () => !nvim.screen().includes(text), timeoutMs, 20);
	const piAsked = (rpc: RpcPi, count = 1) =>
		waitFor(`pi's confirm dialog #${count}`, () => rpc.uiRequests("confirm").at(count - 1), 15_000);
	const decided = (what: string) =>
		waitFor(`the model told "${what}"`, () => toolResults(ws.server.requests).includes(what), 15_000);
	/** The float: a window whose config is relative to the editor. */
	const floats = (nvim: RealNeovim) =>
		nvim.lua(
			"local n = 0 for _, w in ipairs(vim.api.nvim_list_wins()) do if vim.api.nvim_win_get_config(w).relative ~= '' then n = n + 1 end end return n",
		) as Promise<number>;
	const inFloat = (nvim: RealNeovim) =>
		nvim.lua("return vim.api.nvim_win_get_config(0).relative ~= ''") as Promise<boolean>;

	async function asked(nvim: RealNeovim, rpc: RpcPi, prompt: string): Promise<RpcMessage> {
		await nvim.keys(`:Pi ${prompt}<CR>`, "n");
		return piAsked(rpc);
	}

	test.skipIf(!line.node)(
		"`:Pi guard deploy`: the question and 1 Yes / 2 No in a float within 1 s; 1 allows, and nothing says Press ENTER",
		async () => {
			const nvim = await neovim();
			const rpc = startPi();
			await asksReady(nvim);
			const dialog = await asked(nvim, rpc, "guard deploy");
			await onScreen(nvim, "2 No");
			const drawnMs = Date.now() - dialog.receivedEpochMs;
			expect(drawnMs).toBeLessThan(1000);
			const screen = nvim.screen();
			expect(screen).toContain("Allow deploy?");
			expect(screen).toContain("The test tool would run deploy.");
			expect(screen).toContain("1 Yes");
			expect(await inFloat(nvim)).toBe(true);
			await questionArmed(nvim);
			await nvim.keys("1");
			await decided("allowed deploy");
			await offScreen(nvim, "1 Yes");
			await onScreen(nvim, "pi: done");
			expect(nvim.screen()).not.toContain("Press ENTER");
			const status = (await rpc.ideStatus()).join("\n");
			expect(status).toContain(
				"pi's questions in the editor: on, for runs an editor asked (1 mirrored, 1 answered there)",
			);
		},
	);

	test.skipIf(!line.node)("2 denies; Esc closes only Neovim's copy and pi's dialog decides", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await asksReady(nvim);
		await asked(nvim, rpc, "guard alpha");
		await onScreen(nvim, "2 No");
		await questionArmed(nvim);
		await nvim.keys("2");
		await decided("denied alpha");
		await onScreen(nvim, "pi: done");

		const second = await (async () => {
			await nvim.keys(":Pi guard beta<CR>", "n");
			return piAsked(rpc, 2);
		})();
		await onScreen(nvim, "Allow beta?");
		await questionArmed(nvim);
		await nvim.keys("<Esc>");
		await offScreen(nvim, "Allow beta?");
		expect(await floats(nvim)).toBe(0);
		rpc.respond(second.id as string, { confirmed: true });
		await decided("allowed beta");
	});

	test.skipIf(!line.node)("answered in pi first: the float is gone within 1 s", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await asksReady(nvim);
		const dialog = await asked(nvim, rpc, "guard gamma");
		await onScreen(nvim, "Allow gamma?");
		rpc.respond(dialog.id as string, { confirmed: false });
		await offScreen(nvim, "Allow gamma?", 1000);
		await decided("denied gamma");
		expect(await floats(nvim)).toBe(0);
	});

	test.skipIf(!line.node)("two questions at once (sibling calls): one after the other, in order", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await asksReady(nvim);
		await nvim.keys(":Pi guard one two<CR>", "n");
		await piAsked(rpc, 2);
		await onScreen(nvim, "Allow one?");
		expect(nvim.screen()).not.toContain("Allow two?");
		expect(await floats(nvim)).toBe(1);
		await questionArmed(nvim);
		await nvim.keys("1");
		await onScreen(nvim, "Allow two?");
		await questionArmed(nvim);
		await nvim.keys("2");
		await decided("denied two");
		expect(toolResults(ws.server.requests)).toEqual(expect.arrayContaining(["allowed one", "denied two"]));
	});

	test.skipIf(!line.node)("asked in Insert mode: a one-line note; the float waits for Normal mode", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await asksReady(nvim);
		ws.server.delayMs = 1500;
		await nvim.keys(":Pi guard later<CR>", "n");
		await nvim.keys("o", "i");
		await piAsked(rpc);
		await onScreen(nvim, "pi asks: Allow later? (shown in Normal mode)");
		// The note's own one-line window only: the question waits.
		expect(await floats(nvim)).toBe(1);
		expect(nvim.screen()).not.toContain("1 Yes");
		expect(((await nvim.call("nvim_get_mode")) as { mode: string }).mode).toBe("i");
		await nvim.keys("typed<Esc>", "n");
		await onScreen(nvim, "1 Yes");
		expect(await inFloat(nvim)).toBe(true);
		expect(nvim.screen()).not.toContain("shown in Normal mode");
		await questionArmed(nvim);
		await nvim.keys("1");
		await decided("allowed later");
		expect(await nvim.lua("return vim.api.nvim_buf_get_lines(0, 0, -1, false)")).toEqual(["const q = 1;", "typed"]);
	});

	test.skipIf(!line.node)("pi runs in this Neovim's terminal ($NVIM): the float opens without the focus", async () => {
		const nvim = await neovim();
		const rpc = startPi({ nvim: nvim.socket });
		await asksReady(nvim);
		await asked(nvim, rpc, "guard inside");
		await onScreen(nvim, "Allow inside?");
		expect(await floats(nvim)).toBe(1);
		expect(await inFloat(nvim)).toBe(false);
		rpc.respond(rpc.uiRequests("confirm")[0]?.id as string, { confirmed: true });
		await offScreen(nvim, "Allow inside?");
	});

	test.skipIf(!line.node)("a select's choices numbered; an input a notice until pi's dialog closes", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await asksReady(nvim);
		await nvim.keys(":Pi pick<CR>", "n");
		await onScreen(nvim, "3 blue");
		expect(nvim.screen()).toContain("Pick a colour");
		await questionArmed(nvim);
		await nvim.keys("3");
		await decided("picked blue");
		await onScreen(nvim, "pi: done");

		await nvim.keys(":Pi name me<CR>", "n");
		const input = await waitFor("pi's input dialog", () => rpc.uiRequests("input")[0], 15_000);
		await onScreen(nvim, "pi asks in its terminal: Your name?");
		rpc.respond(input.id as string, { value: "Ada" });
		await offScreen(nvim, "pi asks in its terminal");
		await decided("named Ada");
	});

	test.skipIf(!line.node)("a turn typed into pi asks only in pi: nothing in Neovim", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await asksReady(nvim);
		rpc.send({ type: "prompt", message: "guard typed" });
		const dialog = await piAsked(rpc);
		rpc.respond(dialog.id as string, { confirmed: true });
		await decided("allowed typed");
		expect(nvim.screen()).not.toContain("Allow typed?");
		expect(await floats(nvim)).toBe(0);
	});

	test.skipIf(!line.node)('"mirrorQuestions": false keeps every question in pi', async () => {
		const nvim = await neovim();
		const rpc = startPi({ settings: { mirrorQuestions: false } });
		await asksReady(nvim);
		const dialog = await asked(nvim, rpc, "guard kept");
		rpc.respond(dialog.id as string, { confirmed: true });
		await decided("allowed kept");
		expect(await floats(nvim)).toBe(0);
		expect((await rpc.ideStatus()).join("\n")).toContain(
			`pi's questions in the editor: off ("mirrorQuestions": false in the global settings)`,
		);
	});

	test.skipIf(!line.node)(
		"the review's question where Neovim's diff could not open (Neovim in a prompt): mirrored as its choices",
		async () => {
			const nvim = await neovim();
			const rpc = startPi({ settings: { review: true } });
			await asksReady(nvim);
			ws.server.delayMs = 1500;
			await nvim.keys(":Pi write src/w.ts<CR>", "n");
			// Neovim waits for the user: pi's diff cannot open there, nor can the question yet.
			await nvim.keys(`:call confirm('Go on?', "&Yes\\n&No")<CR>`);
			const select = await waitFor("pi's review select", () => rpc.uiRequests("select")[0], 20_000);
			expect(String(select.title)).toContain("Review: write src/w.ts");
			expect(String(select.title)).toContain("Neovim did not open the diff: Neovim is waiting for the user");
			await nvim.keys("y", "n");
			await onScreen(nvim, "4 Reject and say why");
			expect(nvim.screen()).toContain("1 Accept");
			await questionArmed(nvim);
			await nvim.keys("1");
			const written = join(ws.project, "src", "w.ts");
			await waitFor(
				"the file written",
				() => existsSync(written) && readFileSync(written, "utf8") === "from the model\n",
				15_000,
			);
			expect((await rpc.ideStatus()).join("\n")).toContain("(1 mirrored, 1 answered there)");
		},
	);

	test.skipIf(!line.node)("after /new and a reload: one question mirrored per dialog, not two", async () => {
		const nvim = await neovim();
		const rpc = startPi();
		await asksReady(nvim);
		await rpc.command({ type: "new_session" });
		await rpc.command({ type: "prompt", message: "/qreload" });
		// The reloaded pi-ide-context's own registration (the command itself may still be the old one's).
		await waitFor(
			"asks registered by the reloaded extension",
			async () => (await rpc.ideStatus()).join("\n").includes("asks: :Pi, :PiAdd"),
			PI_START_TIMEOUT_MS,
		);
		const dialog = await asked(nvim, rpc, "guard once");
		await onScreen(nvim, "Allow once?");
		expect(await floats(nvim)).toBe(1);
		expect((await rpc.ideStatus()).join("\n")).toContain("(1 mirrored, 0 answered there)");
		rpc.respond(dialog.id as string, { confirmed: true });
		await decided("allowed once");
		await waitFor("the float gone", async () => (await floats(nvim)) === 0, 1000, 20);
	});
});
