import { describe, expect, test } from "vitest";
import {
	type BridgeMessage,
	type BridgeOutgoing,
	bridgeLine,
	readBridgeLine,
} from "../../../src/pi-bridge/core/bridge-messages.ts";

const FULL_CONTEXT = {
	file: "/home/ada/p/src/a.lua",
	cwd: "/home/ada/p",
	mode: "visual",
	filetype: "lua",
	buffer_state: "saved",
	range: "25,40-45",
};
const PROMPT = { type: "prompt", text: "explain\n\n```lua\nlocal x = 1\n```\n\n", context: FULL_CONTEXT };

const line = (value: unknown) => JSON.stringify(value);

describe("the plugin's messages, read", () => {
	test.each<[string, unknown, BridgeMessage]>([
		["a prompt with every context field", PROMPT, { type: "prompt", prompt: PROMPT as never }],
		[
			"a prompt with only the required context (an older plugin: no filetype, state or range)",
			{ type: "prompt", text: "hi", context: { file: "", cwd: "/p", mode: "normal" } },
			{ type: "prompt", prompt: { type: "prompt", text: "hi", context: { file: "", cwd: "/p", mode: "normal" } } },
		],
		[
			"a prompt with an empty filetype (a buffer with none)",
			{ type: "prompt", text: "hi", context: { file: "/p/x", cwd: "/p", mode: "normal", filetype: "" } },
			{
				type: "prompt",
				prompt: { type: "prompt", text: "hi", context: { file: "/p/x", cwd: "/p", mode: "normal", filetype: "" } },
			},
		],
		...["25", "12-200", "1,2-3,4,5-10"].map((range): [string, unknown, BridgeMessage] => {
			const prompt = { type: "prompt", text: "x", context: { file: "/p/a", cwd: "/p", mode: "normal", range } };
			return [`a prompt with range ${range}`, prompt, { type: "prompt", prompt: prompt as never }];
		}),
		...["nameless", "scratch", "unsaved", "modified", "saved"].map((state): [string, unknown, BridgeMessage] => {
			const prompt = {
				type: "prompt",
				text: "x",
				context: { file: "/p/a", cwd: "/p", mode: "normal", buffer_state: state },
			};
			return [`a prompt from a ${state} buffer`, prompt, { type: "prompt", prompt: prompt as never }];
		}),
		["approval_ack with a string id", { type: "approval_ack", id: "a1b2" }, { type: "approval_ack", id: "a1b2" }],
		["approval_ack with a number id", { type: "approval_ack", id: 7 }, { type: "approval_ack", id: 7 }],
		...(["yes", "all", "no"] as const).map((decision): [string, unknown, BridgeMessage] => [
			`approval_response ${decision}`,
			{ type: "approval_response", id: "r1", decision },
			{ type: "approval_response", id: "r1", decision },
		]),
		["mirror_ready", { type: "mirror_ready" }, { type: "mirror_ready" }],
		[
			"ui_prompt_response with a value (the whole label)",
			{
				type: "ui_prompt_response",
				id: 3,
				value: "Allow once — and a label longer than eighty characters, sent whole",
			},
			{
				type: "ui_prompt_response",
				id: 3,
				answer: { value: "Allow once — and a label longer than eighty characters, sent whole" },
			},
		],
		[
			"ui_prompt_response cancelled",
			{ type: "ui_prompt_response", id: 3, cancelled: true },
			{ type: "ui_prompt_response", id: 3, answer: { cancelled: true } },
		],
		[
			"ui_prompt_response with Esc as a key",
			{ type: "ui_prompt_response", id: 4, key: "\u001b" },
			{ type: "ui_prompt_response", id: 4, answer: { key: "\u001b" } },
		],
		[
			"ui_prompt_response with an empty value (a label may be empty)",
			{ type: "ui_prompt_response", id: 5, value: "" },
			{ type: "ui_prompt_response", id: 5, answer: { value: "" } },
		],
	])("%s", (_name, message, expected) => {
		expect(readBridgeLine(line(message))).toEqual({ ok: true, message: expected });
	});

	test("a prompt with an older plugin's extra fields (content, cursor, current_line, surrounding) is accepted", () => {
		const old = {
			type: "prompt",
			text: "why?",
			context: {
				file: "/p/a.lua",
				cwd: "/p",
				mode: "normal",
				content: "local x = 1\nlocal y = 2",
				cursor: { line: 2, col: 0 },
				current_line: "local y = 2",
				surrounding: ["local x = 1", "local y = 2"],
			},
		};
		const read = readBridgeLine(line(old));
		expect(read.ok && read.message.type).toBe("prompt");
		expect(read.ok && read.message.type === "prompt" && read.message.prompt.text).toBe("why?");
	});

	test.each([
		["agent_start (pi's own type echoed)", { type: "agent_start", message: "x" }, "agent_start"],
		["a type of a newer plugin", { type: "cursor_moved", line: 3 }, "cursor_moved"],
		["__proto__", { type: "__proto__" }, "__proto__"],
		["constructor", { type: "constructor" }, "constructor"],
		["hasOwnProperty", { type: "hasOwnProperty" }, "hasOwnProperty"],
		["a long name, cut to 60 characters", { type: "t".repeat(500) }, "t".repeat(60)],
	])("an unknown type is ignored, not malformed: %s", (_name, message, name) => {
		expect(readBridgeLine(line(message))).toEqual({ ok: true, message: { type: "ignored", name } });
	});

	test.each<[string, string, RegExp]>([
		["not JSON", "{type: prompt}", /^a line that is not JSON$/],
		["half a JSON object", '{"type":"prompt"', /not JSON/],
		["JSON null", "null", /without a string type/],
		["a JSON array", '[{"type":"mirror_ready"}]', /without a string type/],
		["a JSON string", '"mirror_ready"', /without a string type/],
		["no type", line({ text: "hi" }), /without a string type/],
		["a number as type", line({ type: 3 }), /without a string type/],
		[
			"mode insert",
			line({ ...PROMPT, context: { ...FULL_CONTEXT, mode: "insert" } }),
			/^a malformed prompt \(\/context\/mode: /,
		],
		["no mode", line({ type: "prompt", text: "x", context: { file: "/p/a", cwd: "/p" } }), /a malformed prompt/],
		["no context", line({ type: "prompt", text: "x" }), /a malformed prompt/],
		["a number as text", line({ ...PROMPT, text: 42 }), /a malformed prompt/],
		["file null", line({ ...PROMPT, context: { ...FULL_CONTEXT, file: null } }), /a malformed prompt/],
		[
			"approval_response maybe",
			line({ type: "approval_response", id: "r1", decision: "maybe" }),
			/^a malformed approval_response \(\/decision: /,
		],
		[
			"approval_response without an id",
			line({ type: "approval_response", decision: "yes" }),
			/malformed approval_response/,
		],
		["approval_ack with an object id", line({ type: "approval_ack", id: { x: 1 } }), /a malformed approval_ack/],
		["approval_ack with a fractional id", line({ type: "approval_ack", id: 1.5 }), /a malformed approval_ack/],
		["an id past 200 characters", line({ type: "approval_ack", id: "i".repeat(201) }), /a malformed approval_ack/],
		[
			"ui_prompt_response with value and cancelled",
			line({ type: "ui_prompt_response", id: 1, value: "Yes", cancelled: true }),
			/exactly one of value, cancelled, key/,
		],
		[
			"ui_prompt_response with value and key",
			line({ type: "ui_prompt_response", id: 1, value: "Yes", key: "\u001b" }),
			/exactly one of value, cancelled, key/,
		],
		[
			"ui_prompt_response with cancelled and key",
			line({ type: "ui_prompt_response", id: 1, cancelled: true, key: "\u001b" }),
			/exactly one of value, cancelled, key/,
		],
		[
			"ui_prompt_response with none",
			line({ type: "ui_prompt_response", id: 1 }),
			/exactly one of value, cancelled, key/,
		],
		[
			"ui_prompt_response cancelled false",
			line({ type: "ui_prompt_response", id: 1, cancelled: false }),
			/malformed ui_prompt_response/,
		],
		[
			"ui_prompt_response value null",
			line({ type: "ui_prompt_response", id: 1, value: null }),
			/malformed ui_prompt_response/,
		],
	])("malformed, with a reason, never a throw: %s", (_name, text, reason) => {
		let read: ReturnType<typeof readBridgeLine> | undefined;
		expect(() => {
			read = readBridgeLine(text);
		}).not.toThrow();
		expect(read?.ok).toBe(false);
		expect(read?.ok === false && read.reason).toMatch(reason);
	});
});

describe("what pi sends the plugin", () => {
	test.each<[string, BridgeOutgoing]>([
		["agent_start", { type: "agent_start", message: "Claude is working" }],
		["agent_end with lines in its message", { type: "agent_end", message: "done\nchanged a.lua" }],
		["error", { type: "error", message: "pi: not sent", code: "no_active_pi" }],
		[
			"approval_request with a diff of many lines",
			{
				type: "approval_request",
				id: "q1",
				tool: "edit",
				path: "/p/a.lua",
				diff: "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n",
			},
		],
		["approval_resolved", { type: "approval_resolved", id: "q1" }],
		[
			"ui_prompt_request",
			{
				type: "ui_prompt_request",
				id: 2,
				kind: "select",
				title: "Pick",
				options: ["a\nb", "c"],
				lines: ["\u001b[1mx"],
			},
		],
		["ui_prompt_resolved", { type: "ui_prompt_resolved", id: 2 }],
		["a text with U+2028 and a NUL", { type: "agent_end", message: "a\u2028b\u0000c" }],
	])("%s: one line, ending with its one newline, that reads back as sent", (_name, message) => {
		const text = bridgeLine(message);
		expect(text.endsWith("\n")).toBe(true);
		expect(text.indexOf("\n")).toBe(text.length - 1);
		expect(JSON.parse(text)).toEqual(message);
	});
});

describe("an optional context field pi does not know is dropped, not the prompt (as pi-bridge.ext reads it)", () => {
	test.each<[string, Record<string, unknown>, string]>([
		["buffer_state dirty", { buffer_state: "dirty" }, "buffer_state"],
		["range 3-", { range: "3-" }, "range"],
		["range -3", { range: "-3" }, "range"],
		["range 1,,2", { range: "1,,2" }, "range"],
		["range with a newline", { range: "3\n4" }, "range"],
		["range as a number", { range: 3 }, "range"],
		["filetype as a number", { filetype: 7 }, "filetype"],
	])("%s", (_name, field, dropped) => {
		const read = readBridgeLine(line({ ...PROMPT, context: { ...FULL_CONTEXT, ...field } }));
		expect(read.ok).toBe(true);
		const context = read.ok && read.message.type === "prompt" ? read.message.prompt.context : {};
		expect(context).not.toHaveProperty(dropped);
		expect(context).toMatchObject({ file: FULL_CONTEXT.file, mode: FULL_CONTEXT.mode });
	});
});
