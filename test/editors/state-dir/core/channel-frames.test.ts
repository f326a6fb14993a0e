import { describe, expect, test } from "vitest";
import {
	CHANNEL_MAX_FRAME_BYTES,
	frameText,
	LineFrames,
} from "../../../../src/editors/state-dir/core/channel-frames.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("LineFrames: the channel's newline-delimited lines, cut from chunks as they come", () => {
	test.each([
		["one whole line", ["a\n"], ["a"]],
		["two lines in one chunk", ["a\nb\n"], ["a", "b"]],
		["a line across three chunks", ['{"x"', ":", "1}\n"], ['{"x":1}']],
		["the unfinished end is kept for the next chunk", ["a\nb", "c\n"], ["a", "bc"]],
		["empty lines are no messages", ["\n\na\n\n"], ["a"]],
		["a CR before the newline stays (JSON ignores it)", ["a\r\n"], ["a\r"]],
	])("%s", (_name, chunks, frames) => {
		const lines = new LineFrames();
		expect(chunks.flatMap((chunk) => lines.push(bytes(chunk)).frames)).toEqual(frames);
	});

	test("a character split between chunks is decoded whole", () => {
		const lines = new LineFrames();
		const whole = bytes("grüß 🌍\n");
		expect(lines.push(whole.subarray(0, 4)).frames).toEqual([]);
		expect(lines.push(whole.subarray(4, 8)).frames).toEqual([]);
		expect(lines.push(whole.subarray(8)).frames).toEqual(["grüß 🌍"]);
	});

	test("a line that is no UTF-8 is counted, and the lines beside it still come", () => {
		const out = new LineFrames().push(new Uint8Array([0x61, 0x0a, 0xff, 0xfe, 0x0a, 0x62, 0x0a]));
		expect(out).toEqual({ frames: ["a", "b"], undecodable: 1, overflow: false });
	});

	test("a kept chunk is a copy: the socket reusing its buffer changes nothing", () => {
		const lines = new LineFrames();
		const chunk = bytes("abc");
		lines.push(chunk);
		chunk.fill(0x7a);
		expect(lines.push(bytes("\n")).frames).toEqual(["abc"]);
	});

	test.each([
		["exactly at the cap", 10, false],
		["one byte over, in one chunk", 11, true],
	])("a line %s", (_name, length, overflow) => {
		const out = new LineFrames(10).push(bytes(`${"x".repeat(length)}\n`));
		expect(out.overflow).toBe(overflow);
		expect(out.frames).toEqual(overflow ? [] : ["x".repeat(10)]);
	});

	test("a line that outgrows the cap over several chunks, with no newline yet", () => {
		const lines = new LineFrames(10);
		expect(lines.push(bytes("x".repeat(6))).overflow).toBe(false);
		expect(lines.push(bytes("x".repeat(5))).overflow).toBe(true);
	});

	test("the lines before an oversize one are given", () => {
		expect(new LineFrames(4).push(bytes("ok\ntoo long\n"))).toEqual({ frames: ["ok"], undecodable: 0, overflow: true });
	});

	test("the cap is 16 MiB; a frame is one JSON line with its newline", () => {
		expect(CHANNEL_MAX_FRAME_BYTES).toBe(16 * 1024 * 1024);
		expect(frameText({ text: "a\nb" })).toBe('{"text":"a\\nb"}\n');
	});
});
