/**
 * Anthropic's own VS Code extension (1.0.100, the IDE server ide-server-protocol.md §8 measured) in a real VS Code
 * (code-server 4.139.1, Debian's chromium), read by the real pi 1.x as an IDE server: nothing of pi's installed in
 * VS Code. Its lockfile goes to VS Code's `$HOME/.claude/ide`, the test's root, where pi looks.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { anthropicExtension } from "../support/anthropic-vscode.ts";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { writerModel } from "../support/fake-model-server.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { vscodeHost, vscodeSuiteSkipReason } from "../support/vscode-host.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";

const pi1 = piLines()[1] as PiLine;
const host = vscodeHost();
const extension = anthropicExtension();
const skipReason = vscodeSuiteSkipReason(
	"the IDE server tests in VS Code",
	extension.skipReason,
	pi1.node ? undefined : pi1.skipReason,
);

describe.skipIf(skipReason !== undefined)(
	"Anthropic's VS Code extension in a real VS Code, read by the real pi 1.x as an IDE server",
	() => {
		let ws: E2eWorkspace;
		let vscode: VscodeSession;
		let rpc: RpcPi;
		let home: string;
		const lastContext = () => ws.lastContext();

		beforeAll(async () => {
			ws = await E2eWorkspace.create();
			home = join(ws.root, "home");
			mkdirSync(home, { recursive: true });
			writeFileSync(join(ws.project, "src", "typed.ts"), 'export const n: number = "not a number";\n');
			writeFileSync(join(ws.project, "src", "other.ts"), "export const other = 1;\n");
			vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>, {
				vsix: extension.vsix as string,
				home,
			});
			rpc = vscode.rpc;
		}, 300_000);

		afterAll(async () => {
			await vscode?.stop();
			await ws?.cleanup();
		});

		test("listed in /ide as an IDE server, not connected until picked; picked: the handshake and its tools", async () => {
			const lock = vscode.lockfile(home);
			expect(lock).toMatchObject({ ideName: "code-server", transport: "ws", runningInWindows: false });
			// Found by the watch of a dir VS Code made: proven (the port's owner) a moment after it was written.
			const before = await waitFor("the lockfile proven", async () => {
				const lines = (await rpc.ideStatus()).join("\n");
				return lines.includes("IDE servers: 1 of 1 lockfiles usable") ? lines : undefined;
			});
			expect(before).toMatch(/pid \d+ holds port \d+/);
			expect(before).toContain("not connected; unsaved guard: unknown until connected");
			rpc.send({ type: "prompt", message: "/ide" });
			const request = await waitFor("the /ide picker", () => rpc.uiRequests("select")[0]);
			const options = request.options as string[];
			const row = options.find((option) => option.includes("IDE server: connects when picked"));
			// Named as the editor names itself (`ideName`), its app from the table.
			expect(row).toMatch(/^code-server \d+ {2}/);
			rpc.respond(String(request.id), { value: row });
			const status = await waitFor(
				"connected",
				async () => {
					const lines = (await rpc.ideStatus()).join("\n");
					return lines.includes("connected; unsaved guard: available") ? lines : undefined;
				},
				20_000,
			);
			expect(status).toContain("server: Claude Code code-server MCP");
			const tools = /tools: (.*)/.exec(status)?.[1]?.split(", ") ?? [];
			expect(tools).toHaveLength(12);
			expect(tools).toEqual(expect.arrayContaining(["getCurrentSelection", "getOpenEditors", "checkDocumentDirty"]));
			// The token goes to the server only: never into /ide status.
			expect(status).not.toContain(lock?.authToken as string);
		}, 120_000);

		test("a file opened (the extension pushes nothing) is asked before the prompt; a selection made now is fresh", async () => {
			await vscode.open("main.ts");
			// Each prompt asks the extension (it pushes no file switch) for at most PROMPT_FLUSH_TIMEOUT_MS: on a
			// loaded machine its extension host may answer a first ask late, and then pi sends nothing stale.
			const file = `File: ${join(ws.project, "src", "main.ts")}`;
			await waitFor(
				"the open file asked before a prompt",
				async () => {
					await rpc.prompt("which file?");
					return lastContext().includes(file) || undefined;
				},
				30_000,
			);
			await vscode.goToLine(2);
			await vscode.page.keyboard.press("Shift+ArrowDown");
			await vscode.page.keyboard.press("Shift+ArrowDown");
			await rpc.waitForWidget("2 lines selected in main.ts", 15_000);
			await rpc.prompt("what is selected?");
			expect(lastContext()).toContain("Selection: lines 2-3 (from line 2 column 1 to line 3 column 5)");
			expect(lastContext()).toContain("line2\nline3");
		}, 120_000);

		test("a TypeScript type error reaches the model as the Diagnostics section", async () => {
			await vscode.open("typed.ts");
			await vscode.page.keyboard.press("ArrowDown");
			await rpc.waitForWidget("in typed.ts", 15_000);
			const diagnostics = await waitFor(
				"the type error asked of the server",
				async () => {
					await rpc.prompt("anything wrong here?");
					return lastContext().includes("Diagnostics: 1 error") ? lastContext() : undefined;
				},
				60_000,
			);
			expect(diagnostics).toContain(
				"Diagnostics: 1 error, 0 warnings\n- line 1: error: Type 'string' is not assignable to type 'number'. [ts]",
			);
		}, 120_000);

		test("an unsaved edit: the model's write of that file is blocked (checkDocumentDirty / getOpenEditors)", async () => {
			await vscode.open("other.ts");
			await vscode.page.keyboard.press("Control+End");
			await vscode.page.keyboard.type("// typed, not saved\n");
			const before = readFileSync(join(ws.project, "src", "other.ts"), "utf8");
			ws.server.reply = writerModel("src/other.ts");
			await rpc.prompt("write src/other.ts");
			expect(readFileSync(join(ws.project, "src", "other.ts"), "utf8")).toBe(before);
			expect(rpc.notices().at(-1)).toContain("blocked the model's write of");
			ws.server.reply = () => "ok";
		}, 120_000);

		test("another client takes the server: pi disconnects, says why, and does not take it back", async () => {
			const lock = vscode.lockfile(home) as { port: number; authToken?: string };
			const other = new WebSocket(`ws://127.0.0.1:${lock.port}`, ["mcp"], {
				headers: { "x-claude-code-ide-authorization": lock.authToken as string },
			});
			await new Promise((done, fail) => {
				other.once("open", done);
				other.once("error", fail);
			});
			await waitFor("pi told of the eviction", () =>
				rpc.notices().find((notice) => notice.includes("the editor closed pi's connection")),
			);
			await new Promise((done) => setTimeout(done, 3000));
			// Still the other client's: pi did not connect again (the extension would have closed `other`).
			expect(other.readyState).toBe(WebSocket.OPEN);
			expect((await rpc.ideStatus()).join("\n")).toContain(
				"not connected: the editor closed pi's connection; another client may have taken it; /ide reconnects",
			);
			other.close();
		}, 60_000);
	},
);

describe.skipIf(skipReason !== undefined)(
	"Anthropic's extension beside the package's client in one VS Code: one editor, read from the client's file",
	() => {
		let ws: E2eWorkspace;
		let vscode: VscodeSession;
		let home: string;

		beforeAll(async () => {
			ws = await E2eWorkspace.create();
			home = join(ws.root, "home");
			mkdirSync(home, { recursive: true });
			vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>, {
				vsix: extension.vsix as string,
				home,
				withClient: true,
			});
		}, 300_000);

		afterAll(async () => {
			await vscode?.stop();
			await ws?.cleanup();
		});

		test("the extension host holds both: its IDE server is the same editor as its state file, never connected to", async () => {
			const rpc = vscode.rpc;
			await vscode.open("main.ts");
			await rpc.waitForWidget("in main.ts", 30_000);
			const written = vscode.written();
			const status = await waitFor("the lockfile read", async () => {
				const lines = (await rpc.ideStatus()).join("\n");
				return lines.includes("the same editor as its state file") ? lines : undefined;
			});
			expect(status).toContain(`Connected: vscode ${written?.pid}: auto-connected`);
			expect(status).toContain("IDE servers: 0 of 1 lockfiles usable");
			rpc.send({ type: "prompt", message: "/ide all" });
			const request = await waitFor("the /ide all picker", () => rpc.uiRequests("select").at(-1));
			const rows = (request.options as string[]).filter((option) => !option.startsWith("Disconnect"));
			expect(rows).toHaveLength(1);
			expect(rows[0]).not.toContain("IDE server");
			rpc.respond(String(request.id), { cancelled: true });
		}, 120_000);
	},
);
