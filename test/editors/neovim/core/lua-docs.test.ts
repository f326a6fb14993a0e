import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
	ASK_FOLLOW_DISK_LUA,
	ASK_REPLY_LUA,
	ASK_SAY_LUA,
	ASK_START_LUA,
	ASK_STOP_LUA,
} from "../../../../src/editors/neovim/core/ask-lua.ts";
import {
	CHANNEL_LUA,
	LEAVE_LUA,
	PUSH_LUA,
	RELOAD_LUA,
	STATE_LUA,
	STOP_PUSHES_LUA,
	UNSAVED_LUA,
} from "../../../../src/editors/neovim/core/lua.ts";
import { QUESTION_CLOSE_LUA, QUESTION_SHOW_LUA } from "../../../../src/editors/neovim/core/question-lua.ts";
import { SUGGEST_FUNCTIONS } from "../../../../src/editors/neovim/core/suggest-context-lua.ts";
import {
	SUGGEST_SHOW_LUA,
	SUGGEST_START_LUA,
	SUGGEST_STOP_LUA,
} from "../../../../src/editors/neovim/core/suggest-lua.ts";

/** docs/security.md promises the Lua pi sends into Neovim, verbatim: this keeps the promise. */
describe("docs/security.md quotes every chunk of Lua pi sends into Neovim", () => {
	const docs = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "docs", "security.md"), "utf8");
	const tail = (chunk: string, from: string) => chunk.slice(chunk.indexOf(from)).trim();
	test.each([
		["finding pi's channel", CHANNEL_LUA.trim()],
		["the state", STATE_LUA.trim()],
		["the unsaved list", tail(UNSAVED_LUA, "return unsaved()")],
		["the pushes", tail(PUSH_LUA, "local channel, group_name")],
		["stopping the pushes", STOP_PUSHES_LUA.trim()],
		["pi leaving at its session's end", LEAVE_LUA.trim()],
		["showing the model's write", RELOAD_LUA.trim()],
		["the ghost text's functions", SUGGEST_FUNCTIONS.trim()],
		["starting the ghost text", tail(SUGGEST_START_LUA, "local channel, options = ...")],
		["showing an answer", SUGGEST_SHOW_LUA.trim()],
		["stopping the ghost text", SUGGEST_STOP_LUA.trim()],
		["registering pi for asks", tail(ASK_START_LUA, "local channel, me, names = ...")],
		["pi leaving the asks", ASK_STOP_LUA.trim()],
		["pi's words", ASK_SAY_LUA.trim()],
		["the reply's view", ASK_REPLY_LUA.trim()],
		["following the disk", ASK_FOLLOW_DISK_LUA.trim()],
		["pi's question", QUESTION_SHOW_LUA.trim()],
		["the question's copy closed", QUESTION_CLOSE_LUA.trim()],
	])("%s", (_name, chunk) => {
		expect(docs).toContain(`\`\`\`lua\n${chunk}\n\`\`\``);
	});
	test("no API deprecated in Neovim 0.10: vim.bo[buf] for options, vim.uv or vim.loop for libuv", () => {
		const chunks = [CHANNEL_LUA, STATE_LUA, UNSAVED_LUA, PUSH_LUA, STOP_PUSHES_LUA, LEAVE_LUA, RELOAD_LUA];
		const asks = [ASK_START_LUA, ASK_STOP_LUA, ASK_SAY_LUA, ASK_REPLY_LUA, ASK_FOLLOW_DISK_LUA];
		asks.push(QUESTION_SHOW_LUA, QUESTION_CLOSE_LUA);
		for (const chunk of [...chunks, SUGGEST_START_LUA, SUGGEST_SHOW_LUA, SUGGEST_STOP_LUA, ...asks]) {
			expect(chunk).not.toMatch(/nvim_(buf|win)_[gs]et_option/);
			expect(chunk.replaceAll("vim.uv or vim.loop", "")).not.toContain("vim.loop");
		}
	});
	test("the shared functions open every chunk", () => {
		const functions = STATE_LUA.slice(0, STATE_LUA.lastIndexOf("return state(nil)"));
		for (const chunk of [UNSAVED_LUA, PUSH_LUA, ASK_START_LUA]) expect(chunk.startsWith(functions)).toBe(true);
		expect(SUGGEST_START_LUA.startsWith(SUGGEST_FUNCTIONS)).toBe(true);
	});
});
