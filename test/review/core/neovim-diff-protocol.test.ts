import { describe, expect, test } from "vitest";
import { MAX_ACCEPTED_TEXT_CHARS, MAX_REJECT_REASON_CHARS } from "../../../src/review/core/diff-host.ts";
import {
	answerFromEvent,
	bufferNames,
	bufferSide,
	closeArguments,
	openArguments,
	reviewGroupName,
	shownFromOpen,
} from "../../../src/review/core/neovim-diff-protocol.ts";

describe("a text as a Neovim buffer holds it", () => {
	test.each([
		["a new file", undefined, { lines: [""], eol: false, dos: false, bom: false }],
		["an empty file", "", { lines: [""], eol: false, dos: false, bom: false }],
		["one empty line", "\n", { lines: [""], eol: true, dos: false, bom: false }],
		["LF, ended", "a\nb\n", { lines: ["a", "b"], eol: true, dos: false, bom: false }],
		["LF, no final newline", "a\nb", { lines: ["a", "b"], eol: false, dos: false, bom: false }],
		["CRLF", "a\r\nb\r\n", { lines: ["a", "b"], eol: true, dos: true, bom: false }],
		["CRLF, no final newline", "a\r\nb", { lines: ["a", "b"], eol: false, dos: true, bom: false }],
		// pi's edit tool judges by the first line ending; every line still shows without ^M.
		["mixed, LF first", "a\nb\r\nc\n", { lines: ["a", "b", "c"], eol: true, dos: false, bom: false }],
		["mixed, CRLF first", "a\r\nb\nc\n", { lines: ["a", "b", "c"], eol: true, dos: true, bom: false }],
		["a lone CR at the end ends no line", "a\r\nb\r", { lines: ["a", "b\r"], eol: false, dos: true, bom: false }],
		["a CR inside a line stays", "a\rb\n", { lines: ["a\rb"], eol: true, dos: false, bom: false }],
		["a BOM", "\uFEFFa\n", { lines: ["a"], eol: true, dos: false, bom: true }],
		["only a BOM", "\uFEFF", { lines: [""], eol: false, dos: false, bom: true }],
		["blank lines kept", "\n\na\n\n", { lines: ["", "", "a", ""], eol: true, dos: false, bom: false }],
	])("%s", (_name, text, side) => {
		expect(bufferSide(text)).toEqual(side);
	});

	test("a few MB split in one pass: every line, no line ending left", () => {
		const text = `${Array.from({ length: 100_000 }, (_, index) => `line ${index}`).join("\r\n")}\r\n`;
		const side = bufferSide(text);
		expect(side.lines).toHaveLength(100_000);
		expect(side.lines.at(-1)).toBe("line 99999");
		expect(side.lines.some((line) => line.includes("\r"))).toBe(false);
		expect(side.dos).toBe(true);
	});
});

describe("what the review's buffers are called", () => {
	test.each([
		["src/a.ts", false, { left: "pi: src/a.ts (on disk)", right: "pi: src/a.ts (proposed)" }],
		["new.py", true, { left: "pi: new.py (new file)", right: "pi: new.py (proposed)" }],
		["a\nb\u001b[31m.ts", false, { left: "pi: a b.ts (on disk)", right: "pi: a b.ts (proposed)" }],
	])("%j", (displayName, isNew, names) => {
		expect(bufferNames(displayName, isNew)).toEqual(names);
	});

	test("a very long name is cut", () => {
		expect(bufferNames("x".repeat(5000), false).right.length).toBeLessThan(320);
	});
});

describe("the chunks' arguments", () => {
	const request = { id: "a1b2c3", file: "/p/a.ts", displayName: "a.ts", onDisk: "x\n", proposed: "y\n" };

	test("open: the channel, its group, and the review with both sides", () => {
		expect(openArguments(request, { channel: 7, enter: false, deadlineSeconds: 1_800_000_002 })).toEqual([
			7,
			"pi_ide_review_7",
			{
				id: "a1b2c3",
				file: "/p/a.ts",
				deadline: 1_800_000_002,
				enter: false,
				names: { left: "pi: a.ts (on disk)", right: "pi: a.ts (proposed)" },
				left: { lines: ["x"], eol: true, dos: false, bom: false },
				right: { lines: ["y"], eol: true, dos: false, bom: false },
			},
		]);
	});

	test("close: the channel, its group, the id", () => {
		expect(closeArguments(7, "a1b2c3")).toEqual([7, "pi_ide_review_7", "a1b2c3"]);
		expect(reviewGroupName(12)).toBe("pi_ide_review_12");
	});
});

