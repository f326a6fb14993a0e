/**
 * IDE servers (the JetBrains plugin's, Anthropic's VS Code extension's) through the real pi, in RPC mode: the
 * fakes of test/support/fake-ide-server.ts write their lockfiles into this test's own lock root, pi finds them,
 * lists them, connects when picked (or with `"ideServers": "auto"` in the global settings) and follows them.
 * What only the VS Code extension does is in ide-servers-vscode.test.ts; `at_mentioned` in the TUI in
 * ide-servers-tui.test.ts.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { writeIdeLockfile } from "../support/fake-ide-lockfile.ts";
import {
	editorBlock as blockOf,
	claudeLockDir,
	connectionOpen,
	DELTA_HEADER,
	FULL_HEADER,
	handshakeSeen,
	handshakes,
	lockfileListed,
	MAIN_TEXT,
	pickFirst,
	sleep,
	startIdePi,
	startIdeServer,
	statusOf,
	toolCalls,
	waitForNotice,
} from "../support/ide-server-e2e.ts";
import type { IdeFlavour } from "../support/ide-server-flavours.ts";
import { processFactsLines, writeAgentDir } from "../support/pi-cli.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const FLAVOURS: { flavour: IdeFlavour; app: string; ideName: string }[] = [
	{ flavour: "jetbrains", app: "jetbrains", ideName: "IntelliJ IDEA" },
	{ flavour: "vscode", app: "vscode", ideName: "Visual Studio Code" },
];
/** A selection pi did not see made is stale; one told this long after connecting was seen made (1.5 s + margin). */
const AFTER_REPLAY_WINDOW_MS = 1800;

describe.each(processFactsLines())("IDE servers through the real $name (RPC)", (line) => {
	const ws = useE2eWorkspace();
	const main = () => join(ws.project, "src", "main.ts");
	const startPi = () => startIdePi(ws, line);
	const editorBlock = () => blockOf(ws);

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
				const label = `${ideName} ${pid}`;
				const listed = await lockfileListed(rpc, fake, PI_START_TIMEOUT_MS);
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

				const rows = await pickFirst(rpc);
				expect(rows).toEqual([
					expect.stringMatching(
						new RegExp(
							`^${label}  ${ws.project} - file shown once connected, active (just now|\\d+s ago)  \\(IDE server: connects when picked\\)$`,
						),
					),
				]);
				const connectedAt = await handshakeSeen(fake, 1, 10_000, rpc);
				await waitForNotice(rpc, `pi-ide: connected to ${label}  ${ws.project}`);
				const diagnostic = ["Diagnostics: 1 error, 0 warnings", "- line 2: error: Undefined variable 'x' [ts]"];
				if (flavour === "vscode") {
					// Read at connect and replayed 500 ms later: the file and cursor, not a fresh selection.
					await rpc.waitForWidget("in main.ts");
					await waitFor("the replay seen", async () => (await statusOf(rpc, fake)).includes("pushes seen: 1"));
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
								`App: ${app}`,
								`File: ${main()}`,
								"Language: ts",
								"Cursor: line 5, column 6",
								// JetBrains tells no line count and no unsaved state: the lines are counted on disk.
								"Buffer: 6 lines, unsaved changes unknown (the editor does not tell them)",
								fresh[0],
								"```ts",
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

				const connected = await statusOf(rpc, fake);
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
				const label = `${ideName} ${process.pid}`;
				const rpc = startPi();
				const cursorPush = () =>
					fake.setEditor(
						{ selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } } },
						{ push: true },
					);
				await handshakeSeen(fake, 1, PI_START_TIMEOUT_MS, rpc);
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
				await handshakeSeen(fake, 2, 10_000, rpc);
				cursorPush();
				await rpc.waitForWidget("in main.ts");
				await connectionOpen(rpc, fake);

				const stoppedAt = Date.now();
				await fake.stop();
				await rpc.waitForWidget("(cleared)", 1000);
				expect((rpc.widgetEvents().at(-1)?.epochMs ?? Number.POSITIVE_INFINITY) - stoppedAt).toBeLessThan(1000);
				await waitForNotice(rpc, `pi-ide: ${label} is gone; disconnected`, 2);
				const stopped = await statusOf(rpc, fake);
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
});
