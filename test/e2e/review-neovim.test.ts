/**
 * Review of the model's edits in a real Neovim (0.7.2, with a UI in tmux, nothing installed), through the real
 * pi in RPC mode on both lines: the diff in a tab page of pi's own, decided by `:w`, `:PiReject`, or pi's
 * select; closing it decides nothing; nothing of a review stays in Neovim.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText, type Reply } from "../support/fake-model-server.ts";
import { processFactsLines, writeAgentDir } from "../support/pi-cli.ts";
import { RealNeovim, requireNeovim } from "../support/real-neovim.ts";
import { type RpcMessage, RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const available = requireNeovim("the Neovim review tests");

type Call = { name: string; arguments: Record<string, unknown> };

/** A model that makes `calls` (siblings of one message) when asked `go`, then says "done". */
const callingModel =
	(calls: Call[]): Reply =>
	(request) => {
		if (request.messages.at(-1)?.role === "tool") return "done";
		return request.messages.some((message) => messageText(message) === "go") ? { toolCalls: calls } : "ok";
	};

/** The review's buffers and tab pages in Neovim, read over the test's own connection. */
const REVIEW_LUA = `
local out = { tabs = #vim.api.nvim_list_tabpages(), buffers = {}, current_tab = vim.api.nvim_tabpage_get_number(0) }
for _, buf in ipairs(vim.api.nvim_list_bufs()) do
  local name = vim.api.nvim_buf_get_name(buf)
  if name:match("pi: ") then
    out.buffers[#out.buffers + 1] = { name = name:match("(pi: .*)$"), lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false), ft = vim.bo[buf].filetype }
  end
end
return out`;

interface ReviewInNeovim {
	tabs: number;
	current_tab: number;
	buffers: { name: string; lines: string[]; ft: string }[];
}

