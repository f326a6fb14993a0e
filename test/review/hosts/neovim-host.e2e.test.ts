import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { EditorState } from "../../../src/editors/core/protocol-state.ts";
import type { NeovimDiffChannel } from "../../../src/editors/diff-channels.ts";
import { NeovimSource } from "../../../src/editors/neovim/source.ts";
import type { DiffRequest, DiffView, EditorAnswer, RequestOutcome } from "../../../src/review/core/diff-host.ts";
import { NEOVIM_DIFF_CLOSE_LUA, NEOVIM_DIFF_OPEN_LUA } from "../../../src/review/core/neovim-diff-lua.ts";
import { openArguments } from "../../../src/review/core/neovim-diff-protocol.ts";
import { neovimDiffHost } from "../../../src/review/hosts/neovim-host.ts";
import { NEOVIM_DIFF_CLOSE_RETRY_MS, NEOVIM_DIFF_OPEN_MS } from "../../../src/shared/core/timing.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { ManualClock } from "../../support/clocks.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { RealNeovim, requireNeovim } from "../../support/real-neovim.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * The review's diff in a real Neovim 0.7.2 with a UI (tmux), reached the way pi reaches it: the Neovim source
 * finds it in /proc and hands the host its diff channel. The user's side is typed as keys.
 */
const available = requireNeovim("the Neovim review tests");

const MAIN = "export const a = 1;\nexport const b = 2;\n";
const PROPOSED = "export const a = 1;\nexport const b = 3;\nexport const c = 4;\n";

/** What Neovim holds of pi's reviews and of the user's windows, read in one request. */
const LAYOUT_LUA = `
local api = vim.api
local out = { tabs = #api.nvim_list_tabpages(), tab = api.nvim_tabpage_get_number(api.nvim_get_current_tabpage()),
  mode = api.nvim_get_mode().mode, current = api.nvim_buf_get_name(0), pi = {}, diff_windows = 0, groups = {} }
for _, buf in ipairs(api.nvim_list_bufs()) do
  local name = api.nvim_buf_get_name(buf)
  if name:match("pi: ") then
    out.pi[#out.pi + 1] = { name = vim.fn.fnamemodify(name, ":."), buftype = vim.bo[buf].buftype,
      filetype = vim.bo[buf].filetype, modifiable = vim.bo[buf].modifiable, fileformat = vim.bo[buf].fileformat,
      lines = api.nvim_buf_get_lines(buf, 0, -1, false) }
  end
end
for _, win in ipairs(api.nvim_list_wins()) do
  if vim.wo[win].diff then out.diff_windows = out.diff_windows + 1 end
end
for _, autocmd in ipairs(api.nvim_get_autocmds({})) do
  if autocmd.group_name and autocmd.group_name:match("^pi_ide_review") then out.groups[#out.groups + 1] = autocmd.group_name end
end
return out
`;

interface Layout {
	tabs: number;
	tab: number;
	mode: string;
	current: string;
	pi: { name: string; buftype: string; filetype: string; modifiable: boolean; fileformat: string; lines: string[] }[];
	diff_windows: number;
	/** The review groups' names, once per autocmd. */
	groups: string[];
}

