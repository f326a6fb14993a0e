import { describe, expect, test } from "vitest";
import { assistantText, MAX_REPLY_CHARS, replyOf, userText } from "../../../src/asks/core/reply-text.ts";

const NOTE = `\n\n[reply cut at ${MAX_REPLY_CHARS / 1024} KiB]`;

describe("assistantText: the reply's words, thinking and tool calls left out", () => {
	test.each<[string, unknown, string | undefined]>([
		["a string content", { role: "assistant", content: "Hello" }, "Hello"],
		[
			"thinking and a tool call among the texts",
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "the user wants x" },
					{ type: "text", text: "Looking at it." },
					{ type: "toolCall", id: "1", name: "read", arguments: { path: "a.ts" } },
					{ type: "text", text: "It is fine." },
				],
			},
			"Looking at it.\nIt is fine.",
		],
		["only thinking so far", { role: "assistant", content: [{ type: "thinking", thinking: "hmm" }] }, ""],
		["only a tool call", { role: "assistant", content: [{ type: "toolCall", name: "bash", arguments: {} }] }, ""],
		[
			"empty texts skipped",
			{
				role: "assistant",
				content: [
					{ type: "text", text: "" },
					{ type: "text", text: "a" },
				],
			},
			"a",
		],
		["a text part without text", { role: "assistant", content: [{ type: "text", text: 5 }, null, 7] }, ""],
		["no content", { role: "assistant" }, ""],
		["a user message", { role: "user", content: "hi" }, undefined],
		["a tool result", { role: "toolResult", content: [{ type: "text", text: "x" }] }, undefined],
		["null", null, undefined],
		["a string", "assistant", undefined],
	])("%s", (_name, message, text) => {
		expect(assistantText(message)).toBe(text);
	});
});

describe("userText: a user message's text, to match a queued ask", () => {
	test.each<[string, unknown, string | undefined]>([
		["a string content", { role: "user", content: "[asked from Neovim 1]\nwhy?" }, "[asked from Neovim 1]\nwhy?"],
		[
			"text parts joined as they were split; an image left out",
			{
				role: "user",
				content: [
					{ type: "text", text: "why" },
					{ type: "image", data: "AAAA" },
					{ type: "text", text: "?" },
				],
			},
			"why?",
		],
		["no content", { role: "user" }, undefined],
		["an assistant message", { role: "assistant", content: "why?" }, undefined],
		["undefined", undefined, undefined],
	])("%s", (_name, message, text) => {
		expect(userText(message)).toBe(text);
	});
});

describe("replyOf: the reply as one text, cut at the cap with a note", () => {
	test.each<[string, { done: string[]; current: string }, string]>([
		["nothing yet", { done: [], current: "" }, ""],
		["streaming the first message", { done: [], current: "Hel" }, "Hel"],
		[
			"finished messages and the one streaming",
			{ done: ["First.", "Second."], current: "Thi" },
			"First.\n\nSecond.\n\nThi",
		],
		["finished messages only", { done: ["First.", "Second."], current: "" }, "First.\n\nSecond."],
	])("%s", (_name, parts, text) => {
		expect(replyOf(parts)).toBe(text);
	});

	test("at the cap: whole, no note", () => {
		const text = "a".repeat(MAX_REPLY_CHARS);
		expect(replyOf({ done: [text], current: "" })).toBe(text);
	});

	test("over the cap: its head, then the note", () => {
		const out = replyOf({ done: ["a".repeat(MAX_REPLY_CHARS - 10)], current: "b".repeat(100) });
		expect(out).toBe(`${"a".repeat(MAX_REPLY_CHARS - 10)}\n\n${"b".repeat(8)}${NOTE}`);
		expect(out.length).toBe(MAX_REPLY_CHARS + NOTE.length);
	});

	test("a cut never splits a character of two UTF-16 units", () => {
		const out = replyOf({ done: [`${"a".repeat(MAX_REPLY_CHARS - 1)}😀tail`], current: "" });
		expect(out).toBe(`${"a".repeat(MAX_REPLY_CHARS - 1)}${NOTE}`);
		expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
	});
});
