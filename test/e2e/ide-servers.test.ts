/**
 * IDE servers (the JetBrains plugin's, Anthropic's VS Code extension's) through the real pi, in RPC mode: the
 * fakes of test/support/fake-ide-server.ts write their lockfiles into this test's own lock root, pi finds them,
 * lists them, connects when picked (or with `"ideServers": "auto"` in the global settings) and follows them.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { writeIdeLockfile } from "../support/fake-ide-lockfile.ts";
import type { FakeIdeServer } from "../support/fake-ide-server.ts";
import { type ChatRequest, messageText, type ToolCallReply } from "../support/fake-model-server.ts";
import {
	claudeLockDir,
	handshakeSeen,
	handshakes,
	idePiEnv,
	otherClient,
	sleep,
	startIdeServer,
	toolCalls,
	waitForNotice,
} from "../support/ide-server-e2e.ts";
import type { IdeFlavour } from "../support/ide-server-flavours.ts";
import { piLines, writeAgentDir } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const FLAVOURS: { flavour: IdeFlavour; app: string; ideName: string }[] = [
	{ flavour: "jetbrains", app: "jetbrains", ideName: "IntelliJ IDEA" },
	{ flavour: "vscode", app: "vscode", ideName: "Visual Studio Code" },
];
const MAIN_TEXT = "line1\nline2\nline3\nline4\nline5\nline6\n";
/** A selection pi did not see made is stale; one told this long after connecting was seen made (1.5 s + margin). */
const AFTER_REPLAY_WINDOW_MS = 1800;
const FULL_HEADER = `The user's editor state as of this prompt ("this file", "here" and "the selection" refer to it).`;
const DELTA_HEADER =
	"The user's editor changed since the previous editor context; only these lines differ, the rest is as it was:";

/** The model writes `path` when the prompt asks it to, then answers with text once the tool result is back. */
function writer(path: string, content: string) {
	return (request: ChatRequest): string | ToolCallReply => {
		if (request.messages.at(-1)?.role === "tool") return "done";
		const asked = request.messages.some((message) => messageText(message) === `write ${path}`);
		return asked ? { toolCall: { name: "write", arguments: { path, content } } } : "ok";
	};
}