describe.skipIf(!available)("the review's diff in a real Neovim", () => {
	const scope = new CleanupScope();
	let project: string;
	let tmp: string;
	let procScope: string;
	let ids = 0;

	beforeEach(() => {
		const dir = tempDir("nvim-review");
		scope.defer(dir.cleanup);
		project = join(dir.path, "proj");
		tmp = join(dir.path, "tmp");
		mkdirSync(join(project, "src"), { recursive: true });
		mkdirSync(tmp);
		writeFileSync(join(project, "src", "main.ts"), MAIN);
		procScope = `nvim-review-${process.pid}-${Math.random().toString(36).slice(2)}`;
	});
	afterEach(() => scope.close());

	async function neovim(args: string[] = ["src/main.ts"]): Promise<RealNeovim> {
		const started = await RealNeovim.start({ cwd: project, args, tmpDir: tmp, ui: true, scope: procScope });
		scope.defer(() => started.close());
		return started;
	}

	/** The source pi runs, and the diff channel it gives for that Neovim once connected. */
	async function channelTo(
		nvim: RealNeovim,
		env: { NVIM?: string } = {},
	): Promise<{ source: NeovimSource; channel: NeovimDiffChannel }> {
		const source = new NeovimSource(
			{
				enabled: { on: true, source: "default" },
				uid: process.getuid?.() ?? 0,
				platform: process.platform,
				env: { TMPDIR: tmp, ...env },
				projectDir: () => project,
				connectedKey: () => `pid:${nvim.pid}`,
				testScope: procScope,
				facts: testProcessFacts(),
			},
			sourceHooks(),
		);
		await source.start();
		scope.defer(() => source.close());
		const editor = { key: `pid:${nvim.pid}`, origin: "neovim" as const, state: {} as EditorState };
		const channel = await waitFor("the diff channel", () => {
			const answer = source.diffChannel(editor);
			return answer?.kind === "neovim" ? answer.channel : undefined;
		});
		return { source, channel };
	}

	function request(overrides: Partial<DiffRequest> = {}): DiffRequest {
		return {
			id: `r${String(++ids).padStart(5, "0")}`,
			file: join(project, "src", "main.ts"),
			displayName: "src/main.ts",
			onDisk: MAIN,
			proposed: PROPOSED,
			...overrides,
		};
	}

	const layout = async (nvim: RealNeovim) => (await nvim.lua(LAYOUT_LUA)) as Layout;

	/** What the terminal shows of Neovim now, row by row. */
	const screen = async (nvim: RealNeovim) =>
		(await nvim.lua(`vim.cmd("redraw")
local rows = {}
for row = 1, vim.o.lines do
  local cells = {}
  for col = 1, vim.o.columns do cells[col] = vim.fn.screenstring(row, col) end
  rows[row] = table.concat(cells)
end
return rows`)) as string[];

	/** The answer if it came, else "pending" (checked after Neovim answered a request: nothing more is on its way). */
	async function settledAnswer(view: DiffView, nvim: RealNeovim): Promise<EditorAnswer | "pending"> {
		await nvim.call("nvim_get_mode");
		return Promise.race([view.answer, new Promise<"pending">((done) => setImmediate(() => done("pending")))]);
	}

	test("shown within 200 ms: a tab page of pi's own, the file on disk beside the proposal, both in diff mode", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const host = neovimDiffHost(channel);
		expect(host.editorName).toBe("Neovim");
		const started = performance.now();
		const view = host.open(request());
		const shown = await view.shown;
		const latencyMs = performance.now() - started;
		process.stderr.write(`neovim diff shown in ${latencyMs.toFixed(1)} ms\n`);
		expect(shown).toEqual({ ok: true, where: "tab page 2 of Neovim" });
		expect(latencyMs).toBeLessThan(200);
		const now = await layout(nvim);
		expect(now).toMatchObject({ tabs: 2, tab: 2, diff_windows: 2, mode: "n" });
		expect(now.current).toMatch(/pi: src\/main\.ts \(proposed\)$/);
		expect(now.pi).toEqual([
			{
				name: "pi: src/main.ts (on disk)",
				buftype: "nofile",
				filetype: "typescript",
				modifiable: false,
				fileformat: "unix",
				lines: ["export const a = 1;", "export const b = 2;"],
			},
			{
				name: "pi: src/main.ts (proposed)",
				buftype: "acwrite",
				filetype: "typescript",
				modifiable: true,
				fileformat: "unix",
				lines: ["export const a = 1;", "export const b = 3;", "export const c = 4;"],
			},
		]);
		expect(await settledAnswer(view, nvim)).toBe("pending");
		await view.close();
	});

	/** No tab page, buffer, diff mode or autocmd of a review is left; what else Neovim shows, returned. */
	async function expectNoReview(nvim: RealNeovim): Promise<Layout> {
		const now = await layout(nvim);
		expect(now).toMatchObject({ tabs: 1, diff_windows: 0 });
		expect(now.pi).toHaveLength(0);
		expect(Object.keys(now.groups)).toEqual([]);
		return now;
	}

	/** The user's side of the review is over: nothing of it is left, the user's own buffer as it was. */
	async function expectNothingLeft(nvim: RealNeovim): Promise<void> {
		await expectNoReview(nvim);
		const mainBuffer = (await nvim.lua(
			"local b = vim.fn.bufnr(...) return { lines = vim.api.nvim_buf_get_lines(b, 0, -1, false), modified = vim.bo[b].modified }",
			join(project, "src", "main.ts"),
		)) as { lines: string[]; modified: boolean };
		expect(mainBuffer).toEqual({ lines: ["export const a = 1;", "export const b = 2;"], modified: false });
	}

	test(":w in the proposal accepts with its text; close() then leaves nothing, the user back in their tab page", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(request());
		expect((await view.shown).ok).toBe(true);
		await nvim.keys(":w<CR>");
		expect(await view.answer).toEqual({ kind: "accepted", text: PROPOSED });
		await view.close();
		await expectNothingLeft(nvim);
		expect((await layout(nvim)).current).toBe(join(project, "src", "main.ts"));
		// Idempotent: a second close finds nothing and says nothing.
		await view.close();
	});

	test("an edited proposal is accepted with the edited text", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(request());
		await view.shown;
		await nvim.keys("Gox = 5;<Esc>", "n");
		await nvim.keys("ggdd:w<CR>");
		expect(await view.answer).toEqual({
			kind: "accepted",
			text: "export const b = 3;\nexport const c = 4;\nx = 5;\n",
		});
		expect((await layout(nvim)).pi[1]?.name).toBe("pi: src/main.ts (proposed)");
		const modified = await nvim.lua("return vim.bo.modified");
		expect(modified).toBe(false);
		await view.close();
		await expectNothingLeft(nvim);
	});

	test(":PiReject with a reason rejects with it; without one, rejects", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const host = neovimDiffHost(channel);
		const view = host.open(request());
		await view.shown;
		await nvim.keys(":PiReject too long<CR>");
		expect(await view.answer).toEqual({ kind: "rejected", reason: "too long" });
		await view.close();
		const second = host.open(request());
		await second.shown;
		// From the file's side too.
		await nvim.keys("<C-w>h:PiReject<CR>");
		expect(await second.answer).toEqual({ kind: "rejected" });
		await second.close();
		await expectNothingLeft(nvim);
	});

	test(":q of the proposal decides nothing: closed, once, and the rest of the view goes with it", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const events: unknown[] = [];
		channel.onDiffEvent((params) => events.push(params));
		const asked = request();
		const view = neovimDiffHost(channel).open(asked);
		await view.shown;
		await nvim.keys(":q<CR>");
		expect(await view.answer).toEqual({ kind: "closed" });
		await waitFor("the on-disk side closed too", async () => (await layout(nvim)).pi.length === 0);
		await nvim.keys("jk", "n");
		expect(await layout(nvim)).toMatchObject({ tabs: 1, diff_windows: 0 });
		expect(events).toEqual([[asked.id, "closed", null]]);
		await view.close();
		await expectNothingLeft(nvim);
	});

	test("a new file: against nothing, named so", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(
			request({
				file: join(project, "src", "new.go"),
				displayName: "src/new.go",
				onDisk: undefined,
				proposed: "package main\n",
			}),
		);
		expect((await view.shown).ok).toBe(true);
		expect((await layout(nvim)).pi).toMatchObject([
			{ name: "pi: src/new.go (new file)", lines: [""], filetype: "go" },
			{ name: "pi: src/new.go (proposed)", lines: ["package main"], filetype: "go" },
		]);
		await nvim.keys(":w<CR>");
		expect(await view.answer).toEqual({ kind: "accepted", text: "package main\n" });
		await view.close();
		await expectNothingLeft(nvim);
	});

	test("a CRLF file shows without ^M and is accepted with its CRLF line endings", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(
			request({ onDisk: "one\r\ntwo\r\n", proposed: "one\r\ntwo changed\r\nthree\r\n" }),
		);
		expect((await view.shown).ok).toBe(true);
		expect((await layout(nvim)).pi).toMatchObject([
			{ lines: ["one", "two"], fileformat: "dos" },
			{ lines: ["one", "two changed", "three"], fileformat: "dos" },
		]);
		const rows = await screen(nvim);
		expect(rows.join("\n")).toContain("two changed");
		expect(rows.join("\n")).not.toContain("^M");
		await nvim.keys(":w<CR>");
		expect(await view.answer).toEqual({ kind: "accepted", text: "one\r\ntwo changed\r\nthree\r\n" });
		await view.close();
		await expectNothingLeft(nvim);
	});

	test("pi in this Neovim's terminal ($NVIM): the tab page opens behind, the user stays in Terminal mode", async () => {
		const nvim = await neovim(["-c", "terminal"]);
		await nvim.keys("i", "t");
		const { channel } = await channelTo(nvim, { NVIM: nvim.socket });
		expect(channel.enclosing).toBe(true);
		const before = await layout(nvim);
		const view = neovimDiffHost(channel).open(request());
		expect(await view.shown).toEqual({ ok: true, where: "tab page 2 of Neovim" });
		const now = await layout(nvim);
		expect(now).toMatchObject({ tabs: 2, tab: 1, mode: "t", current: before.current, diff_windows: 2 });
		expect(now.pi).toHaveLength(2);
		await view.close();
		expect(await expectNoReview(nvim)).toMatchObject({ tab: 1, mode: "t", current: before.current });
	});

	test.each([
		["Insert", "i", "i"],
		["Visual", "vj", "v"],
	])("a user busy elsewhere (%s mode) is not taken to the diff, and stays in that mode", async (_name, keys, mode) => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		await nvim.keys(keys, mode);
		const where = async () => nvim.lua('return { vim.fn.getpos("v"), vim.fn.getpos(".") }');
		const before = await where();
		const view = neovimDiffHost(channel).open(request());
		expect(await view.shown).toEqual({ ok: true, where: "tab page 2 of Neovim" });
		expect(await layout(nvim)).toMatchObject({ tabs: 2, tab: 1, mode, current: join(project, "src", "main.ts") });
		expect(await where()).toEqual(before);
		await nvim.keys("<Esc>", "n");
		await view.close();
		await expectNothingLeft(nvim);
	});

	test("a user typing a command line: the diff opens behind it, the command line kept", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		await nvim.keys(":echo 'x", "c");
		const view = neovimDiffHost(channel).open(request());
		expect(await view.shown).toEqual({ ok: true, where: "tab page 2 of Neovim" });
		expect(await layout(nvim)).toMatchObject({ tabs: 2, tab: 1, mode: "c" });
		expect(await nvim.lua("return vim.fn.getcmdline()")).toBe("echo 'x");
		await nvim.keys("<Esc>", "n");
		await view.close();
		await expectNothingLeft(nvim);
	});

	test("pi's select answers while the user types in the proposal: the view closes under them, Neovim fine", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(request());
		await view.shown;
		await nvim.keys("Gotyping", "i");
		await view.close();
		expect(await view.answer).toEqual({ kind: "closed" });
		await nvim.keys("<Esc>", "n");
		await expectNothingLeft(nvim);
	});

	test("Neovim in a hit-enter prompt: not shown, with why, and nothing opens once the prompt is gone", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		await nvim.keys(':echo "one\\ntwo"<CR>');
		await waitFor(
			"the hit-enter prompt",
			async () => ((await nvim.call("nvim_get_mode")) as { blocking: boolean }).blocking,
		);
		const view = neovimDiffHost(channel).open(request());
		const shown = await view.shown;
		expect(shown.ok).toBe(false);
		expect(shown.ok === false && shown.reason).toContain("waiting for the user");
		expect(await view.answer).toMatchObject({ kind: "failed", reason: shown.ok === false ? shown.reason : "" });
		await nvim.keys("<CR>", "n");
		await view.close();
		await expectNoReview(nvim);
	});

	test("Neovim quitting during a review: the answer fails, saying so", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(request());
		expect((await view.shown).ok).toBe(true);
		await nvim.keys(":qa!<CR>");
		expect(await view.answer).toEqual({ kind: "failed", reason: "Neovim closed the connection" });
		await view.close();
	});

	test("pi gone (its connection dropped): Neovim's next event removes the review", async () => {
		const nvim = await neovim();
		const { source, channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(request());
		expect((await view.shown).ok).toBe(true);
		await source.close();
		expect(await view.answer).toMatchObject({ kind: "failed" });
		// The connection's end reaches Neovim before the key does: its channel is gone when the cursor moves.
		await waitFor("pi's channel gone in Neovim", async () => {
			const chans = (await nvim.lua("return #vim.api.nvim_list_chans()")) as number;
			return chans === 2;
		});
		expect((await layout(nvim)).pi).toHaveLength(2);
		await nvim.keys("j");
		await waitFor("the review removed", async () => (await layout(nvim)).pi.length === 0);
		await expectNothingLeft(nvim);
		expect(await nvim.piGroups()).toEqual([]);
	});

	test("the review tab left as Neovim's last tab page: closing it leaves a window, Neovim running", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(request());
		expect((await view.shown).ok).toBe(true);
		await nvim.keys(":tabonly<CR>", "n");
		expect((await layout(nvim)).tabs).toBe(1);
		await view.close();
		await expectNoReview(nvim);
		expect(await nvim.lua("return #vim.api.nvim_list_wins()")).toBe(1);
	});

	test.each([
		["the review tab closed with :tabclose", ":tabclose<CR>"],
		["the left window closed, then the right one", ":wincmd h<CR>:q<CR>:q<CR>"],
	])("%s: 'closed' once, and no autocmd or group of the review left", async (_name, keys) => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(request());
		expect((await view.shown).ok).toBe(true);
		await nvim.keys("<Esc>", "n");
		await nvim.command("2tabnext");
		await nvim.keys(keys, "n");
		expect(await view.answer).toEqual({ kind: "closed" });
		await waitFor("the review gone", async () => (await layout(nvim)).pi.length === 0);
		await view.close();
		await expectNothingLeft(nvim);
		expect(await nvim.piGroups()).not.toContainEqual(expect.stringMatching(/^pi_ide_review_/));
	});

	test("closed before it was shown: the open runs first, then the close; nothing is left", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const view = neovimDiffHost(channel).open(request());
		await view.close();
		expect((await view.shown).ok).toBe(true);
		expect(await view.answer).toEqual({ kind: "closed" });
		await expectNothingLeft(nvim);
	});

	test("notifications that are not pi's shape are ignored; the real answer still counts", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const asked = request();
		const view = neovimDiffHost(channel).open(asked);
		await view.shown;
		for (const params of ["42", "'x'", `'${asked.id}', 'accepted', 42`, `'${asked.id}', 'maybe'`, `'other', 'closed'`])
			await nvim.lua(`vim.rpcnotify(${channel.channel}, "pi_ide_diff", ${params})`);
		expect(await settledAnswer(view, nvim)).toBe("pending");
		await nvim.keys(":PiReject<CR>");
		expect(await view.answer).toEqual({ kind: "rejected" });
		await view.close();
	});

	test("an open Neovim runs after pi stopped waiting opens nothing", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const late = openArguments(request(), {
			channel: channel.channel,
			enter: true,
			deadlineSeconds: Date.now() / 1000 - 1,
		});
		expect(await nvim.lua(NEOVIM_DIFF_OPEN_LUA, ...late)).toEqual({
			ok: false,
			reason: "too late: pi stopped waiting",
		});
		await expectNothingLeft(nvim);
	});

	test("a file of a few MB opens well within the open's budget", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		const line = "const value = 'some text that makes a line of code a usual width';";
		const big = `${Array.from({ length: 60_000 }, (_, index) => `${line} // ${index}`).join("\n")}\n`;
		const proposed = big.replace("// 30000", "// changed");
		const started = performance.now();
		const view = neovimDiffHost(channel).open(request({ onDisk: big, proposed }));
		expect((await view.shown).ok).toBe(true);
		const latencyMs = performance.now() - started;
		process.stderr.write(`neovim diff of ${(big.length / 1e6).toFixed(1)} MB shown in ${latencyMs.toFixed(0)} ms\n`);
		expect(latencyMs).toBeLessThan(NEOVIM_DIFF_OPEN_MS);
		await nvim.keys(":w<CR>");
		expect(await view.answer).toEqual({ kind: "accepted", text: proposed });
		await view.close();
		await expectNothingLeft(nvim);
	});

	test("a close Neovim could not take (a prompt) is asked again, and the review goes", async () => {
		const nvim = await neovim();
		const { channel } = await channelTo(nvim);
		// The session's time (its requests' deadlines), the test's timers: the retry fires when the test says.
		const timers = new ManualClock();
		const clock = { ...channel.clock, after: (ms: number, run: () => void) => timers.after(ms, run) };
		const view = neovimDiffHost({ ...channel, clock }).open(request());
		expect((await view.shown).ok).toBe(true);
		await nvim.keys(':echo "one\\ntwo"<CR>');
		await waitFor(
			"the hit-enter prompt",
			async () => ((await nvim.call("nvim_get_mode")) as { blocking: boolean }).blocking,
		);
		await view.close();
		await nvim.keys("<CR>", "n");
		expect((await layout(nvim)).pi).toHaveLength(2);
		timers.advance(NEOVIM_DIFF_CLOSE_RETRY_MS);
		await waitFor("the review closed on the second ask", async () => (await layout(nvim)).pi.length === 0);
		await expectNothingLeft(nvim);
	});
});

