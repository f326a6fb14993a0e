import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { NEOVIM_DIFF_CLOSE_LUA, NEOVIM_DIFF_OPEN_LUA } from "../../../src/review/core/neovim-diff-lua.ts";

/** docs/security.md promises the review's Lua verbatim, as it does every other chunk pi sends into Neovim. */
describe("docs/security.md quotes the review's Lua", () => {
	const docs = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "security.md"), "utf8");
	const OPEN_FROM = "local channel, group_name, request";
	const CLOSE_FROM = "local channel, group_name, id";
	const functions = NEOVIM_DIFF_OPEN_LUA.slice(0, NEOVIM_DIFF_OPEN_LUA.indexOf(OPEN_FROM));
	const tail = (chunk: string, from: string) => chunk.slice(chunk.indexOf(from)).trim();
	const quoted = (lua: string) => `\`\`\`lua\n${lua}\n\`\`\``;

	test.each([
		["the review's functions", functions.trim()],
		["opening a review", tail(NEOVIM_DIFF_OPEN_LUA, OPEN_FROM)],
		["closing a review", tail(NEOVIM_DIFF_CLOSE_LUA, CLOSE_FROM)],
	])("%s", (_name, chunk) => {
		expect(docs).toContain(quoted(chunk));
	});

	test("both chunks start with the same functions", () => {
		expect(functions.trim()).toContain("local function close_reviews");
		expect(NEOVIM_DIFF_CLOSE_LUA.startsWith(functions)).toBe(true);
	});

	test("no API deprecated in Neovim 0.10, none missing from 0.7: vim.bo[buf] for options, vim.uv or vim.loop", () => {
		for (const chunk of [NEOVIM_DIFF_OPEN_LUA, NEOVIM_DIFF_CLOSE_LUA]) {
			expect(chunk).not.toMatch(/nvim_(buf|win)_[gs]et_option/);
			expect(chunk).not.toMatch(/nvim_[gs]et_option_value/);
			expect(chunk.replaceAll("vim.uv or vim.loop", "")).not.toContain("vim.loop");
		}
		// vim.filetype.match({ ... }) is 0.8's: on 0.7 the chunk runs the detection autocmds instead.
		expect(NEOVIM_DIFF_OPEN_LUA).toContain(
			'if vim.fn.has("nvim-0.8") == 1 then\n    local ok, filetype, on_detect = pcall(vim.filetype.match',
		);
	});

	test("no command's text is built from an argument: only fixed commands and numbers", () => {
		for (const chunk of [NEOVIM_DIFF_OPEN_LUA, NEOVIM_DIFF_CLOSE_LUA]) {
			const built = [...chunk.matchAll(/vim\.cmd,?\s*\(?("[^"]*"\s*\.\.[^\n]*)/g)].map((match) => match[1]);
			expect(built).toEqual(['"tabclose " .. api.nvim_tabpage_get_number(tab))']);
		}
	});
});