describe.each(piLines())("IDE servers through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const main = () => join(ws.project, "src", "main.ts");

	function startPi(): RpcPi {
		return ws.stopLater(
			RpcPi.start(line, { cwd: ws.project, agentDir: ws.agentDir, stateDir: ws.stateDir, env: idePiEnv(ws) }),
		);
	}

	/** The lines of the editor block the last prompt carried, between its tags. */
	function editorBlock(): string[] {
		const context = ws.lastContext();
		const open = context.lastIndexOf("<editor-context>\n");
		const close = context.lastIndexOf("\n</editor-context>");
		if (open < 0 || close < open) throw new Error(`no editor block in: ${context.slice(-2000)}`);
		return context.slice(open + "<editor-context>\n".length, close).split("\n");
	}

	/** `/ide status`, checked never to hold the server's token. */
	async function status(rpc: RpcPi, fake: FakeIdeServer): Promise<string> {
		const text = (await rpc.ideStatus()).join("\n");
		expect(text).not.toContain(fake.token);
		return text;
	}

	/** Until `/ide status` says the connection is open (its handshake and first queries done). */
	async function connectionOpen(rpc: RpcPi, fake: FakeIdeServer): Promise<string> {
		return waitFor("the connection open", async () => {
			const text = await status(rpc, fake);
			return text.includes(`holds port ${fake.port}\n`) && /\n {4}connected; unsaved guard: /.test(text) && text;
		});
	}

	/** `/ide` answered with its only row; returns the rows offered. */
	async function pickOnly(rpc: RpcPi): Promise<string[]> {
		const before = rpc.uiRequests("select").length;
		rpc.send({ type: "prompt", message: "/ide" });
		const request = await waitFor("the /ide picker", () => rpc.uiRequests("select")[before], 10_000);
		const options = request.options as string[];
		rpc.respond(String(request.id), { value: options[0] });
		return options;
	}

	describe.each(FLAVOURS)("the $flavour-like fake", ({ flavour, app, ideName }) => {
		test.skipIf(!line.node)(
			'listed, not connected by itself ("ask", a project\'s "auto" notwithstanding); picked: the block, fresh and stale selections, diagnostics',
			async () => {
				mkdirSync(join(ws.project, ".pi"), { recursive: true });
				writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify({ "pi-ide": { ideServers: "auto" } }));
				const fake = await startIdeServer(ws, flavour);
				// Made before pi connects: VS Code replays it, JetBrains never tells it. Either way not fresh.
				fake.setEditor({
					file: main(),
					text: MAIN_TEXT,
					selection: { start: { line: 1, character: 0 }, end: { line: 2, character: 5 } },
					selectedText: "line2\nline3",
					diagnostics: {
						[main()]: [{ message: "Undefined variable 'x'", severity: "error", line: 1, character: 0, source: "ts" }],
					},
				});
				const rpc = startPi();
				const pid = process.pid;
				const label = `${app} ${pid}`;
				const listed = await waitFor(
					"the lockfile read",
					async () => {
						const text = await status(rpc, fake);
						return text.includes(`holds port ${fake.port}`) && text;
					},
					PI_START_TIMEOUT_MS,
				);
				expect(listed).toContain("Connected: no\n");
				expect(listed).toContain(
					'IDE servers: 1 of 1 lockfiles usable; connected when picked with /ide ("ideServers": "ask")',
				);
				expect(listed).toContain(`\n  ${fake.lockfilePath} (${ideName}): pid ${pid} holds port ${fake.port}\n`);
				expect(listed).toContain(
					`    folders: ${ws.project}; tier 0 (cwd equals the project)\n    not connected; unsaved guard: unknown until connected`,
				);
				// The only editor in tier 0, and still not connected to: no upgrade ever reached the fake.
				await sleep(1000);
				expect(fake.upgrades).toHaveLength(0);
				expect(rpc.lastWidget() ?? "(cleared)").toBe("(cleared)");

				const rows = await pickOnly(rpc);
				expect(rows).toEqual([
					expect.stringMatching(
						new RegExp(
							`^${label}  ${ws.project} - file shown once connected, active (just now|\\d+s ago)  \\(IDE server: connects when picked\\)$`,
						),
					),
				]);
				const connectedAt = await handshakeSeen(fake);
				await waitForNotice(rpc, `pi-ide: connected to ${label}  ${ws.project}`);
				const diagnostic = ["Diagnostics: 1 error, 0 warnings", "- line 2: error: Undefined variable 'x' [ts]"];
				if (flavour === "vscode") {
					// Read at connect and replayed 500 ms later: the file and cursor, not a fresh selection.
					await rpc.waitForWidget("in main.ts");
					await waitFor("the replay seen", async () => (await status(rpc, fake)).includes("pushes seen: 1"));
					await rpc.prompt("what is here?");
					expect(editorBlock()).toEqual([
						FULL_HEADER,
						"App: vscode",
						`File: ${main()}`,
						"Language: typescript",
						"Cursor: line 3, column 6",
						"Buffer: 7 lines, no unsaved changes",
						...diagnostic,
					]);
				}
				await sleep(Math.max(0, connectedAt + AFTER_REPLAY_WINDOW_MS - Date.now()));
				fake.setEditor({
					selection: { start: { line: 3, character: 0 }, end: { line: 4, character: 5 } },
					selectedText: "line4\nline5",
				});
				await rpc.waitForWidget("2 lines selected in main.ts");
				await waitFor("the diagnostics asked", () => toolCalls(fake, "getDiagnostics") === 1);
				await rpc.prompt("what is selected?");
				const fresh = ["Selection: lines 4-5 (from line 4 column 1 to line 5 column 5)", "line4", "line5"];
				expect(editorBlock()).toEqual(
					flavour === "vscode"
						? [DELTA_HEADER, "Cursor: line 5, column 6", fresh[0], "```typescript", "line4", "line5", "```"]
						: [
								FULL_HEADER,
								"App: jetbrains",
								`File: ${main()}`,
								"Cursor: line 5, column 6",
								// JetBrains tells no line count and no unsaved state: the lines are counted on disk.
								expect.stringMatching(/^Buffer: 6 lines, unsaved changes unknown/),
								fresh[0],
								"```",
								"line4",
								"line5",
								"```",
								...diagnostic,
							],
				);

				// diagnostics_changed: asked again, and the next prompt carries the new section.
				fake.setEditor({
					diagnostics: {
						[main()]: [{ message: "Unused import", severity: "warning", line: 5, character: 2, source: "ts" }],
					},
				});
				fake.diagnosticsChanged([main()]);
				await waitFor("the new diagnostics asked", () => toolCalls(fake, "getDiagnostics") === 2);
				// Answered at once by the fake, in this process: pi has it well before the prompt.
				await sleep(300);
				await rpc.prompt("and now?");
				expect(editorBlock()).toEqual([
					DELTA_HEADER,
					"Diagnostics: 0 errors, 1 warning",
					"- line 6: warning: Unused import [ts]",
				]);

				const connected = await status(rpc, fake);
				expect(connected).toContain(`Connected: ${label}: picked with /ide`);
				expect(connected).toContain(
					flavour === "vscode"
						? "    connected; unsaved guard: available"
						: "    connected; unsaved guard: not available (the server cannot tell unsaved documents)",
				);
				expect(connected).toContain(`      server: ${fake.capabilities.serverName} 0.0.0-fake; pushes seen: `);
				expect(handshakes(fake)).toBe(1);
				expect(rpc.notices().join("\n")).not.toContain(fake.token);
				expect(rpc.stderr()).not.toContain(fake.token);
			},
		);

		test.skipIf(!line.node)(
			'"auto" in the global settings connects on its own; the lockfile removed: cleared within a second; written again: connected again; the server stopped: disconnected',
			async () => {
				writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { ideServers: "auto" } });
				// The test writes the lockfile itself, so that stopping the server leaves it behind (as a killed IDE does).
				const fake = await startIdeServer(ws, flavour, { writeLockfile: false });
				const writeLockfile = () =>
					writeIdeLockfile(claudeLockDir(ws), fake.port, {
						pid: process.pid,
						workspaceFolders: [ws.project],
						ideName,
						token: fake.token,
						runningInWindows: true,
					});
				const lockfile = writeLockfile();
				fake.setEditor({ file: main(), text: MAIN_TEXT });
				const label = `${app} ${process.pid}`;
				const rpc = startPi();
				const cursorPush = () =>
					fake.setEditor(
						{ selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } } },
						{ push: true },
					);
				await handshakeSeen(fake, 1, PI_START_TIMEOUT_MS);
				cursorPush();
				await rpc.waitForWidget("in main.ts");
				const connected = await connectionOpen(rpc, fake);
				expect(connected).toContain(`Connected: ${label}: auto-connected: the only live editor in tier 0 (`);
				expect(connected).toContain(
					'IDE servers: 1 of 1 lockfiles usable; auto-connected by the same rules as every editor ("ideServers": "auto")',
				);
				await rpc.prompt("where am I?");
				expect(editorBlock()).toContain("Cursor: line 3, column 1");

				const removedAt = Date.now();
				rmSync(lockfile);
				await rpc.waitForWidget("(cleared)", 1000);
				expect((rpc.widgetEvents().at(-1)?.epochMs ?? Number.POSITIVE_INFINITY) - removedAt).toBeLessThan(1000);
				await waitForNotice(rpc, `pi-ide: ${label} is gone; disconnected`);
				await waitFor("pi's socket closed", () => fake.openClients === 0);

				writeLockfile();
				await handshakeSeen(fake, 2);
				cursorPush();
				await rpc.waitForWidget("in main.ts");
				await connectionOpen(rpc, fake);

				const stoppedAt = Date.now();
				await fake.stop();
				await rpc.waitForWidget("(cleared)", 1000);
				expect((rpc.widgetEvents().at(-1)?.epochMs ?? Number.POSITIVE_INFINITY) - stoppedAt).toBeLessThan(1000);
				await waitForNotice(rpc, `pi-ide: ${label} is gone; disconnected`, 2);
				const stopped = await status(rpc, fake);
				expect(stopped).toContain("Connected: no\n");
				expect(stopped).toContain(
					`\n  ${lockfile} (${ideName}): not used: nothing listens on port ${fake.port} (a stale lockfile)\n`,
				);
				await rpc.prompt("still there?");
				expect(ws.lastContext()).toContain(
					"<editor-context>The editor is disconnected: the previous editor context no longer applies.</editor-context>",
				);
				expect(handshakes(fake)).toBe(2);
			},
		);
	});

	describe.skipIf(!line.node)("the vscode-like fake only", () => {
		test("a file switch it does not push is read before the prompt; a dirty document blocks the model's write; another client takes it: pi says why and does not fight; /ide takes it back", async () => {
			const fake = await startIdeServer(ws, "vscode");
			fake.setEditor({ file: main(), text: MAIN_TEXT });
			const rpc = startPi();
			const label = `vscode ${process.pid}`;
			await waitFor(
				"the lockfile read",
				async () => (await status(rpc, fake)).includes(`holds port ${fake.port}`),
				PI_START_TIMEOUT_MS,
			);
			await pickOnly(rpc);
			await rpc.waitForWidget("in main.ts");

			// RPC mode: an at_mentioned is not put in the input (set_editor_text would replace all of it).
			fake.mention(main(), { start: 1, end: 2 });
			await sleep(300);
			expect(rpc.uiRequests("set_editor_text")).toEqual([]);

			// Quick open of another file: VS Code pushes nothing; the prompt asks before it is sent.
			const other = join(ws.project, "src", "other.ts");
			writeFileSync(other, "export const other = 1;\n");
			fake.setEditor(
				{
					file: other,
					text: "export const other = 1;\n",
					selection: { start: { line: 0, character: 7 }, end: { line: 0, character: 7 } },
				},
				{ push: false },
			);
			await sleep(300);
			expect(rpc.lastWidget()).toBe("in main.ts");
			const asked = toolCalls(fake, "getOpenEditors");
			await rpc.prompt("which file?");
			expect(toolCalls(fake, "getOpenEditors")).toBeGreaterThan(asked);
			expect(editorBlock()).toEqual([
				FULL_HEADER,
				"App: vscode",
				`File: ${other}`,
				"Language: typescript",
				"Cursor: line 1, column 8",
				"Buffer: 2 lines, no unsaved changes",
			]);
			await rpc.waitForWidget("in other.ts");

			// main.ts typed in and not saved, while other.ts is the active file: the model's write of it is blocked.
			fake.setEditor({ dirty: [main()] });
			ws.server.reply = writer("src/main.ts", "from the model\n");
			await rpc.prompt("write src/main.ts");
			expect(readFileSync(main(), "utf8")).toBe(MAIN_TEXT);
			expect(rpc.notices()).toContain(
				"pi-ide: blocked the model's write of main.ts: your editor has unsaved changes to it (save or discard them, then let it retry)",
			);
			const toolResult = ws.server.requests.at(-1)?.messages.find((message) => message.role === "tool");
			expect(messageText(toolResult ?? { content: "" })).toContain(
				`Blocked: the user's editor has unsaved changes to ${main()}.`,
			);
			ws.server.reply = () => "ok";

			// Another agent connects: the one-client server closes pi's socket without a code.
			const upgradesBefore = fake.upgrades.length;
			const intruder = await otherClient(fake);
			ws.defer(() => intruder.terminate());
			const why = "the editor closed pi's connection; another client may have taken it; /ide reconnects";
			await waitForNotice(rpc, `pi-ide: disconnected from ${label}: ${why}`);
			await rpc.waitForWidget("(cleared)");
			await sleep(2500);
			// Only the intruder's upgrade: pi did not reconnect and take the server back.
			expect(fake.upgrades.length).toBe(upgradesBefore + 1);
			expect(handshakes(fake)).toBe(1);
			expect(intruder.readyState).toBe(WebSocket.OPEN);
			const evicted = await status(rpc, fake);
			expect(evicted).toContain(`    not connected: ${why}; unsaved guard: unknown until connected`);

			// Picked again by hand: pi connects (and the server drops the other client, as the user asked for).
			const rows = await pickOnly(rpc);
			expect(rows[0]).toMatch(/\(IDE server: connects when picked\)$/);
			await handshakeSeen(fake, 2);
			await rpc.waitForWidget("in other.ts");
			await waitFor("the intruder closed", () => intruder.readyState === WebSocket.CLOSED);
			expect((await status(rpc, fake)).split("\n")).toContain(`Connected: ${label}: picked with /ide`);
		});
	});
});