describe.skipIf(!available).each(processFactsLines())(
	"review in a real Neovim through the real $name (RPC)",
	(line) => {
		const ws = useE2eWorkspace();
		const tmp = () => join(ws.root, "tmp");
		const scope = () => `review-nvim-${process.pid}-${ws.root.split("-").at(-1)}`;
		const main = () => join(ws.project, "src", "main.ts");

		/** `enclosing`: pi runs as if in that Neovim's own terminal (`$NVIM` names its server). */
		async function setup(calls: Call[], options: { enclosing?: boolean } = {}) {
			writeAgentDir(ws.agentDir, ws.server.baseUrl, { "pi-ide": { review: true } });
			ws.server.reply = callingModel(calls);
			const nvim = await RealNeovim.start({
				cwd: ws.project,
				args: ["src/main.ts"],
				tmpDir: tmp(),
				ui: true,
				scope: scope(),
			});
			ws.defer(() => nvim.close());
			const rpc = ws.stopLater(
				RpcPi.start(line, {
					cwd: ws.project,
					agentDir: ws.agentDir,
					stateDir: ws.stateDir,
					env: {
						TMPDIR: tmp(),
						XDG_RUNTIME_DIR: "",
						NVIM: options.enclosing ? nvim.socket : "",
						PI_IDE_TEST_PROC_SCOPE: scope(),
					},
				}),
			);
			await rpc.waitForWidget("in main.ts, review on", PI_START_TIMEOUT_MS);
			return { nvim, rpc };
		}

		const review = async (nvim: RealNeovim) => (await nvim.lua(REVIEW_LUA)) as ReviewInNeovim;
		const proposalShown = (nvim: RealNeovim, count = 1) =>
			waitFor("the proposal in Neovim", async () => {
				const now = await review(nvim);
				return now.buffers.filter((buffer) => buffer.name.endsWith("(proposed)")).length === count && now;
			});
		const nothingLeft = (nvim: RealNeovim) =>
			waitFor("nothing of the review left in Neovim", async () => {
				const now = await review(nvim);
				return now.tabs === 1 && now.buffers.length === 0;
			});
		/** A command run in the proposal's window, as the user types it there. */
		const inProposal = (nvim: RealNeovim, command: string, lines?: string[]) =>
			nvim.lua(
				`for _, win in ipairs(vim.api.nvim_list_wins()) do
			  local buf = vim.api.nvim_win_get_buf(win)
			  if vim.api.nvim_buf_get_name(buf):match("%(proposed%)$") then
			    if ... then vim.api.nvim_buf_set_lines(buf, 0, -1, false, ...) end
			    vim.api.nvim_set_current_win(win)
			    vim.cmd(${JSON.stringify(command)})
			    return true
			  end
			end`,
				...(lines ? [lines] : [false]),
			);
		const reviewSelect = (rpc: RpcPi, index = 0) =>
			waitFor(
				`pi's review select #${index + 1}`,
				() => rpc.uiRequests("select").filter((request) => String(request.title).startsWith("Review: "))[index],
			);
		const toolResults = () => ws.toolResults();
		const edit = (oldText: string, newText: string, path = main()): Call => ({
			name: "edit",
			arguments: { path, edits: [{ oldText, newText }] },
		});
		const titleOf = (select: RpcMessage) => String(select.title);

		test.skipIf(!line.node)(
			"shown in a tab page of pi's own; :w accepts; the tab closes and the buffer shows the new text",
			async () => {
				const { nvim, rpc } = await setup([edit("line2", "LINE TWO")]);
				const done = rpc.prompt("go");
				const shown = await proposalShown(nvim);
				expect(shown.tabs).toBe(2);
				expect(shown.buffers.map((buffer) => buffer.name).sort()).toEqual([
					"pi: src/main.ts (on disk)",
					"pi: src/main.ts (proposed)",
				]);
				expect(shown.buffers.find((buffer) => buffer.name.endsWith("(proposed)"))?.lines[1]).toBe("LINE TWO");
				expect(shown.buffers.every((buffer) => buffer.ft === "typescript")).toBe(true);
				expect(titleOf(await reviewSelect(rpc))).toContain(
					"Shown in Neovim, tab page 2 of Neovim: :w in the proposal accepts",
				);
				await inProposal(nvim, "write");
				await done;
				expect(readFileSync(main(), "utf8")).toContain("LINE TWO\n");
				expect(toolResults()).not.toContain("The user changed");
				await nothingLeft(nvim);
				await waitFor(
					"the buffer reloaded",
					async () => (await nvim.lua("return vim.api.nvim_buf_get_lines(0, 1, 2, false)[1]")) === "LINE TWO",
				);
			},
		);

		test.skipIf(!line.node)(
			"an edited proposal accepted: the file gets the user's version, the model the diff of it",
			async () => {
				const { nvim, rpc } = await setup([edit("line2", "LINE TWO")]);
				const done = rpc.prompt("go");
				const shown = await proposalShown(nvim);
				const lines = shown.buffers.find((buffer) => buffer.name.endsWith("(proposed)"))?.lines ?? [];
				await inProposal(
					nvim,
					"write",
					lines.map((text) => (text === "line4" ? "line four, by the user" : text)),
				);
				await done;
				const text = readFileSync(main(), "utf8");
				expect(text).toContain("LINE TWO\n");
				expect(text).toContain("line four, by the user\n");
				expect(toolResults()).toContain("The user changed your proposed edit before accepting it");
				expect(toolResults()).toContain("-line4\n+line four, by the user");
			},
		);

		test.skipIf(!line.node)(":PiReject with a reason: the file untouched, the model told why", async () => {
			const { nvim, rpc } = await setup([edit("line2", "LINE TWO")]);
			const before = readFileSync(main(), "utf8");
			const done = rpc.prompt("go");
			await proposalShown(nvim);
			await inProposal(nvim, "PiReject keep it lowercase");
			await done;
			expect(readFileSync(main(), "utf8")).toBe(before);
			expect(toolResults()).toContain(
				'rejected this edit of src/main.ts in Neovim; the file was not changed. The user\'s reason: "keep it lowercase"',
			);
			await nothingLeft(nvim);
		});

		test.skipIf(!line.node)(
			":q of the proposal decides nothing: pi's select asks again, saying so, and decides",
			async () => {
				const { nvim, rpc } = await setup([edit("line2", "LINE TWO")]);
				const done = rpc.prompt("go");
				await proposalShown(nvim);
				await reviewSelect(rpc);
				await inProposal(nvim, "quit");
				const again = await reviewSelect(rpc, 1);
				expect(titleOf(again)).toContain("The diff in Neovim was closed without a decision: decide here.");
				rpc.respond(String(again.id), { value: "Accept" });
				await done;
				expect(readFileSync(main(), "utf8")).toContain("LINE TWO\n");
				await nothingLeft(nvim);
			},
		);

		test.skipIf(!line.node)(
			"two edits of one file in one message: the second shown on top of the first accepted",
			async () => {
				const { nvim, rpc } = await setup([edit("line2", "LINE TWO"), edit("line5", "LINE FIVE")]);
				const done = rpc.prompt("go");
				await proposalShown(nvim);
				await inProposal(nvim, "write");
				const second = await waitFor("the second proposal", async () => {
					const now = await review(nvim);
					const left = now.buffers.find((buffer) => buffer.name.endsWith("(on disk)"));
					return left?.lines.includes("LINE TWO") && now;
				});
				expect(second.buffers.find((buffer) => buffer.name.endsWith("(proposed)"))?.lines).toContain("LINE FIVE");
				await inProposal(nvim, "write");
				await done;
				const text = readFileSync(main(), "utf8");
				expect(text).toContain("LINE TWO\n");
				expect(text).toContain("LINE FIVE\n");
			},
		);

		test.skipIf(!line.node)(
			"a new file is shown against nothing; a CRLF file without ^M, written back in CRLF",
			async () => {
				const crlf = join(ws.project, "src", "dos.ts");
				writeFileSync(crlf, "one\r\ntwo\r\n");
				const fresh = join(ws.project, "src", "fresh.ts");
				const { nvim, rpc } = await setup([
					{ name: "write", arguments: { path: fresh, content: "export const fresh = 1;\n" } },
					edit("two", "TWO", crlf),
				]);
				const done = rpc.prompt("go");
				const first = await proposalShown(nvim);
				expect(first.buffers.find((buffer) => buffer.name.endsWith("(new file)"))?.lines).toEqual([""]);
				await inProposal(nvim, "write");
				const second = await waitFor("the CRLF proposal", async () => {
					const now = await review(nvim);
					return now.buffers.some((buffer) => buffer.name === "pi: src/dos.ts (proposed)") && now;
				});
				expect(second.buffers.find((buffer) => buffer.name === "pi: src/dos.ts (proposed)")?.lines).toEqual([
					"one",
					"TWO",
				]);
				await inProposal(nvim, "write");
				await done;
				expect(readFileSync(fresh, "utf8")).toBe("export const fresh = 1;\n");
				expect(readFileSync(crlf, "utf8")).toBe("one\r\nTWO\r\n");
			},
		);

		test.skipIf(!line.node)("pi's select answers first: the diff closes in Neovim", async () => {
			const { nvim, rpc } = await setup([edit("line2", "LINE TWO")]);
			const done = rpc.prompt("go");
			await proposalShown(nvim);
			rpc.respond(String((await reviewSelect(rpc)).id), { value: "Reject" });
			await done;
			expect(readFileSync(main(), "utf8")).not.toContain("LINE TWO");
			await nothingLeft(nvim);
		});

		test.skipIf(!line.node)("Neovim quits during a review: pi's select says why and decides", async () => {
			const { nvim, rpc } = await setup([edit("line2", "LINE TWO")]);
			const done = rpc.prompt("go");
			await proposalShown(nvim);
			await reviewSelect(rpc);
			nvim.kill();
			const again = await reviewSelect(rpc, 1);
			expect(titleOf(again)).toMatch(/Not shown in Neovim: .*closed.*\. Decide here\./);
			rpc.respond(String(again.id), { value: "Reject" });
			await done;
			expect(readFileSync(main(), "utf8")).not.toContain("LINE TWO");
		});

		test.skipIf(!line.node)(
			"an aborted turn closes the diff; pi killed mid-review: Neovim's next event removes it",
			async () => {
				const { nvim, rpc } = await setup([edit("line2", "LINE TWO")]);
				const done = rpc.prompt("go");
				await proposalShown(nvim);
				await rpc.command({ type: "abort" });
				await done;
				await nothingLeft(nvim);
				expect(readFileSync(main(), "utf8")).not.toContain("LINE TWO");

				rpc.send({ type: "prompt", message: "go" });
				await proposalShown(nvim);
				rpc.run.child.kill("SIGKILL");
				await rpc.run.exited;
				await nvim.keys("<Esc>", "n");
				await nvim.keys("j", "n");
				await nothingLeft(nvim);
				await waitFor("no group of pi's left", async () => (await nvim.piGroups()).length === 0, 2000);
			},
		);

		test.skipIf(!line.node)(
			"pi in that Neovim's own terminal ($NVIM): the tab page opens without being entered",
			async () => {
				const { nvim, rpc } = await setup([edit("line2", "LINE TWO")], { enclosing: true });
				const done = rpc.prompt("go");
				const shown = await proposalShown(nvim);
				expect(shown.tabs).toBe(2);
				expect(shown.current_tab).toBe(1);
				const select = await reviewSelect(rpc);
				expect(titleOf(select)).toContain("Shown in Neovim, tab page 2 of Neovim");
				rpc.respond(String(select.id), { value: "Accept" });
				await done;
				expect(readFileSync(main(), "utf8")).toContain("LINE TWO\n");
				await nothingLeft(nvim);
			},
		);
	},
);