/** The host's own rules against a channel that answers as the test says: no Neovim needed. */
describe("the Neovim host when its requests fail", () => {
	function fakeChannel(answer: (chunk: string) => RequestOutcome | Promise<RequestOutcome>) {
		const asked: string[] = [];
		let closeConnection!: (reason: string) => void;
		const closed = new Promise<string>((resolve) => {
			closeConnection = resolve;
		});
		const listeners = new Set<(params: unknown) => void>();
		const channel: NeovimDiffChannel = {
			enclosing: false,
			channel: 3,
			clock: new ManualClock(),
			run: async (_what, chunk) => {
				asked.push(chunk === NEOVIM_DIFF_OPEN_LUA ? "open" : chunk === NEOVIM_DIFF_CLOSE_LUA ? "close" : "other");
				return answer(chunk);
			},
			onDiffEvent: (listener) => {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
			whenClosed: () => closed,
		};
		return {
			channel,
			asked,
			closeConnection,
			send: (params: unknown) => {
				for (const listener of listeners) listener(params);
			},
			listeners,
		};
	}
	const diff: DiffRequest = { id: "a1b2c3", file: "/p/a.ts", displayName: "a.ts", onDisk: "a\n", proposed: "b\n" };

	test("an RPC failure: not shown, with why; the answer fails the same; what may have opened is closed", async () => {
		const fake = fakeChannel((chunk) =>
			chunk === NEOVIM_DIFF_OPEN_LUA ? { ok: false, reason: "no answer within 1500 ms" } : { ok: true, value: 0 },
		);
		const view = neovimDiffHost(fake.channel).open(diff);
		const reason = "Neovim did not open the diff: no answer within 1500 ms";
		expect(await view.shown).toEqual({ ok: false, reason });
		expect(await view.answer).toEqual({ kind: "failed", reason });
		await view.close();
		expect(fake.asked).toEqual(["open", "close"]);
		expect(fake.listeners.size).toBe(0);
	});

	test("a run that throws is a failure like any other; close() never throws", async () => {
		const fake = fakeChannel(() => {
			throw new Error("socket gone");
		});
		const view = neovimDiffHost(fake.channel).open(diff);
		expect(await view.shown).toEqual({ ok: false, reason: "Neovim did not open the diff: socket gone" });
		await expect(view.close()).resolves.toBeUndefined();
	});

	test("the connection closing before the open's answer: not shown, the answer fails with why", async () => {
		const fake = fakeChannel(() => new Promise(() => {}));
		const view = neovimDiffHost(fake.channel).open(diff);
		fake.closeConnection("Neovim closed the connection");
		expect(await view.shown).toEqual({ ok: false, reason: "Neovim closed the connection" });
		expect(await view.answer).toEqual({ kind: "failed", reason: "Neovim closed the connection" });
	});

	test("the first answer counts; later ones and other reviews' are ignored", async () => {
		const fake = fakeChannel(() => ({ ok: true, value: { ok: true, tab: 3, entered: false } }));
		const view = neovimDiffHost(fake.channel).open(diff);
		expect(await view.shown).toEqual({ ok: true, where: "tab page 3 of Neovim" });
		fake.send(["ffffff", "rejected", "not this one"]);
		fake.send(["a1b2c3", "rejected", "too long"]);
		fake.send(["a1b2c3", "accepted", "b\n"]);
		expect(await view.answer).toEqual({ kind: "rejected", reason: "too long" });
		expect(fake.listeners.size).toBe(0);
	});
});
