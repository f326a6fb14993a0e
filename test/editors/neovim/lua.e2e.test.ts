import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ASK_COMMANDS, ASK_START_LUA, ASK_STOP_LUA } from "../../../src/editors/neovim/core/ask-lua.ts";
import {
	LEAVE_LUA,
	PUSH_LUA,
	RELOAD_LUA,
	STATE_LUA,
	STOP_PUSHES_LUA,
	UNSAVED_LUA,
} from "../../../src/editors/neovim/core/lua.ts";
import { QUESTION_SHOW_LUA } from "../../../src/editors/neovim/core/question-lua.ts";
import { parseSnapshot, type Snapshot } from "../../../src/editors/neovim/core/snapshot.ts";
import { LUA_SELECTION_BYTES } from "../../../src/editors/neovim/core/snapshot-caps.ts";
import { RpcConnection } from "../../../src/editors/neovim/rpc.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { cutText } from "../../../src/shared/core/text-cuts.ts";
import { RealNeovim, requireNeovim } from "../../support/real-neovim.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/** The Lua pi sends, run inside a real (headless) Neovim: what it reports is what the editor shows. */
const available = requireNeovim("the Neovim Lua tests");

const TEXT = "line one\nhéllo wörld 🌍 end\nthird line\nfourth\n";
/** Lines 1-20: 5 000 x each; 21: 100 000 y; 22: one a, then 40 000 é (byte 66 000 starts an é). */
const BIG_LINE = "x".repeat(5000);
const BIG_TEXT = `${Array(20).fill(BIG_LINE).join("\n")}\n${"y".repeat(100_000)}\na${"é".repeat(40_000)}\n`;

