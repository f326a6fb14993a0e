/**
 * Inline completions in a real VS Code (code-server 4.139.1: VS Code 1.139.1's workbench and extension host,
 * headless chromium) with the shipped client, through the real pi 1.x in RPC mode (`"pi-ide": { "suggestions":
 * true }`) and the offline fake model: pi offers itself on the client's channel; VS Code's own trigger shows the
 * model's suggestion as ghost text and Tab commits it; typing on aborts the model's request; a `.env` never asks
 * pi; `/ide suggestions off` withdraws the offer; pi gone: nothing is asked and VS Code carries on.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { type PiLine, piLines, writeAgentDir } from "../support/pi-cli.ts";
import type { RpcPi } from "../support/rpc-pi.ts";
import { isSuggestionRequest, suggestionRequests } from "../support/suggestion-e2e.ts";
import { vscodeHost, vscodeSuiteSkipReason } from "../support/vscode-host.ts";
import { palette } from "../support/vscode-review-page.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";

const pi1 = piLines()[1] as PiLine;
const host = vscodeHost();
const skipReason = vscodeSuiteSkipReason("the VS Code suggestions tests", pi1.node ? undefined : pi1.skipReason);

const BODY = "export function answer() {\n\treturn \n}\n";
const SUGGESTED = "42; // from pi";
/** What the model answers: three candidates; pi passes on as many as the client asked for. */
const CANDIDATES = [SUGGESTED, "43; // second", "44; // third"];
const FILES = ["commit", "cycle", "cancel", "off", "gone"].map((name) => `src/${name}.ts`);

/** The ghost text VS Code shows now (the inline part and any lines below it). */
const ghostText = (vscode: VscodeSession) =>
	vscode.page.evaluate<string>(
		`[...document.querySelectorAll(".monaco-editor .ghost-text-decoration, .monaco-editor .ghost-text")].map((part) => part.textContent.replace(/\\u00a0/g, " ")).join("")`,
	);

