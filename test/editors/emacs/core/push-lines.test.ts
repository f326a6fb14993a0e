import { describe, expect, test } from "vitest";
import { PushLines } from "../../../../src/editors/emacs/core/push-lines.ts";

const texts = (step: ReturnType<PushLines["push"]>) => (step.ok ? step.lines.map((line) => line.toString()) : step);

describe("the push connection's lines", () => {
	test.each([
		["one line", ["a\n"], [["a"]]],
		["two in one chunk", ["a\nb\n"], [["a", "b"]]],
		["a line over three chunks", ["a", "b", "c\nd"], [[], [], ["abc"]]],
		["empty lines are lines", ["\n\n"], [["", ""]]],
		["no newline yet", ["abc"], [[]]],
	])("%s", (_what, chunks, expected) => {
		const lines = new PushLines(100);
		expect(chunks.map((chunk) => texts(lines.push(Buffer.from(chunk))))).toEqual(expected);
	});

	test("a line of exactly the cap passes; one byte more ends it, across chunks too", () => {
		expect(texts(new PushLines(3).push(Buffer.from("abc\n")))).toEqual(["abc"]);
		expect(new PushLines(3).push(Buffer.from("abcd\n"))).toEqual({ ok: false, reason: "a line over 3 bytes" });
		const lines = new PushLines(3);
		expect(texts(lines.push(Buffer.from("ab")))).toEqual([]);
		expect(lines.waitingBytes).toBe(2);
		expect(lines.push(Buffer.from("cd"))).toEqual({ ok: false, reason: "a line over 3 bytes" });
	});

	test("a multibyte character split between chunks comes out whole", () => {
		const bytes = Buffer.from("é😀\n");
		const lines = new PushLines(100);
		lines.push(bytes.subarray(0, 3));
		expect(texts(lines.push(bytes.subarray(3)))).toEqual(["é😀"]);
	});
});
