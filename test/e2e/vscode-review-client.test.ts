/**
 * The shipped VS Code client's review channel in a real VS Code (code-server 4.139.1: VS Code 1.139.1's workbench
 * and extension host, headless chromium), spoken to from the test through pi's own connector
 * (src/editors/state-dir/client-channel.ts) and as raw lines: no pi runs. The diff tab, its sides and title, focus
 * kept, accept and reject by command and button, an edited proposal, a save that does not accept, a closed tab
 * deciding nothing, a new file, a CRLF file, bad lines, pi going away; the time from openDiff to pi/diffShown.
 */
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { VSCODE_CLIENT_VERSION } from "../../src/editors/core/clients.ts";
import { type ClientChannel, connectClientChannel } from "../../src/editors/state-dir/client-channel.ts";
import type { ToolAnswer } from "../../src/editors/tool-caller.ts";
import { listeningPathsOf } from "../support/process-facts.ts";
import { VscodeClientSession } from "../support/vscode-client-session.ts";
import { vscodeHost, vscodeSuiteSkipReason } from "../support/vscode-host.ts";
import { closeTab } from "../support/vscode-review-page.ts";
import { waitFor } from "../support/wait-for.ts";

const host = vscodeHost();
const skipReason = vscodeSuiteSkipReason("the VS Code review client tests");
const uid = process.getuid?.() ?? 0;

const MAIN = "export const a = 1;\nexport const b = 2;\n";
const PROPOSED = "export const a = 1;\nexport const b = 3; // proposed\n";
const CRLF = "line one\r\nline two\r\n";

const texts = (answer: ToolAnswer) =>
	answer.ok ? ((answer.result as { content: { text: string }[] }).content ?? []).map((item) => item.text) : answer;

