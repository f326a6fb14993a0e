/**
 * Review of the model's edits in a real VS Code (code-server 4.139.1: VS Code 1.139.1's workbench and extension
 * host, headless chromium) with the shipped client, through the real pi 1.x in RPC mode (`"pi-ide": { "review":
 * true }`), connected to that VS Code by its state file: the diff tab beside the user's focus and pi's select at
 * once, accepted and rejected by the client's commands, an edited proposal, the tab closed undecided, pi's select
 * answering first; nothing of a review left in VS Code. Prints the time from pi's tool call to the tab on screen.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { REVIEW_SHOWN_WAIT_MS } from "../../src/shared/core/timing.ts";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText, type Reply } from "../support/fake-model-server.ts";
import { type PiLine, piLines, writeAgentDir } from "../support/pi-cli.ts";
import type { RpcMessage, RpcPi } from "../support/rpc-pi.ts";
import { vscodeHost, vscodeSuiteSkipReason } from "../support/vscode-host.ts";
import {
	closeTab,
	diffSide,
	focused,
	PROPOSAL_TAB_MARK,
	palette,
	proposalTabsSeen,
	tabLabels,
	typeInProposal,
	watchProposalTabs,
} from "../support/vscode-review-page.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";

const pi1 = piLines()[1] as PiLine;
const host = vscodeHost();
const skipReason = vscodeSuiteSkipReason("the VS Code review tests", pi1.node ? undefined : pi1.skipReason);

/** The editor as pi names it to the user and the model. */
const EDITOR = "VS Code";
/** How to answer in VS Code, as pi's select says it (src/review/hosts/target-of.ts). */
const VSCODE_HINT = '"pi: Accept Proposed Change" or "pi: Reject Proposed Change" (title bar, palette)';
const ORIGINAL = "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n";
const PROPOSED = "export const a = 1;\nexport const b = 20;\nexport const c = 3;\n";
const FILES = ["accept", "reject", "edited", "closed", "answered"].map((name) => `src/${name}.ts`);

type Call = { name: string; arguments: Record<string, unknown> };

/**
 * A model that makes `call` when the prompt since its last answer is `word`, says "done" once a tool result is
 * back, and "ok" to anything else: one pi session runs every test, its history growing.
 */
const callingModel =
	(word: string, call: Call): Reply =>
	(request) => {
		if (request.messages.at(-1)?.role === "tool") return "done";
		const answered = request.messages.findLastIndex((message) => message.role === "assistant");
		return request.messages.slice(answered + 1).some((message) => messageText(message) === word)
			? { toolCall: call }
			: "ok";
	};