describe("the open chunk's result", () => {
	test.each([
		["shown", { ok: true, value: { ok: true, tab: 2, entered: true } }, { ok: true, where: "tab page 2 of Neovim" }],
		[
			"refused by the Lua",
			{ ok: true, value: { ok: false, reason: "too late: pi stopped waiting" } },
			{ ok: false, reason: "Neovim did not open the diff: too late: pi stopped waiting" },
		],
		[
			"not asked (a prompt)",
			{ ok: false, reason: "Neovim is waiting for the user (a prompt): not asked" },
			{ ok: false, reason: "Neovim did not open the diff: Neovim is waiting for the user (a prompt): not asked" },
		],
		[
			"nonsense",
			{ ok: true, value: "yes" },
			{ ok: false, reason: "Neovim's answer to opening the diff was not understood" },
		],
		[
			"a list",
			{ ok: true, value: [1] },
			{ ok: false, reason: "Neovim's answer to opening the diff was not understood" },
		],
		[
			"no tab number",
			{ ok: true, value: { ok: true, tab: "2" } },
			{ ok: false, reason: "Neovim's answer to opening the diff was not understood" },
		],
		[
			"tab 0",
			{ ok: true, value: { ok: true, tab: 0 } },
			{ ok: false, reason: "Neovim's answer to opening the diff was not understood" },
		],
		[
			"a reason not a string",
			{ ok: true, value: { ok: false, reason: 5 } },
			{ ok: false, reason: "Neovim's answer to opening the diff was not understood" },
		],
	] as const)("%s", (_name, outcome, shown) => {
		expect(shownFromOpen(outcome)).toEqual(shown);
	});

	test("a long reason is cut", () => {
		const shown = shownFromOpen({ ok: true, value: { ok: false, reason: "x".repeat(10_000) } });
		expect(shown.ok === false && shown.reason.length).toBeLessThan(400);
	});
});

describe("a pi_ide_diff notification as the answer to review a1b2c3", () => {
	test.each([
		["accepted", ["a1b2c3", "accepted", "new\n"], { kind: "accepted", text: "new\n" }],
		["accepted, empty", ["a1b2c3", "accepted", ""], { kind: "accepted", text: "" }],
		["rejected with a reason", ["a1b2c3", "rejected", "  too long "], { kind: "rejected", reason: "too long" }],
		["rejected, no reason", ["a1b2c3", "rejected", ""], { kind: "rejected" }],
		["rejected, reason missing", ["a1b2c3", "rejected"], { kind: "rejected" }],
		["rejected, reason not a string", ["a1b2c3", "rejected", { a: 1 }], { kind: "rejected" }],
		["closed", ["a1b2c3", "closed", null], { kind: "closed" }],
		["another review's", ["ffffff", "accepted", "x"], undefined],
		["accepted without text", ["a1b2c3", "accepted"], undefined],
		["accepted with a number", ["a1b2c3", "accepted", 42], undefined],
		["an unknown kind", ["a1b2c3", "maybe", "x"], undefined],
		["not a list", { id: "a1b2c3" }, undefined],
		["nothing", undefined, undefined],
		["an id not a string", [42, "closed"], undefined],
	])("%s", (_name, params, answer) => {
		expect(answerFromEvent(params, "a1b2c3")).toEqual(answer);
	});

	test("an accepted text over the cap fails the review (pi's select decides); at the cap it counts", () => {
		expect(answerFromEvent(["a1b2c3", "accepted", "x".repeat(MAX_ACCEPTED_TEXT_CHARS + 1)], "a1b2c3")).toEqual({
			kind: "failed",
			reason: "the text accepted in Neovim is over 16 MiB: decide in pi",
		});
		expect(answerFromEvent(["a1b2c3", "accepted", "x".repeat(MAX_ACCEPTED_TEXT_CHARS)], "a1b2c3")?.kind).toBe(
			"accepted",
		);
	});

	test("a long reason is cut", () => {
		const answer = answerFromEvent(["a1b2c3", "rejected", "y".repeat(10_000)], "a1b2c3");
		expect(answer).toEqual({ kind: "rejected", reason: "y".repeat(MAX_REJECT_REASON_CHARS) });
	});
});
