/**
 * Zed through the real pi: its own state database, written as Zed writes it (one open connection, WAL, no
 * autocheckpoint), and a `zed-editor` process for "Zed is running". pi 1.x runs on a Node with node:sqlite;
 * pi 0.73 (Node 20) has none and says so in one status line.
 */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { FakeZed } from "../support/fake-zed.ts";
import { projectState } from "../support/fixtures.ts";
import { type PiLine, piLines, processesLinePattern } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const [pi073, pi1] = piLines() as [PiLine, PiLine];
const GREETING = 'const a = 1;\nconst grüß = "héllo 🌍";\nexport {};\n';
/** Byte offsets of `grüß = "héllo 🌍"` in GREETING: Zed stores UTF-8 bytes, not characters. */
const byteOffset = (text: string, needle: string) => Buffer.byteLength(text.slice(0, text.indexOf(needle)));

describe("Zed through the real pi 1.x CLI (RPC)", () => {
	const ws = useE2eWorkspace();
	const zeds: FakeZed[] = [];
	afterEach(async () => {
		for (const zed of zeds.splice(0)) await zed.close();
	});

	async function zedFixture(): Promise<FakeZed> {
		const zed = await FakeZed.create(join(ws.root, "zed"), pi1.node as string);
		zeds.push(zed);
		return zed;
	}

	function startPi(zed: FakeZed, env: Record<string, string> = {}, line: PiLine = pi1): RpcPi {
		return ws.stopLater(
			RpcPi.start(line, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: { ...zed.environment(join(ws.root, "home")), ...env },
			}),
		);
	}

	/** Zed's database with workspace 1 (the project) showing `path` in a focused pane; Zed not started yet. */
	async function zedShowing(
		path: string,
		selections: [number, number][],
		focus: "editor" | "terminal" = "editor",
	): Promise<FakeZed> {
		const zed = await zedFixture();
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path, selections }, focus);
		return zed;
	}

	/** Zed running with workspace 1 (the project) showing `path` in a focused pane, and pi connected to it. */
	async function zedConnected(
		path: string,
		selections: [number, number][],
		widget: (line: string | undefined) => boolean,
		focus: "editor" | "terminal" = "editor",
	): Promise<{ zed: FakeZed; rpc: RpcPi }> {
		const zed = await zedShowing(path, selections, focus);
		zed.start();
		const rpc = startPi(zed);
		await rpc.waitForWidget(widget, PI_START_TIMEOUT_MS);
		return { zed, rpc };
	}

	const lastRequest = () => ws.server.requests.at(-1)?.messages.map(messageText).join("\n") ?? "";

	test.skipIf(!pi1.node).each(["proc", "ps"])(
		"connects to the running Zed's workspace: multibyte selection as lines and byte columns, a new selection, Zed quitting (process facts: %s)",
		async (backend) => {
			writeFileSync(join(ws.project, "src", "greet.ts"), GREETING);
			const zed = await zedFixture();
			await zed.workspace({ id: 4294967444, roots: [ws.project] });
			const start = byteOffset(GREETING, "grüß");
			const end = start + Buffer.byteLength('grüß = "héllo 🌍"');
			const file = join(ws.project, "src", "greet.ts");
			await zed.show({
				workspaceId: 4294967444,
				itemId: 7,
				path: file,
				selections: [[start, end]],
				language: "TypeScript",
			});
			const zedPid = zed.start();
			const rpc = startPi(zed, { PI_IDE_PROCESS_FACTS: backend });
			await rpc.waitForWidget("1 line selected in greet.ts", PI_START_TIMEOUT_MS);

			await rpc.prompt("what is selected?");
			const sent = lastRequest();
			expect(sent).toContain("App: zed");
			expect(sent).toContain(`File: ${file}`);
			// Line 2 in byte columns: `grüß` starts at byte 7; ü, ß, é take 2 bytes, 🌍 4; the closing quote is byte 28.
			expect(sent).toContain("Selection: line 2 (from line 2 column 7 to line 2 column 28)");
			expect(sent).toContain("Cursor: line 2, column 29");
			expect(sent).toContain('grüß = "héllo 🌍"');
			expect(sent).toContain("Buffer: 3 lines, no unsaved changes");

			// A new selection, written as Zed writes one (delete, then insert), and a second caret after it.
			const second = byteOffset(GREETING, "héllo");
			const third = byteOffset(GREETING, "export") + 6;
			await zed.select({
				workspaceId: 4294967444,
				itemId: 7,
				selections: [
					[third + 1, third + 1],
					[second, third],
				],
			});
			await rpc.waitForWidget("2 lines selected in greet.ts", 3000);
			await rpc.prompt("and now?");
			expect(lastRequest()).toContain("Selection: lines 2-3 (from line 2 column 17 to line 3 column 6)");
			expect(lastRequest()).toContain("Cursor: line 3, column 7");

			const lines = await rpc.ideStatus();
			expect(lines).toContain(`Zed: database ${zed.dbPath} (stable); Zed is running (pid ${zedPid})`);
			expect(lines.join("\n")).toMatch(processesLinePattern({ ...pi1, env: { PI_IDE_PROCESS_FACTS: backend } }));
			expect(lines).toContain("  Schema steps: WorkspaceDb 36, EditorDb 8, KeyValueStore 1");
			// Idle Zed, idle pi: no read (pi's own reads touch the database's files and must not look like changes).
			// Two more looks of the slow fallback prove it: each compared the files and found nothing to read.
			const counters = async () => {
				const line = (await rpc.ideStatus()).find((text) => text.startsWith("  Reads: ")) ?? "";
				const [, reads, checks] = /^ {2}Reads: (\d+), .*; fallback checks: (\d+)$/.exec(line) ?? [];
				return { reads: Number(reads), checks: Number(checks) };
			};
			const before = await counters();
			await waitFor("two more fallback checks", async () => (await counters()).checks >= before.checks + 2, 10_000);
			expect((await counters()).reads).toBe(before.reads);
			expect(lines).toContain("  Session: session-1");
			expect(lines).toContain(
				`  Workspace 4294967444 (${ws.project}): tier 0 (a workspace root is the project), greet.ts`,
			);

			zed.quit();
			const quitAt = Date.now();
			await rpc.waitForWidget("(cleared)", 5000);
			expect(Date.now() - quitAt).toBeLessThan(2000);
			await rpc.prompt("still there?");
			expect(lastRequest()).toContain("The editor is disconnected: the previous editor context no longer applies.");
			const after = await rpc.ideStatus();
			expect(after).toContain(`Zed: database ${zed.dbPath} (stable); Zed is not running`);
			expect(after.some((line) => /disconnected from zed \d+: the app quit \(or crashed\)/.test(line))).toBe(true);
			expect(rpc.stderr()).not.toMatch(/ExperimentalWarning|SQLite/);
		},
	);

	test.skipIf(!pi1.node)(
		"rows of a Zed that is not running are no editor; Zed starting later connects; other sessions' and remote workspaces are never offered",
		async () => {
			const zed = await zedFixture();
			const file = join(ws.project, "src", "main.ts");
			await zed.workspace({ id: 1, roots: [ws.project] });
			await zed.show({ workspaceId: 1, itemId: 11, path: file, selections: [[0, 0]] });
			await zed.workspace({ id: 2, roots: [ws.project], session: "an-earlier-session" });
			await zed.show({ workspaceId: 2, itemId: 21, path: file, selections: [[0, 0]] });
			await zed.workspace({ id: 3, roots: [ws.project], remote: true });
			await zed.show({ workspaceId: 3, itemId: 31, path: file, selections: [[0, 0]] });
			const rpc = startPi(zed);
			const before = await rpc.ideStatus();
			expect(before, before.join("\n")).toContain(`Zed: database ${zed.dbPath} (stable); Zed is not running`);
			expect(rpc.lastWidget()).toBeUndefined();
			await rpc.prompt("anything?");
			expect(lastRequest()).not.toContain("<editor-context>");

			// Zed starts: it writes its database (here: a tab moves), which is when pi looks for it.
			const zedPid = zed.start();
			await zed.show({ workspaceId: 1, itemId: 11, path: file, selections: [[6, 6]] });
			await rpc.waitForWidget("in main.ts", 5000);
			const lines = await rpc.ideStatus();
			expect(lines, lines.join("\n")).toContain(`Zed: database ${zed.dbPath} (stable); Zed is running (pid ${zedPid})`);
			expect(lines).toContain(`  Workspace 1 (${ws.project}): tier 0 (a workspace root is the project), main.ts`);
			expect(lines).toContain(
				`  Workspace 2 (${ws.project}): not offered: not in Zed's current session (a closed window, or an earlier run)`,
			);
			expect(lines).toContain(
				`  Workspace 3 (${ws.project}): not offered: a remote workspace: its paths are not this machine's`,
			);
			await rpc.prompt("where?");
			expect(lastRequest()).toContain("Cursor: line 2, column 1");
		},
	);

	test.skipIf(!pi1.node)(
		"a Zed that quit and is not yet reaped (a zombie, no environment left) is not taken for the running one; when Zed quits, another running Zed is found at once; a Zed left a zombie is gone within 3 s",
		async () => {
			const zed = await zedShowing(join(ws.project, "src", "main.ts"), [[6, 11]]);
			const zombie = await zed.zombie();
			const zedPid = zed.start();
			const rpc = startPi(zed);
			await rpc.waitForWidget("1 line selected in main.ts", PI_START_TIMEOUT_MS);
			const lines = await rpc.ideStatus();
			expect(lines).toContain(`Zed: database ${zed.dbPath} (stable); Zed is running (pid ${zedPid})`);
			expect(lines.join("\n")).not.toContain(String(zombie));

			// A second Zed runs; the first quits. pi looks again at once: no database write is needed to find it.
			const second = zed.start();
			zed.quitOne(zedPid);
			await waitFor("the second Zed", async () =>
				(await rpc.ideStatus()).includes(`Zed: database ${zed.dbPath} (stable); Zed is running (pid ${second})`),
			);
			await rpc.waitForWidget("1 line selected in main.ts");

			// That Zed quits too, but its parent does not reap it: a zombie passes kill(pid, 0), /proc does not.
			const unreaped = await zed.startUnreaped();
			zed.quitOne(second);
			await waitFor("the unreaped Zed", async () =>
				(await rpc.ideStatus()).includes(`Zed: database ${zed.dbPath} (stable); Zed is running (pid ${unreaped})`),
			);
			await zed.killUnreaped(unreaped);
			const killedAt = Date.now();
			await rpc.waitForWidget("(cleared)", 5000);
			expect(Date.now() - killedAt).toBeLessThan(3000);
		},
	);

	test.skipIf(!pi1.node)(
		"unsaved contents: the text the user sees is sent, and the model's write of that file or another unsaved tab is blocked",
		async () => {
			const zed = await zedFixture();
			const main = join(ws.project, "src", "main.ts");
			const other = join(ws.project, "src", "other.ts");
			writeFileSync(other, "saved\n");
			await zed.workspace({ id: 1, roots: [ws.project] });
			// Another tab, unsaved and larger than pi copies out of the database: still covered by the guard.
			await zed.sql("INSERT INTO editors (item_id, workspace_id, path, contents) VALUES (12, 1, ?, ?)", [
				{ bytes: other },
				"edited in zed\n".repeat(300_000),
			]);
			const unsaved = "line1\nUNSAVED in zed\nline3\n";
			await zed.show({ workspaceId: 1, itemId: 11, path: main, contents: unsaved, selections: [[6, 20]] });
			zed.start();
			const rpc = startPi(zed);
			await rpc.waitForWidget("1 line selected in main.ts", PI_START_TIMEOUT_MS);
			await rpc.prompt("what is selected?");
			expect(lastRequest()).toContain("Buffer: 3 lines, unsaved changes");
			expect(lastRequest()).toContain("UNSAVED in zed");

			for (const path of ["src/main.ts", "src/other.ts"]) {
				// The model writes once after the prompt, then answers once the tool's result is back.
				ws.server.reply = (request) => {
					const asked = request.messages.findLastIndex((message) => messageText(message) === `overwrite ${path}`);
					const answered = request.messages.slice(asked).some((message) => message.role === "tool");
					return asked >= 0 && !answered
						? { toolCall: { name: "write", arguments: { path, content: "by the model\n" } } }
						: "ok";
				};
				await rpc.prompt(`overwrite ${path}`);
				const name = path.slice("src/".length);
				await waitFor("the block notice", () =>
					rpc.notices().some((n) => n.startsWith("pi-ide: blocked the model's write of") && n.includes(name)),
				);
			}
			expect(readFileSync(main, "utf8")).toBe("line1\nline2\nline3\nline4\nline5\nline6\n");
			expect(readFileSync(other, "utf8")).toBe("saved\n");
		},
	);

	test.skipIf(!pi1.node)(
		"focus in Zed's terminal keeps the last editor; pi started while focus is there shows the workspace's active editor",
		async () => {
			const main = join(ws.project, "src", "main.ts");
			// Focus in the terminal from the start: the workspace's active editor tab is shown.
			const { zed, rpc } = await zedConnected(main, [[12, 12]], (w) => w === "in main.ts", "terminal");
			await rpc.prompt("where?");
			expect(lastRequest()).toContain("Cursor: line 3, column 1");

			// The user clicks into the editor and moves, then back to the terminal dock: the last state stays.
			await zed.show({ workspaceId: 1, itemId: 11, path: main, selections: [[18, 23]] });
			await rpc.waitForWidget("1 line selected in main.ts", 3000);
			await zed.focusTerminal(1);
			await waitFor("the read of the focus change", async () => {
				const lines = await rpc.ideStatus();
				if (!lines.some((l) => l.endsWith("main.ts (kept: no pane has focus)"))) throw new Error(lines.join("\n"));
				return true;
			});
			await zed.show({ workspaceId: 1, itemId: 11, path: main, selections: [] });
			await waitFor("the read of no selection rows", async () =>
				(await rpc.ideStatus()).some((l) => l.endsWith("main.ts (kept: no selection rows (Zed is rewriting them))")),
			);
			await rpc.prompt("still?");
			expect(lastRequest()).not.toContain("The editor is disconnected");
			expect(rpc.lastWidget()).toBe("1 line selected in main.ts");
		},
	);

	test.skipIf(!pi1.node)(
		"a locked database: the last state stays, a prompt is not delayed, /ide status names the problem",
		async () => {
			const main = join(ws.project, "src", "main.ts");
			const { zed, rpc } = await zedConnected(main, [[6, 11]], (w) => w === "1 line selected in main.ts");
			await zed.lock();
			// Zed writes while it holds the lock: its WAL moves, which is what makes pi read.
			const later = new Date(Date.now() + 5000);
			utimesSync(`${zed.dbPath}-wal`, later, later);
			try {
				await waitFor(
					"a failed read",
					async () => (await rpc.ideStatus()).some((l) => l.includes("Last read problem")),
					5000,
				);
				const started = performance.now();
				await rpc.prompt("what is selected?");
				expect(performance.now() - started).toBeLessThan(2000);
				expect(lastRequest()).toContain("line2");
				const lines = await rpc.ideStatus();
				expect(lines.find((l) => l.includes("Last read problem"))).toMatch(/database is locked/);
				expect(rpc.lastWidget()).toBe("1 line selected in main.ts");

				// The lock ends with nothing written: no file moves, yet pi reads again on its own.
				await zed.unlock("ROLLBACK");
				await waitFor(
					"a read after the lock",
					async () => (await rpc.ideStatus()).some((l) => l.includes("; read fine since): database is locked")),
					5000,
				);
			} finally {
				await zed.unlock();
			}
		},
	);

	test.skipIf(!pi1.node)("a file on disk with CRLF line ends: Zed's offsets count its text with LF", async () => {
		const file = join(ws.project, "src", "dos.ts");
		writeFileSync(file, "first\r\nsecond\r\nthird\r\n");
		// "second" is bytes 6-12 of "first\nsecond\nthird\n" (in the CRLF file it would start at byte 7).
		const { rpc } = await zedConnected(file, [[6, 12]], (w) => w === "1 line selected in dos.ts");
		await rpc.prompt("what is selected?");
		expect(lastRequest()).toContain("Selection: line 2 (from line 2 column 1 to line 2 column 6)");
		expect(lastRequest()).toMatch(/\nsecond\n`{3}/);
	});

	test.skipIf(!pi1.node)("a secret file open in Zed: its selection is withheld", async () => {
		const env = join(ws.project, ".env");
		writeFileSync(env, "API_KEY=hunter2-not-for-the-model\n");
		const { rpc } = await zedConnected(env, [[0, 33]], (w) => w?.includes(".env") === true);
		await rpc.prompt("what is selected?");
		expect(lastRequest()).toContain(`File: ${env}`);
		expect(lastRequest()).not.toContain("hunter2");
	});

	test.skipIf(!pi1.node)('"zed": false in the settings: Zed is not read', async () => {
		const zed = await zedFixture();
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path: join(ws.project, "src", "main.ts"), selections: [[0, 0]] });
		zed.start();
		mkdirSync(join(ws.project, ".pi"), { recursive: true });
		writeFileSync(join(ws.project, ".pi", "settings.json"), JSON.stringify({ "pi-ide": { zed: false } }));
		const rpc = startPi(zed);
		const lines = await rpc.ideStatus();
		expect(lines).toContain(`Zed: not read (${join(ws.project, ".pi", "settings.json")} says "zed": false)`);
		expect(rpc.lastWidget()).toBeUndefined();
	});

	test.skipIf(!pi1.node)(
		"Zed beside a Neovim editor of the same project: no auto-connect, /ide offers both, picking Zed connects it",
		async () => {
			const zed = await zedShowing(join(ws.project, "src", "main.ts"), [[0, 0]]);
			const zedPid = zed.start();
			const nvim = ws.editor();
			nvim.write(projectState(ws.project, { buffer: { name: "main.ts" } }));
			const rpc = startPi(zed);
			await rpc.command({ type: "get_state" });
			await waitFor("both listed", async () => (await rpc.ideStatus()).some((l) => l.includes("Workspace 1")), 5000);
			expect(rpc.lastWidget()).toBeUndefined();
			rpc.send({ type: "prompt", message: "/ide" });
			const request = await waitFor("select request", () => rpc.uiRequests("select")[0]);
			const options = request.options as string[];
			expect(options).toHaveLength(2);
			const zedRow = options.find((option) => option.startsWith(`zed ${zedPid}  ${ws.project}`));
			expect(zedRow, options.join("\n")).toBeDefined();
			expect(options.some((option) => option.startsWith(`nvim ${nvim.pid}`))).toBe(true);
			rpc.respond(String(request.id), { value: zedRow });
			await waitFor("connected to Zed", () =>
				rpc.notices().some((n) => n.startsWith(`pi-ide: connected to zed ${zedPid}`)),
			);
			await rpc.prompt("which app?");
			expect(lastRequest()).toContain("App: zed");
		},
	);
});

describe.skipIf(!pi073.node)("Zed on pi 0.73 (Node 20: no node:sqlite)", () => {
	const ws = useE2eWorkspace();
	test("a Zed database on disk: one status line, nothing else changes", async () => {
		const dataHome = join(ws.root, "data");
		mkdirSync(join(dataHome, "zed", "db", "0-stable"), { recursive: true });
		writeFileSync(join(dataHome, "zed", "db", "0-stable", "db.sqlite"), "");
		const nvim = ws.editor();
		nvim.write(projectState(ws.project));
		const rpc = ws.stopLater(
			RpcPi.start(pi073, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: { XDG_DATA_HOME: dataHome, HOME: join(ws.root, "home") },
			}),
		);
		await rpc.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
		expect(await rpc.ideStatus()).toContain(
			`Zed: not read: reading Zed needs node:sqlite (Node >= 22.13); pi runs on Node ${process.versions.node}`,
		);
		expect(rpc.notices().filter((n) => n.startsWith("pi-ide:") && !n.startsWith("pi-ide: connected"))).toEqual([]);
	});
});