describe.skipIf(!available)("the Lua pi sends, in a real Neovim", () => {
	let dir: { path: string; cleanup: () => void };
	let nvim: RealNeovim;
	const file = () => join(dir.path, "proj", "main.txt");

	beforeAll(async () => {
		dir = tempDir("nvim-lua");
		const project = join(dir.path, "proj");
		const { mkdirSync } = await import("node:fs");
		mkdirSync(project);
		writeFileSync(join(project, "main.txt"), TEXT);
		writeFileSync(join(project, "other.txt"), "other\n");
		writeFileSync(join(project, "big.txt"), BIG_TEXT);
		nvim = await RealNeovim.start({ cwd: project, args: ["main.txt"], tmpDir: join(dir.path, "tmp"), ui: false });
	});
	afterAll(() => {
		nvim?.kill();
		dir?.cleanup();
	});

	async function state(): Promise<Snapshot> {
		const parsed = parseSnapshot(await nvim.lua(STATE_LUA));
		if (!parsed.ok) throw new Error(parsed.reason);
		// The Lua caps every field within pi's schema: pi never has to cut what a real Neovim sends.
		expect(parsed.cuts).toEqual([]);
		return parsed.snapshot;
	}

	async function reset(): Promise<void> {
		await nvim.keys("<Esc><Esc>", "n");
		await nvim.command("silent! only | silent! edit! main.txt");
	}

	test("the buffer: file, language, 1-based line and byte column, lines, autoread, no UI", async () => {
		await reset();
		await nvim.keys("2G0fw", "n");
		const snapshot = await state();
		expect(snapshot).toMatchObject({
			cwd: join(dir.path, "proj"),
			ui: false,
			mode: "n",
			buffer: { file: file(), language: "text", modified: false, lines_total: 4, autoread: true },
		});
		// "héllo " is 7 bytes: the w of wörld starts at byte column 8.
		expect(snapshot.buffer?.cursor).toEqual({ line: 2, column: 8 });
	});

	test.each([
		[
			"v on one line: the exact bytes, the last character whole",
			"2G0lvlll",
			"v",
			{ line: 2, column: 2 },
			{ line: 2, column: 6 },
			"éllo",
		],
		[
			"v across lines: whole lines",
			"1G0lvj",
			"v",
			{ line: 1, column: 2 },
			{ line: 2, column: 2 },
			"line one\nhéllo wörld 🌍 end",
		],
		[
			"V: whole lines, columns to the line's end",
			"3GVj",
			"V",
			{ line: 3, column: 1 },
			{ line: 4, column: 6 },
			"third line\nfourth",
		],
		[
			"<C-v>: whole lines, the anchors' columns",
			"1G0l<C-v>jl",
			"\u0016",
			{ line: 1, column: 2 },
			{ line: 2, column: 4 },
			"line one\nhéllo wörld 🌍 end",
		],
		[
			"v backwards from the line's end: normalized, an astral character whole",
			"2G$v4h",
			"v",
			{ line: 2, column: 15 },
			{ line: 2, column: 22 },
			"🌍 end",
		],
	])("%s", async (_name, keys, mode, start, end, text) => {
		await reset();
		await nvim.keys(keys, mode);
		const snapshot = await state();
		expect(snapshot.mode).toBe(mode);
		expect(snapshot.selection).toEqual({ start, end, text, visual: true, linewise: mode === "V" });
	});

	test("after Esc: the last visual selection, from its marks", async () => {
		await reset();
		await nvim.keys("3GVj<Esc>", "n");
		await nvim.keys("1G", "n");
		const snapshot = await state();
		expect(snapshot.selection).toEqual({
			start: { line: 3, column: 1 },
			end: { line: 4, column: 6 },
			text: "third line\nfourth",
			visual: false,
			linewise: true,
		});
	});

	const at = (line: number, column: number) => ({ line, column });
	const MANY = "lines 14-20 left out";
	const ONE = "line 21 truncated";
	test.each([
		// Over lines: 13 whole lines (13 x 5 001 bytes), then 987 bytes of line 14, cut inside it.
		["ggVG over 20 lines of 5 000", "1GV20G", "V", at(1, 1), at(20, 5000), 14, MANY],
		["v across lines", "1G0lv20G", "v", at(1, 2), at(20, 2), 14, MANY],
		["a block across lines", "1G0l<C-v>20Gl", "\u0016", at(1, 2), at(20, 3), 14, MANY],
		["0v$ on one 100 000-byte line", "21G0v$", "v", at(21, 1), at(21, 100_000), 1, ONE],
		["V on one 100 000-byte line", "21GV", "V", at(21, 1), at(21, 100_000), 1, ONE],
		["a block inside one long line", "21G0<C-v>$", "\u0016", at(21, 1), at(21, 100_000), 1, ONE],
	])(
		"a large selection, %s: cut at the Lua's cap inside a line, then pi's cut notes it",
		async (_name, keys, mode, start, end, lines, note) => {
			await reset();
			await nvim.command("edit big.txt");
			await nvim.keys(keys, mode);
			const { selection } = await state();
			expect(selection).toMatchObject({ start, end, visual: true, linewise: mode === "V" });
			const text = selection?.text ?? "";
			expect(Buffer.byteLength(text)).toBe(LUA_SELECTION_BYTES);
			expect(text.split("\n")).toHaveLength(lines);
			// Whole lines unless a charwise selection inside one line: the text starts where the buffer's lines do.
			const from = mode === "v" && start.line === end.line ? start.column - 1 : 0;
			expect(
				BIG_TEXT.split("\n")
					.slice(start.line - 1)
					.join("\n")
					.slice(from)
					.startsWith(text),
			).toBe(true);
			expect(cutText(text, { first: start.line, last: end.line }, "selection").note).toContain(note);
			// The marks after Esc: the same cut.
			await nvim.keys("<Esc>", "n");
			expect((await state()).selection).toMatchObject({ start, end, text, visual: false });
		},
	);

	test("a large selection of two-byte characters is cut on a character boundary", async () => {
		await reset();
		await nvim.command("edit big.txt");
		await nvim.keys("22G0v$", "v");
		const text = (await state()).selection?.text ?? "";
		// Byte 66 000 starts an é: the cut stops one byte before it, never inside it.
		expect(Buffer.byteLength(text)).toBe(LUA_SELECTION_BYTES - 1);
		expect(text).toBe(`a${"é".repeat((LUA_SELECTION_BYTES - 2) / 2)}`);
	});

	test("diagnostics: errors first, 1-based, source kept", async () => {
		await reset();
		await nvim.lua(
			`local ns = vim.api.nvim_create_namespace("pi_ide_test")
			vim.diagnostic.set(ns, 0, {
				{ lnum = 3, col = 0, severity = vim.diagnostic.severity.WARN, message = "a warning", source = "lint" },
				{ lnum = 1, col = 6, severity = vim.diagnostic.severity.ERROR, message = "an error\\nwith two lines" },
				{ lnum = 0, col = 0, severity = vim.diagnostic.severity.HINT, message = "a hint" },
			})`,
		);
		const snapshot = await state();
		expect(snapshot.buffer?.diagnostics).toEqual([
			{ line: 2, column: 7, severity: "error", message: "an error\nwith two lines" },
			{ line: 4, column: 1, severity: "warning", message: "a warning", source: "lint" },
			{ line: 1, column: 1, severity: "hint", message: "a hint" },
		]);
		await nvim.lua(`vim.diagnostic.reset(vim.api.nvim_create_namespace("pi_ide_test"))`);
	});

	test("a terminal window is skipped: the file beside it is what the user means", async () => {
		await reset();
		await nvim.keys("3G", "n");
		await nvim.command("belowright split | terminal");
		await waitFor("the terminal window", async () => (await nvim.lua("return vim.bo.buftype")) === "terminal");
		const snapshot = await state();
		expect(snapshot.buffer?.file).toBe(file());
		expect(snapshot.buffer?.cursor.line).toBe(3);
		await nvim.command("bwipeout!");
	});

	test("unsaved: every modified normal buffer, hidden ones too", async () => {
		await reset();
		await nvim.command("edit other.txt");
		await nvim.keys("iX<Esc>", "n");
		await nvim.command("edit main.txt");
		await nvim.keys("iY<Esc>", "n");
		expect((await nvim.lua(UNSAVED_LUA)) as string[]).toEqual(
			expect.arrayContaining([file(), join(dir.path, "proj", "other.txt")]),
		);
		expect((await state()).buffer?.modified).toBe(true);
		await nvim.command("silent! bufdo! edit!");
		expect(await nvim.lua(UNSAVED_LUA)).toEqual([]);
	});

	test("reload: only a loaded, unmodified buffer with autoread on, silently", async () => {
		await reset();
		const target = file();
		writeFileSync(target, `${TEXT}appended by the model\n`);
		expect(await nvim.lua(RELOAD_LUA, target)).toBe("reloaded");
		expect(await nvim.lua("return vim.api.nvim_buf_line_count(0)")).toBe(5);
		expect(await nvim.lua("return vim.fn.execute('messages')")).not.toContain("main.txt");
		expect(await nvim.lua(RELOAD_LUA, join(dir.path, "proj", "never-opened.txt"))).toBe("not-loaded");
		await nvim.keys("iZ<Esc>", "n");
		expect(await nvim.lua(RELOAD_LUA, target)).toBe("modified");
		await nvim.command("edit!");
		await nvim.command("setlocal noautoread");
		expect(await nvim.lua(RELOAD_LUA, target)).toBe("autoread-off");
		await nvim.command("setlocal autoread<");
		writeFileSync(target, TEXT);
		await nvim.command("edit!");
		expect(readFileSync(target, "utf8")).toBe(TEXT);
	});

	test("pushes: throttled, from the group; gone once pi's channel is", async () => {
		await reset();
		const pushes: unknown[] = [];
		const pi = await RpcConnection.open(nvim.socket, {
			clock: systemClock,
			timeoutMs: 2000,
			onNotification: (method, params) => method === "pi_ide_state" && pushes.push(params),
		});
		if (typeof pi === "string") throw new Error(pi);
		const info = await pi.request("nvim_get_api_info", [], 2000);
		const channel = (info.ok && (info.value as unknown[])[0]) as number;
		const group = `pi_ide_${channel}`;
		expect((await pi.request("nvim_exec_lua", [PUSH_LUA, [channel, group, 20]], 2000)).ok).toBe(true);
		expect(await nvim.piGroups()).toContain(group);
		// Ten moves at once: the first is pushed at once, the last after the window, not ten pushes.
		await nvim.keys("jkjkjkjkjG", "n");
		await waitFor("the trailing push", () => {
			const last = pushes.at(-1) as [Snapshot] | undefined;
			return last?.[0].buffer?.cursor.line === 4;
		});
		expect(pushes.length).toBeLessThanOrEqual(4);
		const first = parseSnapshot((pushes[0] as unknown[])[0]);
		expect(first.ok).toBe(true);
		// Leaving visual mode is flagged in the next push.
		await nvim.keys("v<Esc>", "n");
		await waitFor("a push saying visual mode was left", () =>
			pushes.some((push) => (push as [Snapshot])[0].left_visual === true),
		);
		// pi stops the pushes: the group goes.
		expect((await pi.request("nvim_exec_lua", [STOP_PUSHES_LUA, [group]], 2000)).ok).toBe(true);
		expect(await nvim.piGroups()).not.toContain(group);
		// Started again, then pi goes away: the next event deletes the group, and Neovim shows nothing.
		await pi.request("nvim_exec_lua", [PUSH_LUA, [channel, group, 20]], 2000);
		pi.close();
		await nvim.keys("k", "n");
		await waitFor("the group gone after pi left", async () => !(await nvim.piGroups()).includes(group));
		expect(await nvim.lua("return vim.v.errmsg")).toBe("");
	});

	test("pi leaving: one request takes its pushes, its asks and its question; a killed pi's go at the next event", async () => {
		await reset();
		/** A pi as pi joins a Neovim: pushes, asks registered, a question shown (without the focus). */
		async function joined() {
			const pi = await RpcConnection.open(nvim.socket, {
				clock: systemClock,
				timeoutMs: 2000,
				onNotification: () => {},
			});
			if (typeof pi === "string") throw new Error(pi);
			const info = await pi.request("nvim_get_api_info", [], 2000);
			const channel = (info.ok && (info.value as unknown[])[0]) as number;
			const run = async (chunk: string, ...args: unknown[]) => {
				const answer = await pi.request("nvim_exec_lua", [chunk, args], 2000);
				if (!answer.ok) throw new Error(answer.reason);
				return answer.value;
			};
			await run(PUSH_LUA, channel, `pi_ide_${channel}`, 20);
			await run(ASK_START_LUA, channel, { pid: 1, project: dir.path, connected: true }, ASK_COMMANDS);
			const question = { id: 1, title: "Allow the write?", choices: ["Allow", "Deny"] };
			expect(await run(QUESTION_SHOW_LUA, channel, question, true)).toBe("shown");
			return { pi, channel, run };
		}
		const leftOfPi = async () => ({
			groups: (await nvim.piGroups()).sort(),
			modules: await nvim.lua(
				"local n = {} for name in pairs(package.loaded) do if name:match('^pi_ide') then n[#n + 1] = name end end table.sort(n) return n",
			),
			floats: await nvim.lua(
				"local n = 0 for _, w in ipairs(vim.api.nvim_list_wins()) do if vim.api.nvim_win_get_config(w).relative ~= '' then n = n + 1 end end return n",
			),
			pi: await nvim.lua("return vim.fn.exists(':Pi')"),
		});
		// The question's module stays loaded (empty): only what shows, runs or is defined counts as left.
		const NOTHING = { groups: [], modules: ["pi_ide_questions"], floats: 0, pi: 0 };

		const first = await joined();
		const pushes = `pi_ide_${first.channel}`;
		expect(await leftOfPi()).toEqual({
			groups: [pushes, "pi_ide_asks", "pi_ide_questions"].sort(),
			modules: ["pi_ide_asks", "pi_ide_questions"],
			floats: 1,
			pi: 2,
		});
		// Its asks turned off while it runs: its question goes with them; its pushes stay.
		await first.run(ASK_STOP_LUA, first.channel);
		expect(await leftOfPi()).toEqual({ ...NOTHING, groups: [pushes] });
		await first.run(LEAVE_LUA, first.channel, pushes);
		expect(await leftOfPi()).toEqual(NOTHING);
		first.pi.close();

		// Leaving at its session's end: one request takes all of it.
		const second = await joined();
		expect(await second.run(LEAVE_LUA, second.channel, `pi_ide_${second.channel}`)).toBe(true);
		expect(await leftOfPi()).toEqual(NOTHING);
		second.pi.close();

		// Killed: nothing sent, the pushes' group finds pi gone at Neovim's next event and takes the rest.
		const third = await joined();
		third.pi.close();
		await nvim.keys("ggj", "n");
		await waitFor(
			"a killed pi's leftovers gone",
			async () => JSON.stringify(await leftOfPi()) === JSON.stringify(NOTHING),
		);
		expect(await nvim.lua("return vim.v.errmsg")).toBe("");
	});
});