describe.skipIf(skipReason !== undefined)(
	"inline completions in a real VS Code with the shipped client, through the real pi 1.x (RPC)",
	() => {
		let ws: E2eWorkspace;
		let vscode: VscodeSession;
		let rpc: RpcPi;

		beforeAll(async () => {
			ws = await E2eWorkspace.create();
			for (const file of FILES) writeFileSync(join(ws.project, file), BODY);
			writeFileSync(join(ws.project, ".env"), "TOKEN=\n");
			writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { suggestions: true } });
			ws.server.reply = (request) =>
				isSuggestionRequest(request) ? CANDIDATES.map((text) => `<SUGGESTION>${text}</SUGGESTION>`).join("\n") : "ok";
			vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>);
			rpc = vscode.rpc;
			await vscode.open("commit.ts");
			await rpc.waitForWidget((line) => line?.includes("in commit.ts") === true, 30_000);
			await offered(true);
		}, 300_000);

		afterAll(async () => {
			await vscode?.stop();
			await ws?.cleanup();
		});

		/** `/ide status` says the client's link is offered (or, `false`, that pi keeps none). */
		async function offered(on: boolean): Promise<void> {
			await waitFor(
				on ? "the link offered in /ide status" : "no link in /ide status",
				async () => (await rpc.ideStatus()).some((line) => line.includes("inline completions: offered")) === on,
				30_000,
			);
		}

		/** The requests `/ide status` counts for this pi process. */
		async function requestsCounted(): Promise<number> {
			const line = (await rpc.ideStatus()).find((text) => text.trim().startsWith("requests:")) ?? "";
			return line.includes("none yet") ? 0 : Number(/requests: (\d+)/.exec(line)?.[1] ?? Number.NaN);
		}

		/** The cursor after `return ` in the open file. */
		async function atReturn(): Promise<void> {
			await vscode.goToLine(2);
			await vscode.page.keyboard.press("End");
		}

		test("VS Code's trigger shows pi's suggestion; Tab commits it into the document", async () => {
			await atReturn();
			const asked = suggestionRequests(ws).length;
			await palette(vscode.page, "Trigger Inline Suggestion");
			await waitFor("the ghost text", async () => (await ghostText(vscode)).includes(SUGGESTED), 20_000);
			expect(suggestionRequests(ws).length).toBe(asked + 1);
			// What the model was given: the file's text each side of the cursor, redacted, never more.
			const prompt = JSON.stringify(suggestionRequests(ws).at(-1)?.messages);
			expect(prompt).toContain("export function answer() {");
			await vscode.page.keyboard.press("Tab");
			await vscode.page.keyboard.press("Control+S");
			await waitFor(
				"the committed suggestion saved",
				() =>
					readFileSync(join(ws.project, "src/commit.ts"), "utf8") ===
					`export function answer() {\n\treturn ${SUGGESTED}\n}\n`,
				10_000,
			);
		}, 120_000);

		/** The `<count>` pi asked the model for in its latest suggestion request. */
		const countAsked = () => /<count>(\d+)<\/count>/.exec(JSON.stringify(suggestionRequests(ws).at(-1)?.messages))?.[1];

		test("asked by hand: three to cycle with Alt+] and Alt+[; typing asks for one", async () => {
			await vscode.open("cycle.ts");
			await atReturn();
			await palette(vscode.page, "Trigger Inline Suggestion");
			await waitFor("the first candidate", async () => (await ghostText(vscode)) === CANDIDATES[0], 20_000);
			expect(countAsked()).toBe("3");
			await vscode.page.keyboard.press("Alt+]");
			await waitFor("the second candidate", async () => (await ghostText(vscode)) === CANDIDATES[1], 10_000);
			await vscode.page.keyboard.press("Alt+[");
			await waitFor("the first again", async () => (await ghostText(vscode)) === CANDIDATES[0], 10_000);
			await vscode.page.keyboard.press("Escape");
			const asked = suggestionRequests(ws).length;
			await vscode.page.keyboard.type("4");
			await waitFor("the automatic request", () => suggestionRequests(ws).length > asked, 15_000);
			expect(countAsked()).toBe("1");
			await vscode.page.keyboard.press("Escape");
		}, 120_000);

		test("typing on cancels: the model's request is aborted", async () => {
			await vscode.open("cancel.ts");
			await atReturn();
			ws.server.delayMs = 20_000;
			try {
				const asked = suggestionRequests(ws).length;
				const aborted = ws.server.aborts.length;
				await vscode.page.keyboard.type("4");
				await waitFor("the model asked after the pause", () => suggestionRequests(ws).length > asked, 15_000);
				await vscode.page.keyboard.type("2");
				await waitFor("the model's request aborted", () => ws.server.aborts.length > aborted, 10_000);
			} finally {
				ws.server.delayMs = 0;
			}
			await vscode.page.keyboard.press("Escape");
		}, 120_000);

		test("a .env document never asks pi (the client's own check): the next file's trigger is the only request", async () => {
			await vscode.open(".env");
			await vscode.page.keyboard.press("Control+End");
			const before = await requestsCounted();
			await palette(vscode.page, "Trigger Inline Suggestion");
			await vscode.page.keyboard.type("x");
			await vscode.open("commit.ts");
			await vscode.page.keyboard.press("Control+End");
			await vscode.page.keyboard.type("\n// ");
			await waitFor("the next file asked", async () => (await requestsCounted()) > before, 15_000);
			expect(await requestsCounted()).toBe(before + 1);
			expect(JSON.stringify(suggestionRequests(ws).at(-1)?.messages)).not.toContain("TOKEN=");
		}, 120_000);

		test("/ide suggestions off: the offer withdrawn and nothing asked; on again: asked again", async () => {
			await rpc.command({ type: "prompt", message: "/ide suggestions off" });
			await offered(false);
			await vscode.open("off.ts");
			await atReturn();
			const before = await requestsCounted();
			await palette(vscode.page, "Trigger Inline Suggestion");
			await vscode.page.keyboard.type("4");
			await rpc.command({ type: "prompt", message: "/ide suggestions on" });
			await offered(true);
			expect(await requestsCounted()).toBe(before);
			expect(await ghostText(vscode)).toBe("");
			await palette(vscode.page, "pi: Suggest Here");
			await waitFor("the ghost text again", async () => (await ghostText(vscode)).includes(SUGGESTED), 20_000);
			expect(await requestsCounted()).toBe(before + 1);
			await vscode.page.keyboard.press("Escape");
		}, 120_000);

		test("pi gone: the provider and its command go, VS Code types on", async () => {
			await vscode.open("gone.ts");
			await atReturn();
			const asked = suggestionRequests(ws).length;
			await rpc.stop();
			await palette(vscode.page, "Trigger Inline Suggestion");
			await vscode.page.keyboard.type("7;");
			await vscode.page.keyboard.press("Control+S");
			await waitFor(
				"VS Code typed and saved",
				() => readFileSync(join(ws.project, "src/gone.ts"), "utf8").includes("return 7;"),
				10_000,
			);
			expect(await ghostText(vscode)).toBe("");
			expect(suggestionRequests(ws).length).toBe(asked);
			// The command shows only while a pi offers itself: the palette has no such row now.
			await vscode.page.keyboard.press("F1");
			await vscode.page.keyboard.type("pi: Suggest Here");
			await vscode.page.waitForTimeout(800);
			const rows = await vscode.page.evaluate<string[]>(
				`[...document.querySelectorAll(".quick-input-list .monaco-list-row")].map((row) => row.getAttribute("aria-label") ?? "")`,
			);
			expect(rows.filter((row) => row.includes("pi: Suggest Here"))).toEqual([]);
			await vscode.page.keyboard.press("Escape");
		}, 120_000);
	},
);
