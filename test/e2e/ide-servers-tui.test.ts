/**
 * An IDE server's own "send to agent" (`at_mentioned`: VS Code's ctrl+alt+K) in pi's interactive TUI, in tmux:
 * picked in `/ide`, then the editor's mention lands at pi's cursor without a key press (pi 1.x redraws only
 * when asked), and the prompt carries the referenced lines.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { handshakes, idePiEnv, MAIN_TEXT, startIdeServer } from "../support/ide-server-e2e.ts";
import { FAKE_MODEL, FAKE_PROVIDER, PACKAGE_ROOT, type PiLine, piLines } from "../support/pi-cli.ts";
import { hasTmux, TmuxPi } from "../support/tmux-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const tmux = hasTmux();

describe.skipIf(!tmux)("IDE servers in the interactive TUI (tmux)", () => {
	describe.each(piLines())("the real $name", (line: PiLine) => {
		const ws = useE2eWorkspace();
		const main = () => join(ws.project, "src", "main.ts");

		function start(): TmuxPi {
			if (!line.node) throw new Error(line.skipReason);
			const command = [line.node, line.cli, "--provider", FAKE_PROVIDER, "--model", FAKE_MODEL, "--no-session"];
			return ws.stopLater(
				TmuxPi.run([...command, "-e", PACKAGE_ROOT], {
					cwd: ws.project,
					width: 120,
					height: 30,
					env: { PI_CODING_AGENT_DIR: ws.agentDir, PI_IDE_STATE_DIR: ws.stateDir, ...idePiEnv(ws) },
				}),
			);
		}

		test.skipIf(!line.node)(
			"picked in /ide, the VS Code-like server's at_mentioned lands at pi's cursor without a key press; the prompt carries the lines",
			async () => {
				const fake = await startIdeServer(ws, "vscode");
				fake.setEditor({ file: main(), text: MAIN_TEXT });
				const tui = start();
				await tui.waitForScreen("pi ready", (screen) => screen.includes("/128k"), PI_START_TIMEOUT_MS);
				expect(fake.upgrades).toHaveLength(0);

				await tui.submit("/ide");
				const picker = await tui.waitForScreen("the picker", (screen) => screen.includes("Connect pi to an editor"));
				// The label's column is cut by the list; the pid and the note are what matter.
				expect(picker).toContain(`→   Visual Studio Code ${process.pid}  /t`);
				expect(picker).toMatch(
					/file shown once connected, active (just now|\d+s ago) {2}\(IDE server: connects when picked\)/,
				);
				tui.press("Enter");
				await waitFor("connected: the widget", () => tui.belowEditor()?.trim() === "in main.ts", 10_000, 50);
				expect(handshakes(fake)).toBe(1);

				tui.type("look at ");
				await waitFor("typed", () => tui.editorText() === "look at", 5000, 20);
				fake.mention(main(), { start: 1, end: 2 });
				// No key is pressed: only pi's own redraw can show it.
				await waitFor(
					"the mention in pi's input",
					() => tui.editorText()?.startsWith("look at @src/main.ts#L2-3"),
					3000,
					20,
				);
				fake.mention(main());
				await waitFor(
					"a mention without lines",
					() => tui.editorText()?.startsWith("look at @src/main.ts#L2-3 @src/main.ts"),
					3000,
					20,
				);

				tui.press("Enter");
				await waitFor("the prompt sent", () => ws.server.requests.length === 1, 15_000, 50);
				const sent = ws.server.requests[0]?.messages.map(messageText).join("\n") ?? "";
				expect(sent).toContain("look at @src/main.ts#L2-3 @src/main.ts");
				expect(sent).toContain(
					`The user referenced ${main()} lines 2-3 (from the file on disk):\n\`\`\`ts\nline2\nline3\n\`\`\``,
				);

				await tui.submit("/ide status");
				const status = await tui.waitForScreen("the status", (screen) => screen.includes("unsaved guard: available"));
				expect(status).not.toContain(fake.token);
				expect(tui.isRunning()).toBe(true);
			},
		);
	});
});
