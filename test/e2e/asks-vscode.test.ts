/**
 * Asks from a real VS Code (code-server 4.139.1: VS Code 1.139.1's workbench and extension host, headless
 * chromium) with the shipped client 0.6.0, through the real pi 1.x in RPC mode with its defaults (asks on) and the
 * offline fake model: pi keeps its link to the window and offers asks on it; "pi: Ask…" with lines selected sends
 * the prompt and those lines, which reach the model under their absolute path; the status bar shows
 * `pi: working (<model>)` and then `pi: done`; "pi: Show Reply" opens the reply, read-only Markdown; a `.env`
 * document's selection is withheld (pi's rule) and never reaches the model; once pi is gone the commands leave
 * the palette.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { type ChatRequest, messageText } from "../support/fake-model-server.ts";
import { FAKE_MODEL, FAKE_PROVIDER, type PiLine, piLines, writeAgentDir } from "../support/pi-cli.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { vscodeHost, vscodeSuiteSkipReason } from "../support/vscode-host.ts";
import { palette } from "../support/vscode-review-page.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";

const pi1 = piLines()[1] as PiLine;
const host = vscodeHost();
const skipReason = vscodeSuiteSkipReason("the VS Code asks tests", pi1.node ? undefined : pi1.skipReason);

const FILE_TEXT = "const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\nconst e = 5;\n";
const SECRET = "abc123notforthemodel";
const REPLY = "The three lines declare **b**, **c** and **d**.";

/** The user messages of a request, joined: what the model read of the user. */
const userText = (request: ChatRequest | undefined) =>
	(request?.messages ?? [])
		.filter((message) => message.role === "user")
		.map(messageText)
		.join("\n---\n");

describe.skipIf(skipReason !== undefined)(
	"asks from a real VS Code with the shipped client, through the real pi 1.x (RPC)",
	() => {
		let ws: E2eWorkspace;
		let vscode: VscodeSession;
		let rpc: RpcPi;
		const file = () => join(ws.project, "src", "explain.ts");

		beforeAll(async () => {
			ws = await E2eWorkspace.create();
			writeFileSync(file(), FILE_TEXT);
			writeFileSync(join(ws.project, ".env"), `TOKEN=${SECRET}\n`);
			writeAgentDir(ws.agentDir, ws.server.baseUrl);
			ws.server.reply = () => REPLY;
			vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>);
			rpc = vscode.rpc;
			await vscode.open("explain.ts");
			await rpc.waitForWidget((line) => line?.includes("in explain.ts") === true, 30_000);
			await waitFor(
				"asks offered in /ide status",
				async () => (await rpc.ideStatus()).some((line) => line.includes("asks: offered")),
				30_000,
			);
		}, 300_000);

		afterAll(async () => {
			await vscode?.stop();
			await ws?.cleanup();
		});

		/** The status bar until it shows `text`. */
		const statusShows = (text: string, timeoutMs = 15_000) =>
			waitFor(`"${text}" in the status bar`, async () => (await vscode.statusBar()).includes(text), timeoutMs);

		test("pi: Ask… with three lines selected: the model gets the prompt and the lines under their path; working, then done", async () => {
			await vscode.open("explain.ts");
			await vscode.selectLines(2, 4);
			const before = ws.server.requests.length;
			// The model holds its answer a moment: "working" stays on screen long enough to be seen.
			ws.server.delayMs = 2000;
			try {
				await palette(vscode.page, "pi: Ask…");
				await vscode.answerInput("Ask pi", "explain @this");
				await statusShows(`pi: working (${FAKE_PROVIDER}/${FAKE_MODEL})`);
				await waitFor("the ask reached the model", () => ws.server.requests.length > before, 10_000);
			} finally {
				ws.server.delayMs = 0;
			}
			const sent = userText(ws.server.requests.at(-1));
			expect(sent).toContain(`explain @${file()}#L2-4`);
			expect(sent).toContain("const b = 2;\nconst c = 3;\nconst d = 4;");
			expect(sent).not.toContain("const e = 5;");
			await statusShows("pi: done");
		}, 120_000);

		test("pi: Show Reply opens the reply beside the code", async () => {
			await palette(vscode.page, "pi: Show Reply");
			await waitFor(
				"the reply on screen",
				// Markdown wraps its lines on screen: compared with the wraps undone.
				async () => (await vscode.editorTexts()).some((text) => text.replace(/\s+/g, " ").includes(REPLY)),
				15_000,
			);
			const title = await vscode.page.evaluate<string>(
				`[...document.querySelectorAll(".tabs-container .tab")].map((tab) => tab.getAttribute("aria-label") ?? "").join(" | ")`,
			);
			expect(title).toMatch(/Reply of pi \d+\.md/);
		}, 120_000);

		test("a .env document's selection is withheld: the model never sees it", async () => {
			await vscode.open(".env");
			await vscode.page.keyboard.press("Control+A");
			const before = ws.server.requests.length;
			await palette(vscode.page, "pi: Ask…");
			await vscode.answerInput("Ask pi", "what is @this");
			await waitFor("the ask reached the model", () => ws.server.requests.length > before, 15_000);
			const sent = JSON.stringify(ws.server.requests.slice(before));
			expect(userText(ws.server.requests.at(-1))).toContain(`what is @${join(ws.project, ".env")}#L1`);
			expect(sent).toContain("withheld");
			expect(sent).not.toContain(SECRET);
			await statusShows("pi: done");
		}, 120_000);

		test('the output channel "pi" logs what pi told this window', async () => {
			await palette(vscode.page, "Output: Show Output Channels");
			await vscode.page.waitForSelector('.quick-input-list .monaco-list-row[aria-label="pi"]', {
				timeout: 10_000,
				state: "visible",
			});
			await vscode.page.keyboard.type("pi");
			await vscode.page.waitForSelector('.quick-input-list .monaco-list-row.focused[aria-label="pi"]', {
				timeout: 10_000,
				state: "visible",
			});
			await vscode.page.keyboard.press("Enter");
			const logged = () =>
				vscode.page.evaluate<string>(
					`[...document.querySelectorAll(".part.panel .monaco-editor .view-lines .view-line")].map((line) => line.textContent).join("\\n")`,
				);
			await waitFor(
				"pi's news in the log",
				// Monaco draws spaces as no-break spaces.
				async () => /pi \d+: pi: working.*pi \d+: pi: done/.test((await logged()).replace(/\s+/g, " ")),
				15_000,
			);
		}, 120_000);

		test("pi gone: the asks leave the palette (its context key), VS Code carries on", async () => {
			const asks = (rows: string[]) => rows.filter((row) => /pi: (Ask|Add Selection|Stop|Show Reply)/.test(row));
			expect(asks(await vscode.paletteRows("pi: ")).length).toBe(5);
			await rpc.stop();
			await waitFor("no asks in the palette", async () => asks(await vscode.paletteRows("pi: ")).length === 0, 15_000);
		}, 120_000);
	},
);
