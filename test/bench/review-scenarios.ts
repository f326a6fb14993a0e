/**
 * Group 13's scenarios: the review of the model's edit through the real pi (RPC), a fake model server in the
 * bench process answering with one `edit` call, timed from the moment it answers (just before the SSE leaves it)
 * on the bench's own clock. In a real Neovim 0.7.2 with a UI in tmux (pi 0.73), and in a real VS Code with the
 * package's client (code-server in headless chromium, pi 1.x as group 11 runs it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import type { Reply } from "../support/fake-model-server.ts";
import { type PiLine, piLines, writeAgentDir } from "../support/pi-cli.ts";
import { RealNeovim } from "../support/real-neovim.ts";
import { type RpcMessage, RpcPi } from "../support/rpc-pi.ts";
import type { VscodeHost } from "../support/vscode-host.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";
import { NeovimScreen } from "./neovim-screen.ts";
import { seededRandom } from "./rpc-scenarios.ts";

const PI073 = piLines()[0] as PiLine;
const SCOPE = `pi-ide-bench-review-${process.pid}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** 80 lines, one of them the counter each edit moves on by one: every edit is new and its oldText unique. */
const FILE_TEXT = `${Array.from({ length: 80 }, (_, i) => (i === 39 ? "export const round = 0;" : `const line${i + 1} = ${i + 1};`)).join("\n")}\n`;
/** What a proposal's window shows in its status line (pi's buffer name) once Neovim drew the diff. */
const PROPOSAL_ON_SCREEN = "(proposed)";

/**
 * A model that, asked `go`, edits src/main.ts's counter line (read from the file as it is then) and records when
 * it answered; "done" once the tool result is back.
 */
function counterEditor(file: string): { reply: Reply; answeredAtMs: () => number } {
	let answeredAtMs = Number.NaN;
	return {
		reply: (request) => {
			if (request.messages.at(-1)?.role === "tool") return "done";
			const round = Number(/^export const round = (\d+);$/m.exec(readFileSync(file, "utf8"))?.[1]);
			answeredAtMs = performance.now();
			return {
				toolCalls: [
					{
						name: "edit",
						arguments: {
							path: file,
							edits: [{ oldText: `export const round = ${round};`, newText: `export const round = ${round + 1};` }],
						},
					},
				],
			};
		},
		answeredAtMs: () => answeredAtMs,
	};
}

/** The first record of `type` for the edit among `records`, or a throw naming what pi did instead. */
function editRecord(records: RpcMessage[], type: string): RpcMessage {
	const record = records.find((message) => message.type === type && message.toolName === "edit");
	if (!record) throw new Error(`no ${type} of the edit; records: ${records.map((m) => m.type).join(", ")}`);
	return record;
}

/** In the proposal's window, as the user types it there: `:w` accepts the proposal as shown. */
const WRITE_PROPOSAL_LUA = `for _, win in ipairs(vim.api.nvim_list_wins()) do
  local buf = vim.api.nvim_win_get_buf(win)
  if vim.api.nvim_buf_get_name(buf):match("%(proposed%)$") then
    vim.api.nvim_set_current_win(win)
    vim.cmd("write")
    return true
  end
end
return false`;

export interface NeovimReviewTimes {
	/** Model answer -> the first flush to Neovim's UIs whose screen holds the proposal, review on. */
	shownMs: number[];
	/** pi's tool_execution_start record's arrival -> that same flush. */
	shownFromStartMs: number[];
	/** Model answer -> pi's tool_execution_end record, review on and `:w` sent at the flush above. */
	acceptedMs: number[];
	/** Model answer -> pi's tool_execution_end record, review off. */
	unreviewedMs: number[];
}

/**
 * R1 and R3. One pi 0.73 (RPC) connected to a real Neovim over its server, src/main.ts open in it; `pairs` pairs
 * of the model's edit of one line, review on (`/ide review on`) and off (`/ide review off`) in turn, ABBA, so
 * neither side gets all of the warmer code or the later machine. Review on: the bench's UI sees the diff drawn
 * and at that moment sends `:w` in the proposal (accepted at once, as shown).
 */
