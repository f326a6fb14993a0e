/**
 * pi's question in the real pi's interactive TUI and in a real Neovim 0.7.2 at once (both in tmux, both pi lines):
 * answered in Neovim, pi's own dialog closes on pi's screen; closed in Neovim, pi's dialog stays and decides.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { QUESTION_EXTENSION, questionArmed, questionModel } from "../support/question-e2e.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import { hasTmux, TmuxPi } from "../support/tmux-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the Neovim question TUI tests") && hasTmux();

describe.skipIf(!available).each(piLines())("pi's question in the real $name's TUI and in Neovim", (line: PiLine) => {
	const ws = useE2eWorkspace();
	const tmp = () => join(ws.root, "tmp");
	const scope = () => `questions-tui-${process.pid}-${ws.root.split("-").at(-1)}`;
	const told = (what: string) =>
		waitFor(
			`the model told "${what}"`,
			() =>
				ws.server.requests.some((request) =>
					request.messages.some((m) => m.role === "tool" && messageText(m) === what),
				),
			15_000,
		);

	async function start(): Promise<{ nvim: RealNeovim; tui: TmuxPi }> {
		writeFileSync(join(ws.project, "src", "q.ts"), "const q = 1;\n");
		mkdirSync(tmp(), { recursive: true });
		ws.server.reply = questionModel();
		const nvim = await RealNeovim.start({
			cwd: ws.project,
			args: ["src/q.ts"],
			tmpDir: tmp(),
			ui: true,
			scope: scope(),
		});
		ws.defer(() => nvim.close());
		const tui = ws.stopLater(
			TmuxPi.start(line, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				width: 120,
				height: 30,
				extraExtensions: [QUESTION_EXTENSION],
				env: { TMPDIR: tmp(), XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: scope() },
			}),
		);
		await waitFor("the widget", () => tui.belowEditor()?.trim() === "in q.ts", PI_START_TIMEOUT_MS, 50);
		await waitFor("pi's commands in Neovim", async () => (await nvim.lua("return vim.fn.exists(':Pi')")) === 2);
		return { nvim, tui };
	}

	test.skipIf(!line.node)(
		"answered in Neovim: pi's own dialog closes on its screen and the tool is allowed",
		async () => {
			const { nvim, tui } = await start();
			await nvim.keys(":Pi guard tui<CR>", "n");
			await tui.waitForScreen("pi's dialog", (screen) => screen.includes("Allow tui?"));
			await waitFor("Neovim's copy", () => nvim.screen().includes("2 No"), 10_000, 20);
			await questionArmed(nvim);
			await nvim.keys("1");
			await told("allowed tui");
			await tui.waitForScreen("pi's dialog gone", (screen) => !screen.includes("Allow tui?"), 5000);
			expect(nvim.screen()).not.toContain("Allow tui?");
		},
	);

	test.skipIf(!line.node)("closed in Neovim: pi's dialog stays on its screen and decides", async () => {
		const { nvim, tui } = await start();
		await nvim.keys(":Pi guard kept<CR>", "n");
		await waitFor("Neovim's copy", () => nvim.screen().includes("Allow kept?"), 15_000, 20);
		await questionArmed(nvim);
		await nvim.keys("<Esc>");
		await waitFor("Neovim's copy gone", () => !nvim.screen().includes("Allow kept?"), 5000, 20);
		expect(tui.screen()).toContain("Allow kept?");
		// pi's confirm: Enter on its first choice (Yes).
		tui.press("Enter");
		await told("allowed kept");
	});
});