describe.skipIf(skipReason !== undefined)(
	"review in a real VS Code with the shipped client, through the real pi 1.x (RPC)",
	() => {
		let ws: E2eWorkspace;
		let vscode: VscodeSession;
		let rpc: RpcPi;
		/** Per review: pi's tool call (tool_execution_start), pi's select, the tab in the page; wall-clock ms. */
		const timings: { toolCallMs: number; selectMs: number; tabMs: number }[] = [];
		/** The current test's prompt: one still running when the test ends is aborted before the next. */
		let running: { done: Promise<void>; finished: boolean } | undefined;

		beforeAll(async () => {
			ws = await E2eWorkspace.create();
			for (const file of FILES) writeFileSync(join(ws.project, file), ORIGINAL);
			writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { review: true } });
			vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>, undefined, {
				// Wide enough that VS Code shows a diff side by side (it goes inline when space is limited).
				viewport: { width: 1600, height: 1000 },
			});
			rpc = vscode.rpc;
			await vscode.open("main.ts");
			await rpc.waitForWidget("in main.ts, review on", 30_000);
			await watchProposalTabs(vscode.page);
		}, 300_000);

		afterEach(async () => {
			const unfinished = running;
			running = undefined;
			if (!unfinished || unfinished.finished) return;
			await rpc.command({ type: "abort" }).catch(() => undefined);
			await unfinished.done.catch(() => undefined);
		});

		afterAll(async () => {
			if (timings.length > 0) {
				const toTab = timings.map((t) => t.tabMs - t.toolCallMs);
				const toSelect = timings.map((t) => t.selectMs - t.toolCallMs);
				const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
				process.stderr.write(
					`VS Code review through pi 1.x: tool call -> diff tab on screen, in order: ${toTab.join(", ")} ms; p50 ${p50(toTab)} ms, max ${Math.max(...toTab)} ms; tool call -> pi's select: p50 ${p50(toSelect)} ms, max ${Math.max(...toSelect)} ms\n`,
				);
			}
			await vscode?.stop();
			await ws?.cleanup();
		});

		const path = (file: string) => join(ws.project, file);
		const reviewSelects = () =>
			rpc.uiRequests("select").filter((request) => String(request.title).startsWith("Review: "));
		const toolResult = () =>
			ws.server.requests
				.at(-1)
				?.messages.filter((message) => message.role === "tool")
				.map(messageText)
				.at(-1) ?? "";
		const noPiTab = () =>
			waitFor(
				"no pi tab left in VS Code",
				async () => !(await tabLabels(vscode.page)).some((label) => label.includes(PROPOSAL_TAB_MARK)),
				10_000,
			);

		/**
		 * The model's edit of `file` under review: the prompt sent, then pi's select and the diff tab both up;
		 * their times kept. Returns the select and the prompt's end.
		 */
		async function underReview(word: string, file: string): Promise<{ select: RpcMessage; done: Promise<void> }> {
			ws.server.reply = callingModel(word, {
				name: "edit",
				arguments: { path: file, edits: [{ oldText: "b = 2;", newText: "b = 20;" }] },
			});
			const selectsBefore = reviewSelects().length;
			const tabsBefore = (await proposalTabsSeen(vscode.page)).length;
			const messagesBefore = rpc.messages.length;
			const done = rpc.prompt(word, 60_000);
			const current = { done, finished: false };
			running = current;
			done.then(
				() => {
					current.finished = true;
				},
				() => {},
			);
			const select = await waitFor("pi's review select", () => reviewSelects()[selectsBefore], 30_000);
			const tab = await waitFor(
				"the diff tab on screen",
				async () => (await proposalTabsSeen(vscode.page))[tabsBefore],
				30_000,
			);
			const toolCall = rpc.messages
				.slice(messagesBefore)
				.find((message) => message.type === "tool_execution_start" && message.toolName === "edit");
			if (!toolCall) throw new Error("pi sent no tool_execution_start for the edit");
			timings.push({ toolCallMs: toolCall.receivedEpochMs, selectMs: select.receivedEpochMs, tabMs: tab.atEpochMs });
			expect(tab.label).toContain(`${file.slice(file.lastIndexOf("/") + 1)} (pi's proposal)`);
			await waitFor(
				"both sides of the diff rendered",
				async () => (await diffSide(vscode.page, "modified")).includes("b = 20;"),
				10_000,
			);
			return { select, done };
		}

		/** The select's title: the call, then where the diff is and how to answer there. */
		const shownTitle = (file: string) =>
			new RegExp(
				`^${literal(`Review: edit ${file} (+1 -1)\nShown in ${EDITOR}, tab "✻ [pi] ${file.slice(4)} (`)}[0-9a-f]{6}${literal(`) ⧉": ${VSCODE_HINT}; or answer here.`)}$`,
			);

		test("the diff tab opens beside the user's focus, pi's select up with it; accepted by the command", async () => {
			const file = "src/accept.ts";
			await palette(vscode.page, "View: Toggle Terminal");
			await vscode.page.waitForSelector(".terminal-wrapper textarea", { timeout: 30_000, state: "attached" });
			// The terminal takes the focus a moment after it appears: "before" is the focus it settled on.
			const before = await waitFor("the terminal focused", async () => {
				const now = await focused(vscode.page);
				return now.includes("xterm-helper-textarea") && now;
			});
			expect(before).toContain("terminal");
			const { select, done } = await underReview("accept it", file);
			expect(await tabLabels(vscode.page)).toContainEqual(expect.stringContaining("accept.ts (pi's proposal)"));
			expect(await diffSide(vscode.page, "original")).toBe(ORIGINAL);
			expect(await diffSide(vscode.page, "modified")).toBe(PROPOSED);
			// Settled where it was: VS Code's workbench may blink its focus while it lays the diff out.
			await waitFor("the focus where it was", async () => (await focused(vscode.page)) === before, 3000);
			// pi's select waits REVIEW_SHOWN_WAIT_MS for VS Code to say the diff is shown; a VS Code slower than that
			// (a loaded machine) gets the select saying it is opening, and only after that wait.
			const title = String(select.title);
			if (title.endsWith(`Opening the diff in ${EDITOR}...`)) {
				const toolCall = timings.at(-1);
				expect(toolCall && select.receivedEpochMs - toolCall.toolCallMs).toBeGreaterThanOrEqual(REVIEW_SHOWN_WAIT_MS);
			} else expect(title).toMatch(shownTitle(file));
			expect(select.options).toEqual(["Accept", "Accept all in this session", "Reject", "Reject and say why"]);
			expect(readFileSync(path(file), "utf8")).toBe(ORIGINAL);

			await palette(vscode.page, "pi: Accept Proposed Change");
			// The turn ends with pi's select never answered: withdrawn once VS Code decided.
			await done;
			expect(readFileSync(path(file), "utf8")).toBe(PROPOSED);
			expect(toolResult()).not.toContain("The user changed");
			expect(reviewSelects().at(-1)?.id).toBe(select.id);
			await noPiTab();
		}, 120_000);

		test("rejected by the command: the file untouched, the model told where", async () => {
			const file = "src/reject.ts";
			const { done } = await underReview("reject it", file);
			await palette(vscode.page, "pi: Reject Proposed Change");
			await done;
			expect(readFileSync(path(file), "utf8")).toBe(ORIGINAL);
			expect(toolResult()).toContain(
				`The user rejected this edit of ${file} in ${EDITOR}; the file was not changed. Do not make the same change again`,
			);
			await noPiTab();
		}, 120_000);

		test("an edited proposal accepted: the file gets the user's version, the model the diff of it", async () => {
			const file = "src/edited.ts";
			const { done } = await underReview("edit it", file);
			await typeInProposal(vscode.page, "// by the user\n");
			await waitFor(
				"the user's line in the proposal",
				async () => (await diffSide(vscode.page, "modified")).includes("// by the user"),
				10_000,
			);
			await palette(vscode.page, "pi: Accept Proposed Change");
			await done;
			expect(readFileSync(path(file), "utf8")).toBe(`${PROPOSED}// by the user\n`);
			const result = toolResult();
			expect(result).toContain(`The user changed your proposed edit before accepting it: ${file} now holds`);
			expect(result).toContain(`--- ${file} (your proposal)\n+++ ${file} (as the user accepted it)\n`);
			expect(result).toContain(" export const c = 3;\n+// by the user\n");
			await noPiTab();
		}, 120_000);

		test("the tab closed decides nothing: pi's select asks again, saying so, and decides", async () => {
			const file = "src/closed.ts";
			const { select, done } = await underReview("close it", file);
			const selects = reviewSelects().length;
			await closeTab(vscode.page, "closed.ts (pi's proposal)");
			await noPiTab();
			expect(await tabLabels(vscode.page)).toContain("main.ts");
			const again = await waitFor("pi's select asked again", () => reviewSelects()[selects], 10_000);
			expect(again.id).not.toBe(select.id);
			expect(String(again.title)).toBe(
				`Review: edit ${file} (+1 -1)\nThe diff in ${EDITOR} was closed without a decision: decide here.`,
			);
			expect(readFileSync(path(file), "utf8")).toBe(ORIGINAL);
			rpc.respond(String(again.id), { value: "Accept" });
			await done;
			expect(readFileSync(path(file), "utf8")).toBe(PROPOSED);
			await noPiTab();
		}, 120_000);

		test("pi's select answers first: the diff tab closes in VS Code", async () => {
			const file = "src/answered.ts";
			const { select, done } = await underReview("answer it", file);
			rpc.respond(String(select.id), { value: "Reject" });
			await done;
			expect(readFileSync(path(file), "utf8")).toBe(ORIGINAL);
			expect(toolResult()).toContain(`The user rejected this edit of ${file} in pi; the file was not changed.`);
			await noPiTab();
		}, 120_000);
	},
);

/** `text` matched literally in a RegExp. */
function literal(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
