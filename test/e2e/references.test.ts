/**
 * Pointing at code on purpose, through the real pi on both lines: references in print and RPC prompts, with
 * and without an editor, sent once, in the explicit mode, and ctrl+alt+k in the real TUI.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { type ChatRequest, messageText } from "../support/fake-model-server.ts";
import { projectState, selection } from "../support/fixtures.ts";
import { piLines, writeAgentDir } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { hasTmux, TmuxPi } from "../support/tmux-pi.ts";
import { waitFor } from "../support/wait-for.ts";

const now = () => Date.now() / 1000;

describe.each(piLines())("references through the real $name CLI", (line) => {
	const ws = useE2eWorkspace();

	const ask = (prompt: string) => ws.print(line, prompt);

	/** The real TUI with an editor whose lines 2-4 are selected, once the widget says so. */
	async function tuiWithSelection() {
		const nvim = ws.editor();
		nvim.write({
			...projectState(ws.project, { buffer: { selection: selection(2, 4, "line2\nline3\nline4", now()) } }),
			pid: nvim.pid,
		});
		const tui = ws.stopLater(
			TmuxPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, width: 100, height: 30 }),
		);
		await waitFor("widget", () => tui.belowEditor() === "3 lines selected in main.ts", 30_000, 50);
		return { nvim, tui };
	}
	/** The message pi-ide-context added after the prompt, or undefined. */
	const added = (request: ChatRequest, prompt: string) => {
		const texts = request.messages.map(messageText);
		const at = texts.lastIndexOf(prompt);
		return at >= 0 ? texts[at + 1] : undefined;
	};

	test.skipIf(!line.node)(
		"print mode with no editor: the referenced lines go along; the prompt stays as typed; a missing file is one line",
		async () => {
			const prompt = "explain @src/main.ts#L2-3 and @src/nope.ts#L1, mail me@example.com#L2";
			const request = await ask(prompt);
			expect(request.messages.map(messageText)).toContain(prompt);
			expect(added(request, prompt)).toBe(
				[
					"<editor-reference>",
					`The user referenced ${ws.project}/src/main.ts lines 2-3 (from the file on disk):`,
					"```ts",
					"line2",
					"line3",
					"```",
					"</editor-reference>",
					"",
					"<editor-reference>src/nope.ts: file not found</editor-reference>",
				].join("\n"),
			);
		},
	);

	test.skipIf(!line.node)(
		"explicit mode: no ambient block even with an editor connected, only the referenced code",
		async () => {
			writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { context: "explicit" } });
			const nvim = ws.editor();
			nvim.write({
				...projectState(ws.project, { buffer: { selection: selection(4, 5, "line4\nline5", now()) } }),
				pid: nvim.pid,
			});
			const plain = await ask("what am I looking at?");
			expect(added(plain, "what am I looking at?")).toBeUndefined();
			const withReference = await ask("and @src/main.ts#L6?");
			const message = added(withReference, "and @src/main.ts#L6?") ?? "";
			expect(message).toContain(`The user referenced ${ws.project}/src/main.ts line 6 (from the file on disk):`);
			expect(message).not.toContain("<editor-context>");
			expect(message).not.toContain("line4");
		},
	);

	test.skipIf(!line.node)(
		"RPC: beside the ambient block; the editor's selection when it spans those lines; sent once; changed text again",
		async () => {
			const nvim = ws.editor();
			nvim.write({
				...projectState(ws.project, {
					buffer: { modified: true, selection: selection(2, 3, "UNSAVED2\nUNSAVED3", now() - 120) },
				}),
				pid: nvim.pid,
			});
			const rpc = ws.stopLater(RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir }));
			await waitFor("connected", () => rpc.lastWidget() === "in main.ts", 30_000);
			await rpc.prompt("look at @src/main.ts#L2-3");
			const first = added(ws.server.requests.at(-1) as ChatRequest, "look at @src/main.ts#L2-3") ?? "";
			expect(first.startsWith("<editor-context>\n")).toBe(true);
			expect(first).toContain(
				`The user referenced ${ws.project}/src/main.ts lines 2-3 (from the editor's selection, which may hold unsaved edits):\n\`\`\`ts\nUNSAVED2\nUNSAVED3\n\`\`\``,
			);
			await rpc.prompt("again @src/main.ts#L2-3");
			expect(added(ws.server.requests.at(-1) as ChatRequest, "again @src/main.ts#L2-3")).toContain(
				`<editor-reference>${ws.project}/src/main.ts lines 2-3: the same text as sent with an earlier prompt</editor-reference>`,
			);
			await rpc.prompt("from disk @src/main.ts#L5");
			const disk = added(ws.server.requests.at(-1) as ChatRequest, "from disk @src/main.ts#L5") ?? "";
			expect(disk).toContain(
				"[the editor has unsaved changes to this file; this is the text on disk]\n```ts\nline5\n```",
			);
			writeFileSync(join(ws.project, "src", "main.ts"), "line1\nline2\nline3\nline4\nCHANGED5\nline6\n");
			await rpc.prompt("changed @src/main.ts#L5");
			expect(added(ws.server.requests.at(-1) as ChatRequest, "changed @src/main.ts#L5")).toContain(
				"```ts\nCHANGED5\n```",
			);
		},
	);

	test.skipIf(!line.node)(
		"a message queued while the agent runs keeps its references: they go with the next prompt",
		async () => {
			const rpc = ws.stopLater(RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir }));
			ws.server.delayMs = 1500;
			const before = rpc.messages.length;
			rpc.send({ type: "prompt", message: "a long question" });
			await waitFor("the agent runs", () => rpc.messages.slice(before).some((m) => m.type === "agent_start"), 30_000);
			await rpc.command({ type: "prompt", message: "meanwhile see @src/main.ts#L6", streamingBehavior: "steer" });
			await waitFor("the run ends", () => rpc.messages.slice(before).some((m) => m.type === "agent_end"), 20_000);
			ws.server.delayMs = 0;
			await rpc.prompt("next question");
			expect(added(ws.server.requests.at(-1) as ChatRequest, "next question")).toContain(
				`The user referenced ${ws.project}/src/main.ts line 6 (from the file on disk):\n\`\`\`ts\nline6\n\`\`\``,
			);
		},
	);

	test.skipIf(!line.node || !hasTmux())(
		"ctrl+alt+k in the real TUI inserts a reference to the selection, then to the cursor line (needs tmux)",
		async () => {
			const { nvim, tui } = await tuiWithSelection();
			tui.type("explain");
			await waitFor("typed", () => tui.editorText() === "explain", 5000, 20);
			const shortcut = () => tui.press("C-M-k");
			shortcut();
			await waitFor("reference inserted", () => tui.editorText() === "explain @src/main.ts#L2-4", 5000, 20);
			nvim.write({ ...projectState(ws.project, { buffer: { cursor: { line: 6, column: 1 } } }), pid: nvim.pid });
			await waitFor("no selection now", () => tui.belowEditor() === "in main.ts", 5000, 50);
			shortcut();
			await waitFor(
				"cursor line inserted",
				() => tui.editorText() === "explain @src/main.ts#L2-4 @src/main.ts#L6",
				5000,
				20,
			).catch((error) => {
				throw new Error(
					`${String(error)}; the input holds: ${JSON.stringify(tui.editorText())}; screen:\n${tui.screen()}`,
				);
			});
			expect(tui.isRunning()).toBe(true);
		},
	);

	test.skipIf(!line.node || !hasTmux())(
		"pi's @ completion offers the editor's selection first; Tab takes it (needs tmux)",
		async () => {
			const { tui } = await tuiWithSelection();
			tui.type("explain @src");
			const screen = await tui.waitForScreen("the suggestion", (text) => text.includes("the editor's selection"));
			const suggestion = screen.split("\n").find((row) => row.includes("the editor's selection")) ?? "";
			expect(suggestion).toContain("@src/main.ts#L2-4");
			tui.press("Tab");
			await waitFor("completed", () => tui.editorText() === "explain @src/main.ts#L2-4", 5000, 20);
		},
	);
});