describe.skipIf(skipReason !== undefined)("VS Code: the client's review channel in a real VS Code", () => {
	let vscode: VscodeClientSession;
	let channel: ClientChannel;
	const notes: { method: string; tabName: string; atMs: number }[] = [];
	const shownMs: number[] = [];
	let counter = 0;

	beforeAll(async () => {
		vscode = await VscodeClientSession.start(host as Required<Omit<typeof host, "skipReason">>, {
			"src/main.ts": MAIN,
			"src/crlf.txt": CRLF,
		});
		const opened = await connectClientChannel(
			{ dir: vscode.stateDir, pid: vscode.pid, uid, listeningPaths: listeningPathsOf() },
			{ timeoutMs: 10_000 },
		);
		if (!opened.ok) throw new Error(`the client's channel: ${opened.reason}`);
		channel = opened.caller;
		channel.onNotification((method, params) =>
			notes.push({ method, tabName: (params as { tab_name: string }).tab_name, atMs: performance.now() }),
		);
	}, 300_000);

	afterAll(async () => {
		channel?.close();
		if (shownMs.length > 0) {
			const sorted = [...shownMs].sort((a, b) => a - b);
			const p50 = Math.round(sorted[Math.floor(sorted.length / 2)] as number);
			process.stderr.write(
				`VS Code client: openDiff → pi/diffShown, in order: ${shownMs.map((ms) => Math.round(ms)).join(", ")} ms; p50 ${p50} ms, max ${Math.round(sorted.at(-1) as number)} ms\n`,
			);
		}
		await vscode?.stop();
	});

	/** A test that failed leaves no diff behind for the next: every tab name it opened is closed as pi would. */
	const opened: string[] = [];
	afterEach(async () => {
		for (const tabName of opened.splice(0)) await channel.callTool("close_tab", { tab_name: tabName }, 10_000);
	});

	const file = (name: string) => join(vscode.project, name);
	/** openDiff as pi sends it; resolves once the client says the diff is shown. */
	/** `before`: pi's own old_file_contents, the left side's text. */
	const openDiff = async (path: string, contents: string, before?: string) => {
		const tabName = `✻ [pi] ${path.slice(path.lastIndexOf("/") + 1)} (${(++counter).toString(16).padStart(6, "0")}) ⧉`;
		opened.push(tabName);
		const sentMs = performance.now();
		let settled = false;
		const answer = channel
			.callTool(
				"openDiff",
				{
					old_file_path: path,
					new_file_path: path,
					new_file_contents: contents,
					tab_name: tabName,
					...(before !== undefined && { old_file_contents: before }),
				},
				undefined,
			)
			.finally(() => {
				settled = true;
			});
		const shown = await waitFor(
			`pi/diffShown of ${tabName}`,
			() => notes.find((note) => note.method === "pi/diffShown" && note.tabName === tabName),
			30_000,
		);
		shownMs.push(shown.atMs - sentMs);
		return { tabName, answer, settled: () => settled };
	};
	const tabLabels = () =>
		vscode.page.evaluate<string[]>(
			`[...document.querySelectorAll(".tabs-container .tab")].map((tab) => tab.getAttribute("aria-label") ?? "")`,
		);
	const sideText = (side: "original" | "modified") => vscode.diffSide(side);
	const noProposalTab = () =>
		waitFor(
			"no proposal tab left",
			async () => !(await tabLabels()).some((label) => label.includes("pi's proposal")),
			10_000,
		);

	test("connected through pi's own connector: the client's name, version and tools", () => {
		expect(channel.server).toEqual({ name: "pi-ide-context-vscode", version: VSCODE_CLIENT_VERSION });
		expect(channel.offers("openDiff") && channel.offers("close_tab")).toBe(true);
	});

	test("the diff tab: titled by the file, the disk on the left, the proposal on the right; focus stays", async () => {
		await vscode.open("main.ts");
		await vscode.palette("View: Toggle Terminal");
		await vscode.page.waitForSelector(".terminal-wrapper textarea", { timeout: 30_000, state: "attached" });
		// The terminal takes the focus a moment after it appears: "before" is the focus it settled on.
		const before = await waitFor("the terminal focused", async () => {
			const now = await vscode.focused();
			return now.includes("xterm-helper-textarea") && now;
		});
		const writtenBefore = vscode.written().mtimeMs;
		const diff = await openDiff(file("src/main.ts"), PROPOSED);
		expect(await tabLabels()).toContainEqual(expect.stringContaining("main.ts (pi's proposal)"));
		await waitFor("both sides rendered", async () => (await sideText("modified")).includes("// proposed"), 10_000);
		expect(await sideText("original")).toBe(MAIN);
		expect(await sideText("modified")).toBe(PROPOSED);
		// Settled where it was: VS Code's workbench may blink its focus while it lays the diff out.
		await waitFor("the focus where it was", async () => (await vscode.focused()) === before, 3000);
		expect(before).toContain("terminal");
		// The diff became VS Code's active editor: the state file still names the user's own file. VS Code passes no
		// editor on the way from one to the next, and a write may fall in that moment: the one after it names the file.
		await waitFor(
			"the state written after the diff opened, naming the user's file",
			() => {
				const written = vscode.written();
				return written.mtimeMs > writtenBefore && written.state.active_buffer?.file === file("src/main.ts");
			},
			10_000,
		);
		await vscode.palette("pi: Reject Proposed Change");
		expect(texts(await diff.answer)).toEqual(["DIFF_REJECTED", diff.tabName]);
		await noProposalTab();
	}, 120_000);

	test("accept by the command with the user's edit: the text returned has it, the file on disk does not", async () => {
		const diff = await openDiff(file("src/main.ts"), PROPOSED);
		await vscode.typeInProposal("// edited by the user\n");
		await vscode.palette("pi: Accept Proposed Change");
		expect(texts(await diff.answer)).toEqual(["FILE_SAVED", `${PROPOSED}// edited by the user\n`]);
		expect(readFileSync(file("src/main.ts"), "utf8")).toBe(MAIN);
		await noProposalTab();
	}, 120_000);

	test("accept by the diff's title-bar button", async () => {
		const diff = await openDiff(file("src/main.ts"), PROPOSED);
		await vscode.page.click('.editor-actions [aria-label="Accept Proposed Change"]', { timeout: 10_000 });
		expect(texts(await diff.answer)).toEqual(["FILE_SAVED", PROPOSED]);
		await noProposalTab();
	}, 120_000);

	test("saving the proposal keeps it and says how to accept; the accept then returns the saved text", async () => {
		const diff = await openDiff(file("src/main.ts"), PROPOSED);
		await vscode.typeInProposal("// saved\n");
		await vscode.page.keyboard.press("Control+S");
		await vscode.page.waitForSelector('.notifications-toasts :text("are kept, not accepted")', { timeout: 10_000 });
		expect(diff.settled()).toBe(false);
		expect(readFileSync(file("src/main.ts"), "utf8")).toBe(MAIN);
		await vscode.palette("pi: Accept Proposed Change");
		expect(texts(await diff.answer)).toEqual(["FILE_SAVED", `${PROPOSED}// saved\n`]);
		await noProposalTab();
	}, 120_000);

	test("the tab closed decides nothing: pi/diffClosed, openDiff pending until close_tab", async () => {
		const diff = await openDiff(file("src/main.ts"), PROPOSED);
		await closeTab(vscode.page, "main.ts (pi's proposal)");
		await waitFor(
			"pi/diffClosed",
			() => notes.find((note) => note.method === "pi/diffClosed" && note.tabName === diff.tabName),
			10_000,
		);
		expect(await tabLabels()).toContain("main.ts");
		expect(diff.settled()).toBe(false);
		expect(texts(await channel.callTool("close_tab", { tab_name: diff.tabName }, 10_000))).toEqual(["TAB_CLOSED"]);
		expect(texts(await diff.answer)).toEqual(["DIFF_REJECTED", diff.tabName]);
	}, 120_000);

	test("close_tab of a proposal the user edited: its tab goes with no dialog, the openDiff answers a reject", async () => {
		const diff = await openDiff(file("src/main.ts"), PROPOSED);
		await vscode.typeInProposal("// typed, then pi's select answered\n");
		expect(texts(await channel.callTool("close_tab", { tab_name: diff.tabName }, 10_000))).toEqual(["TAB_CLOSED"]);
		expect(texts(await diff.answer)).toEqual(["DIFF_REJECTED", diff.tabName]);
		await noProposalTab();
		expect(await vscode.page.evaluate<number>(`document.querySelectorAll(".monaco-dialog-box").length`)).toBe(0);
	}, 120_000);

	test("a second openDiff under the same tab name rejects the first and shows the second", async () => {
		const first = await openDiff(file("src/main.ts"), PROPOSED);
		const second = channel.callTool(
			"openDiff",
			{
				old_file_path: file("src/main.ts"),
				new_file_path: file("src/main.ts"),
				new_file_contents: "second\n",
				tab_name: first.tabName,
			},
			undefined,
		);
		expect(texts(await first.answer)).toEqual(["DIFF_REJECTED", first.tabName]);
		await waitFor("the second shown", async () => (await sideText("modified")).includes("second"), 10_000);
		expect((await tabLabels()).filter((label) => label.includes("pi's proposal"))).toHaveLength(1);
		await vscode.palette("pi: Reject Proposed Change");
		expect(texts(await second)).toEqual(["DIFF_REJECTED", first.tabName]);
		await noProposalTab();
	}, 120_000);

	test("a new file: shown against an empty side, accepted, not written", async () => {
		const path = file("src/fresh.ts");
		const diff = await openDiff(path, "export const fresh = true;\n");
		expect(await tabLabels()).toContainEqual(expect.stringContaining("fresh.ts (new file, pi's proposal)"));
		await vscode.palette("pi: Accept Proposed Change");
		expect(texts(await diff.answer)).toEqual(["FILE_SAVED", "export const fresh = true;\n"]);
		expect(existsSync(path)).toBe(false);
		await noProposalTab();
	}, 120_000);

	test("pi's old_file_contents is the left side: not the file VS Code holds, nor its unsaved edits", async () => {
		const diff = await openDiff(file("src/main.ts"), PROPOSED, "what pi read\n");
		await waitFor("both sides rendered", async () => (await sideText("modified")).includes("// proposed"), 10_000);
		expect(await sideText("original")).toBe("what pi read\n");
		await vscode.palette("pi: Reject Proposed Change");
		expect(texts(await diff.answer)).toContain("DIFF_REJECTED");
		await noProposalTab();
	}, 120_000);

	test("a CRLF file opens as a diff and its line endings come back as they were", async () => {
		const proposed = "line one\r\nline 2\r\n";
		const diff = await openDiff(file("src/crlf.txt"), proposed);
		await waitFor("the CRLF proposal rendered", async () => (await sideText("modified")).includes("line 2"), 10_000);
		await vscode.palette("pi: Accept Proposed Change");
		expect(texts(await diff.answer)).toEqual(["FILE_SAVED", proposed]);
	}, 120_000);

	test("bad lines get JSON-RPC errors and the extension host answers on", async () => {
		const replies = await rawExchange(join(vscode.stateDir, `${vscode.pid}.sock`), [
			"this is not json",
			JSON.stringify({ jsonrpc: "2.0", id: 1, method: "no/such" }),
			JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "openDiff", arguments: {} } }),
			JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }),
		]);
		expect(replies.map((reply) => reply.error?.code ?? "ok")).toEqual([-32700, -32601, -32602, "ok"]);
	}, 60_000);

	test("pi going away with a diff open: nothing of it stays", async () => {
		const other = await connectClientChannel(
			{ dir: vscode.stateDir, pid: vscode.pid, uid, listeningPaths: listeningPathsOf() },
			{ timeoutMs: 10_000 },
		);
		if (!other.ok) throw new Error(other.reason);
		other.caller.onNotification((method, params) =>
			notes.push({ method, tabName: (params as { tab_name: string }).tab_name, atMs: performance.now() }),
		);
		const tabName = "✻ [pi] main.ts (ffffff) ⧉";
		void other.caller.callTool(
			"openDiff",
			{
				old_file_path: file("src/main.ts"),
				new_file_path: file("src/main.ts"),
				new_file_contents: PROPOSED,
				tab_name: tabName,
			},
			undefined,
		);
		await waitFor(
			"shown",
			() => notes.find((note) => note.method === "pi/diffShown" && note.tabName === tabName),
			30_000,
		);
		other.caller.close();
		await noProposalTab();
	}, 120_000);
});

/** Lines sent one by one on a fresh connection, each reply read before the next line goes. */
async function rawExchange(path: string, lines: string[]): Promise<{ error?: { code: number } }[]> {
	const socket = connect({ path });
	const replies: { error?: { code: number } }[] = [];
	let buffered = "";
	socket.on("data", (chunk) => {
		buffered += chunk.toString("utf8");
		for (let at = buffered.indexOf("\n"); at !== -1; at = buffered.indexOf("\n")) {
			replies.push(JSON.parse(buffered.slice(0, at)));
			buffered = buffered.slice(at + 1);
		}
	});
	for (const [index, line] of lines.entries()) {
		socket.write(`${line}\n`);
		await waitFor(`a reply to line ${index + 1}`, () => replies.length > index, 10_000);
	}
	socket.destroy();
	return replies;
}
