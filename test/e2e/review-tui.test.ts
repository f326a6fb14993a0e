/**
 * Review in pi's interactive TUI (tmux), both lines: pi's select shows the call and where the diff is, a key
 * answers it, Esc never approves; the widget ends with ", review on".
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { writerModel } from "../support/fake-model-server.ts";
import { projectState } from "../support/fixtures.ts";
import { piLines, writeAgentDir } from "../support/pi-cli.ts";
import { hasTmux, TmuxPi } from "../support/tmux-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

describe.skipIf(!hasTmux()).each(piLines())("review in the real $name's TUI (tmux)", (line) => {
	const ws = useE2eWorkspace();
	const target = () => join(ws.project, "src", "main.ts");

	function start(): TmuxPi {
		writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { review: true } });
		ws.editor().write(projectState(ws.project, {}, "main.ts"));
		return ws.stopLater(
			TmuxPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, width: 100, height: 30 }),
		);
	}

	test.skipIf(!line.node)(
		"pi's select asks with the call's title and why no diff is shown; Enter accepts, the file is written",
		async () => {
			writeFileSync(target(), "mine\n");
			ws.server.reply = writerModel(target(), "theirs\n");
			const tui = start();
			await waitFor("the widget", () => tui.belowEditor() === "in main.ts, review on", PI_START_TIMEOUT_MS, 50);
			await tui.submit(`write ${target()}`);
			const screen = await tui.waitForScreen("the review select", (text) =>
				text.includes("Review: write src/main.ts (+1 -1)"),
			);
			expect(screen).toContain("its state-file client cannot show a diff");
			for (const choice of ["Accept", "Accept all in this session", "Reject", "Reject and say why"])
				expect(screen).toContain(choice);
			// The review's select ignores keys at first: an Enter typed for the prompt does not approve.
			tui.press("Enter");
			await tui.waitForScreen("the keys armed", (text) => text.includes("enter choose, esc reject and stop the turn"));
			expect(readFileSync(target(), "utf8")).toBe("mine\n");
			tui.press("Enter");
			await waitFor("the file written", () => readFileSync(target(), "utf8") === "theirs\n");
		},
	);

	test.skipIf(!line.node)("Esc never approves: the file stays, the turn stops", async () => {
		writeFileSync(target(), "mine\n");
		ws.server.reply = writerModel(target(), "theirs\n");
		const tui = start();
		await waitFor("the widget", () => tui.belowEditor() === "in main.ts, review on", PI_START_TIMEOUT_MS, 50);
		await tui.submit(`write ${target()}`);
		await tui.waitForScreen("the keys armed", (text) => text.includes("enter choose, esc reject and stop the turn"));
		const asked = ws.server.requests.length;
		tui.press("Escape");
		await tui.waitForScreen("the select gone", (text) => !text.includes("Reject and say why"));
		// The next prompt's request comes right after the one that asked for the write: none went between.
		await tui.submit("anything else?");
		await waitFor("the next prompt answered", () => ws.server.requests.length === asked + 1);
		expect(readFileSync(target(), "utf8")).toBe("mine\n");
		expect(JSON.stringify(ws.server.requests.at(-1)?.messages)).toContain("anything else?");
	});
});
