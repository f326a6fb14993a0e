/**
 * Zed through the real pi: its own state database, written as Zed writes it (one open connection, WAL, no
 * autocheckpoint), and a `zed-editor` process for "Zed is running". pi 1.x runs on a Node with node:sqlite;
 * pi 0.73 (Node 20) has none and says so in one status line.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { FakeZed } from "../support/fake-zed.ts";
import { projectState } from "../support/fixtures.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { waitFor } from "../support/wait-for.ts";

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
				env: { XDG_DATA_HOME: zed.dataHome, HOME: join(ws.root, "home"), ...env },
			}),
		);
	}

	async function status(rpc: RpcPi): Promise<string[]> {
		const before = rpc.notices().length;
		await rpc.command({ type: "prompt", message: "/ide status" });
		const text = await waitFor("status", () =>
			rpc
				.notices()
				.slice(before)
				.find((n) => n.startsWith("pi-ide status")),
		);
		return text.split("\n");
	}

	const lastRequest = () => ws.server.requests.at(-1)?.messages.map(messageText).join("\n") ?? "";

	test.skipIf(!pi1.node)(
		"connects to the running Zed's workspace: multibyte selection as lines and byte columns, a new selection, Zed quitting",
		async () => {
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
			const rpc = startPi(zed);
			await waitFor("connected to Zed", () => rpc.lastWidget() === "1 line selected in greet.ts", 15_000);

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
			await waitFor("the new selection", () => rpc.lastWidget() === "2 lines selected in greet.ts", 3000);
			await rpc.prompt("and now?");
			expect(lastRequest()).toContain("Selection: lines 2-3 (from line 2 column 17 to line 3 column 6)");
			expect(lastRequest()).toContain("Cursor: line 3, column 7");

			const lines = await status(rpc);
			expect(lines).toContain(`Zed: database ${zed.dbPath} (stable); Zed is running (pid ${zedPid})`);
			expect(lines).toContain("  Schema steps: WorkspaceDb 30, EditorDb 7");
			expect(lines).toContain("  Session: session-1");
			expect(lines).toContain(
				`  Workspace 4294967444 (${ws.project}): tier 0 (a workspace root is the project), greet.ts`,
			);

			zed.quit();
			const quitAt = Date.now();
			await waitFor("widget cleared", () => rpc.lastWidget() === "(cleared)", 5000);
			expect(Date.now() - quitAt).toBeLessThan(2000);
			await rpc.prompt("still there?");
			expect(lastRequest()).toContain("The editor is disconnected: the previous editor context no longer applies.");
			const after = await status(rpc);
			expect(after).toContain(`Zed: database ${zed.dbPath} (stable); Zed is not running`);
			expect(after.some((line) => /disconnected from zed \d+: the app quit \(or crashed\)/.test(line))).toBe(true);
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
		await waitFor("connected to nvim", () => rpc.lastWidget() === "in main.ts", 15_000);
		const before = rpc.notices().length;
		await rpc.command({ type: "prompt", message: "/ide status" });
		const text = await waitFor("status", () =>
			rpc
				.notices()
				.slice(before)
				.find((n) => n.startsWith("pi-ide status")),
		);
		expect(text.split("\n")).toContain(
			`Zed: not read: reading Zed needs node:sqlite (Node >= 22.13); pi runs on Node ${process.versions.node}`,
		);
		expect(rpc.notices().filter((n) => n.startsWith("pi-ide:") && !n.startsWith("pi-ide: connected"))).toEqual([]);
	});
});