export async function neovimReviews(pairs: number): Promise<NeovimReviewTimes> {
	const ws = await E2eWorkspace.create();
	const tmp = join(ws.root, "tmp");
	const file = join(ws.project, "src", "main.ts");
	writeFileSync(file, FILE_TEXT);
	const model = counterEditor(file);
	ws.server.reply = model.reply;
	let nvim: RealNeovim | undefined;
	let screen: NeovimScreen | undefined;
	let pi: RpcPi | undefined;
	try {
		nvim = await RealNeovim.start({ cwd: ws.project, args: ["src/main.ts"], tmpDir: tmp, ui: true, scope: SCOPE });
		screen = await NeovimScreen.attach(nvim.socket);
		const ui = screen;
		pi = RpcPi.start(PI073, {
			cwd: ws.project,
			agentDir: ws.agentDir,
			stateDir: ws.stateDir,
			env: { TMPDIR: tmp, XDG_RUNTIME_DIR: "", NVIM: "", PI_IDE_TEST_PROC_SCOPE: SCOPE },
		});
		const rpc = pi;
		await rpc.waitForWidget("in main.ts", 40_000);
		const setReview = async (on: boolean) => {
			await rpc.command({ type: "prompt", message: `/ide review ${on ? "on" : "off"}` });
			await rpc.waitForWidget(on ? "in main.ts, review on" : "in main.ts");
		};
		const times: NeovimReviewTimes = { shownMs: [], shownFromStartMs: [], acceptedMs: [], unreviewedMs: [] };
		const random = seededRandom(29);
		let review: boolean | undefined;
		for (let pair = 0; pair < pairs; pair++) {
			for (const on of pair % 2 === 0 ? [true, false] : [false, true]) {
				if (review !== on) await setReview(on);
				review = on;
				await waitFor("no proposal on Neovim's screen", () => !ui.text().includes(PROPOSAL_ON_SCREEN));
				await sleep(250 + random() * 200);
				const before = rpc.messages.length;
				// What the `:w` gave: true, false (no proposal window) or the error, looked at once the turn is over.
				let accepting: Promise<unknown> = Promise.resolve(true);
				const shown = on
					? ui.whenShows(PROPOSAL_ON_SCREEN, () => {
							accepting = ui.call("nvim_exec_lua", [WRITE_PROPOSAL_LUA, []]).catch((error: unknown) => error);
						})
					: undefined;
				await rpc.prompt("go");
				const accepted = await accepting;
				if (accepted !== true) throw new Error(`the :w in the proposal: ${String(accepted)}`);
				const records = rpc.messages.slice(before);
				const end = editRecord(records, "tool_execution_end");
				if (end.isError) throw new Error(`the edit failed: ${JSON.stringify(end.result).slice(0, 300)}`);
				const answered = model.answeredAtMs();
				if (shown) {
					const shownAt = await shown;
					times.shownMs.push(shownAt - answered);
					times.shownFromStartMs.push(shownAt - editRecord(records, "tool_execution_start").receivedAt);
					times.acceptedMs.push(end.receivedAt - answered);
				} else times.unreviewedMs.push(end.receivedAt - answered);
			}
		}
		const round = Number(/^export const round = (\d+);$/m.exec(readFileSync(file, "utf8"))?.[1]);
		if (round !== 2 * pairs) throw new Error(`${2 * pairs} edits made, the file says ${round}`);
		return times;
	} finally {
		await pi?.stop();
		screen?.close();
		nvim?.close();
		await ws.cleanup();
	}
}

export interface VscodeReviewTimes {
	/**
	 * Model answer -> pi's select saying the diff is shown in VS Code (raised when the client's pi/diffShown came);
	 * Infinity for a select still "opening": pi waits REVIEW_SHOWN_WAIT_MS (1 s) for the client's word, so that one took longer.
	 */
	shownMs: number[];
}

/**
 * R2. pi 1.x (RPC) connected to the package's client in a real VS Code, review on from the global settings,
 * src/main.ts open; `reviews` edits of one line, each rejected in pi's select at once (the file stays as it is, the
 * next edit the same). pi raises its select the moment the client's `pi/diffShown` reaches it (the client sends it
 * once the proposal is among VS Code's visible editors), so the select's arrival times the diff shown.
 */
export async function vscodeReviews(
	line: PiLine,
	host: Required<Omit<VscodeHost, "skipReason">>,
	reviews: number,
): Promise<VscodeReviewTimes> {
	const ws = await E2eWorkspace.create();
	const file = join(ws.project, "src", "main.ts");
	writeFileSync(file, FILE_TEXT);
	writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { review: true } });
	const model = counterEditor(file);
	ws.server.reply = model.reply;
	const vscode = await VscodeSession.start(ws, line, host);
	try {
		await vscode.open("main.ts");
		await vscode.rpc.waitForWidget("in main.ts, review on", 30_000);
		const random = seededRandom(31);
		const times: VscodeReviewTimes = { shownMs: [] };
		for (let review = 0; review < reviews; review++) {
			await sleep(500 + random() * 300);
			const before = vscode.rpc.messages.length;
			const done = vscode.rpc.prompt("go");
			const select = await waitFor(
				"pi's review select",
				() =>
					vscode.rpc.messages
						.slice(before)
						.find(
							(message) =>
								message.type === "extension_ui_request" &&
								message.method === "select" &&
								String(message.title).startsWith("Review: "),
						),
				30_000,
			);
			vscode.rpc.respond(String(select.id), { value: "Reject" });
			await done;
			// The select's second line says where the diff is (the editor named as /ide status names it).
			const note = String(select.title).split("\n")[1] ?? "";
			if (note.startsWith("Shown in ")) times.shownMs.push(select.receivedAt - model.answeredAtMs());
			else if (note.startsWith("Opening the diff in ")) times.shownMs.push(Number.POSITIVE_INFINITY);
			else throw new Error(`the review was not shown in VS Code: ${String(select.title)}`);
		}
		return times;
	} finally {
		await vscode.stop();
		await ws.cleanup();
	}
}
