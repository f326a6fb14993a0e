/**
 * `:PiAdd` from a real Neovim 0.7.2 into the real pi's interactive TUI (both in tmux, both pi lines): the reference
 * lands at pi's cursor without a key press in pi, nothing runs, and the prompt then carries the lines.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import { hasTmux, TmuxPi } from "../support/tmux-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the Neovim asks TUI tests") && hasTmux();

describe.skipIf(!available).each(piLines())(":PiAdd into the real $name's TUI", (line: PiLine) => {
	const ws = useE2eWorkspace();
	const tmp = () => join(ws.root, "tmp");
	const scope = () => `asks-tui-${process.pid}-${ws.root.split("-").at(-1)}`;
	const file = () => join(ws.project, "src", "ask.ts");

	test.skipIf(!line.node)(
		"the reference lands in pi's input, nothing runs; the prompt then carries the lines",
		async () => {
			writeFileSync(file(), "const a = 1;\nconst b = 2;\nconst c = 3;\n");
			mkdirSync(tmp(), { recursive: true });
			const nvim = await RealNeovim.start({
				cwd: ws.project,
				args: ["src/ask.ts"],
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
					env: { TMPDIR: tmp(), XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: scope() },
				}),
			);
			await waitFor("the widget", () => tui.belowEditor()?.trim() === "in ask.ts", PI_START_TIMEOUT_MS, 50);
			await waitFor("pi's commands in Neovim", async () => (await nvim.lua("return vim.fn.exists(':PiAdd')")) === 2);
			tui.type("look at ");
			await waitFor("typed", () => tui.editorText() === "look at", 10_000, 20);
			await nvim.keys("2GVj:PiAdd<CR>", "n");
			// No key is pressed in pi: only pi's own redraw can show it.
			await waitFor(
				"the reference in pi's input",
				() => tui.editorText()?.startsWith("look at @src/ask.ts#L2-3"),
				10_000,
				20,
			);
			await waitFor(
				"Neovim told",
				async () => nvim.screen().includes("pi: added @src/ask.ts#L2-3 to pi's input"),
				10_000,
			);
			expect(ws.server.requests).toHaveLength(0);
			tui.press("Enter");
			await waitFor("the prompt sent", () => ws.server.requests.length === 1, 15_000, 50);
			const sent = ws.server.requests[0]?.messages.map(messageText).join("\n") ?? "";
			// The lines go once: as the reference's own section, or as the block's fresh selection it then names.
			expect(sent).toContain("look at @src/ask.ts#L2-3");
			expect(sent.split("const b = 2;\nconst c = 3;").length - 1).toBe(1);
			expect(sent).toMatch(/The user referenced .* lines 2-3|the selection in the editor context above/);
		},
	);
});
