/**
 * pi's questions in a real VS Code (code-server 4.139.1, headless chromium) with the shipped client 0.7.0, through
 * the real pi 1.x in RPC mode with its defaults (asks on, questions mirrored), a test extension whose tool asks
 * `ctx.ui.confirm("Allow <name>?", …)` and a model that calls it. A turn started with "pi: Ask…": the quick pick
 * shows pi's question and `1 Yes` / `2 No` while pi's own dialog (RPC's `extension_ui_request`) is open; choosing
 * in VS Code decides (allowed, denied reach the model); Esc closes only VS Code's copy and pi's dialog, still
 * open, decides; answered in pi first, the quick pick goes.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEAF_MS } from "../../clients/vscode/src/core/questions.ts";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { QUESTION_EXTENSION, questionModel } from "../support/question-e2e.ts";
import type { RpcMessage, RpcPi } from "../support/rpc-pi.ts";
import { vscodeHost, vscodeSuiteSkipReason } from "../support/vscode-host.ts";
import { quickPickShown, waitForNoQuickPick, waitForQuickPick } from "../support/vscode-question-page.ts";
import { palette } from "../support/vscode-review-page.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";

const pi1 = piLines()[1] as PiLine;
const host = vscodeHost();
const skipReason = vscodeSuiteSkipReason("the VS Code question tests", pi1.node ? undefined : pi1.skipReason);

/** An Enter within DEAF_MS of a quick pick's showing is not taken (the user typing in the editor): waited out. */
const pastDeafTime = () => new Promise((resolve) => setTimeout(resolve, DEAF_MS + 100));

describe.skipIf(skipReason !== undefined)(
	"pi's questions in a real VS Code with the shipped client, through the real pi 1.x (RPC)",
	() => {
		let ws: E2eWorkspace;
		let vscode: VscodeSession;
		let rpc: RpcPi;
		const drawnMs: number[] = [];

		beforeAll(async () => {
			ws = await E2eWorkspace.create();
			writeFileSync(join(ws.project, "src", "ship.ts"), "export const ship = true;\n");
			ws.server.reply = questionModel();
			vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>, undefined, {
				extraExtensions: [QUESTION_EXTENSION],
			});
			rpc = vscode.rpc;
			await vscode.open("ship.ts");
			await waitFor(
				"asks offered in /ide status",
				async () => (await rpc.ideStatus()).some((line) => line.includes("asks: offered")),
				30_000,
			);
		}, 300_000);

		afterAll(async () => {
			if (drawnMs.length > 0)
				process.stderr.write(
					`VS Code: pi's confirm asked → the quick pick on screen: ${drawnMs.map((ms) => Math.round(ms)).join(", ")} ms\n`,
				);
			await vscode?.stop();
			await ws?.cleanup();
		});

		/** The tool results the model was sent: what each question decided. */
		const toolResults = () =>
			ws.server.requests.flatMap((request) =>
				request.messages.filter((message) => message.role === "tool").map((message) => messageText(message)),
			);
		const decided = (what: string) => waitFor(`the model told "${what}"`, () => toolResults().includes(what), 15_000);
		const statusShows = (text: string) =>
			waitFor(`"${text}" in the status bar`, async () => (await vscode.statusBar()).includes(text), 15_000);

		/** "pi: Ask…" with `prompt`: pi's confirm for `name` open in pi (RPC), and its quick pick in VS Code. */
		async function asked(prompt: string, name: string): Promise<RpcMessage> {
			const before = rpc.uiRequests("confirm").length;
			await palette(vscode.page, "pi: Ask…");
			await vscode.answerInput("Ask pi", prompt);
			const dialog = await waitFor(`pi's confirm for ${name}`, () => rpc.uiRequests("confirm")[before], 30_000);
			const shown = await waitForQuickPick(vscode.page, `: Allow ${name}?`);
			drawnMs.push(Date.now() - dialog.receivedEpochMs);
			expect(shown).toEqual({
				title: expect.stringMatching(new RegExp(`^pi \\d+: Allow ${name}\\?$`)),
				placeholder: `The test tool would run ${name}.`,
				rows: ["1 Yes", "2 No"],
			});
			await pastDeafTime();
			return dialog;
		}

		test("guard deploy: the quick pick shows pi's question, 1 Yes / 2 No; 1 allows, and pi counts it answered there", async () => {
			await asked("guard deploy", "deploy");
			await vscode.page.keyboard.type("1");
			await vscode.page.keyboard.press("Enter");
			await decided("allowed deploy");
			await waitForNoQuickPick(vscode.page, "Allow deploy?");
			await statusShows("pi: done");
			expect((await rpc.ideStatus()).join("\n")).toContain(
				"pi's questions in the editor: on, for runs an editor asked (1 mirrored, 1 answered there)",
			);
		}, 180_000);

		test("2 denies", async () => {
			await asked("guard build", "build");
			await vscode.page.keyboard.type("2");
			await vscode.page.keyboard.press("Enter");
			await decided("denied build");
			await waitForNoQuickPick(vscode.page, "Allow build?");
			await statusShows("pi: done");
		}, 180_000);

		test("Esc closes only VS Code's copy: pi's dialog stays open and decides", async () => {
			const dialog = await asked("guard ship", "ship");
			await vscode.page.keyboard.press("Escape");
			await waitForNoQuickPick(vscode.page, "Allow ship?");
			// pi took the dismissal: its dialog is still open, held by no editor now.
			await waitFor(
				"pi's dialog open and no editor holding it",
				async () => (await rpc.ideStatus()).some((line) => line.includes("1 open in all, one at a time")),
				15_000,
			);
			expect(toolResults()).not.toContain("allowed ship");
			expect(toolResults()).not.toContain("denied ship");
			rpc.respond(dialog.id as string, { confirmed: true });
			await decided("allowed ship");
			expect(await quickPickShown(vscode.page)).toBeUndefined();
			await statusShows("pi: done");
		}, 180_000);

		test("answered in pi first: the quick pick goes", async () => {
			const dialog = await asked("guard test", "test");
			rpc.respond(dialog.id as string, { confirmed: false });
			await waitForNoQuickPick(vscode.page, "Allow test?", 5000);
			await decided("denied test");
			await statusShows("pi: done");
		}, 180_000);
	},
);
