import { describe, expect, test } from "vitest";
import { LineReader, MAX_BRIDGE_LINE_BYTES } from "../../../src/pi-bridge/core/line-reader.ts";

const MIRROR_READY = '{"type":"mirror_ready"}';
const PROMPT = '{"type":"prompt","text":"explain","context":{"file":"/p/a.lua","cwd":"/p","mode":"normal"}}';

describe("NDJSON as it arrives", () => {
	test("mirror_ready and a prompt back to back in one chunk: two lines, in order", () => {
		const reader = new LineReader();
		expect(reader.read(`${MIRROR_READY}\n${PROMPT}\n`)).toEqual({ ok: true, lines: [MIRROR_READY, PROMPT] });
	});

	test("a line split over three chunks comes out once, whole, when its newline arrives", () => {
		const reader = new LineReader();
		expect(reader.read(PROMPT.slice(0, 10))).toEqual({ ok: true, lines: [] });
		expect(reader.read(PROMPT.slice(10, 40))).toEqual({ ok: true, lines: [] });
		expect(reader.read(`${PROMPT.slice(40)}\n${MIRROR_READY.slice(0, 5)}`)).toEqual({ ok: true, lines: [PROMPT] });
		expect(reader.read(`${MIRROR_READY.slice(5)}\n`)).toEqual({ ok: true, lines: [MIRROR_READY] });
	});

	test("a newline alone in a chunk ends the line held", () => {
		const reader = new LineReader();
		expect(reader.read(MIRROR_READY)).toEqual({ ok: true, lines: [] });
		expect(reader.read("\n")).toEqual({ ok: true, lines: [MIRROR_READY] });
	});

	test.each([
		["empty lines", `\n\n${MIRROR_READY}\n\n`],
		["lines of spaces and tabs", ` \t \n${MIRROR_READY}\n   \n`],
		["a CR-only line", `\r\n${MIRROR_READY}\n`],
	])("%s are skipped", (_name, chunk) => {
		expect(new LineReader().read(chunk)).toEqual({ ok: true, lines: [MIRROR_READY] });
	});
});

describe("the 1 MiB cap on a line", () => {
	const refused = { ok: false, reason: "a line past 1 MiB without a newline" };

	test("1 MiB and one byte without a newline, over several chunks: refused once past", () => {
		const reader = new LineReader();
		const chunk = "x".repeat(64 * 1024);
		for (let sent = 0; sent < MAX_BRIDGE_LINE_BYTES; sent += chunk.length) expect(reader.read(chunk).ok).toBe(true);
		expect(reader.read("x")).toEqual(refused);
	});

	test("1 MiB and one byte in one chunk without a newline: refused", () => {
		expect(new LineReader().read("x".repeat(MAX_BRIDGE_LINE_BYTES + 1))).toEqual(refused);
	});

	test("a whole line past the cap, its newline in the same chunk: refused all the same", () => {
		expect(new LineReader().read(`${"x".repeat(MAX_BRIDGE_LINE_BYTES + 1)}\n${MIRROR_READY}\n`)).toEqual(refused);
	});

	test("400k three-byte characters: past the cap in bytes (1.2 MB), not in UTF-16 units (400k)", () => {
		const line = "€".repeat(400_000);
		expect(line.length).toBeLessThan(MAX_BRIDGE_LINE_BYTES);
		expect(Buffer.byteLength(line, "utf8")).toBeGreaterThan(MAX_BRIDGE_LINE_BYTES);
		expect(new LineReader().read(line)).toEqual(refused);
	});

	test("4-byte characters (surrogate pairs) past the cap in bytes: refused", () => {
		const line = "😀".repeat(MAX_BRIDGE_LINE_BYTES / 4 + 1);
		expect(new LineReader().read(line)).toEqual(refused);
	});

	test("exactly 1 MiB, then its newline: accepted, the line whole", () => {
		const reader = new LineReader();
		const line = "y".repeat(MAX_BRIDGE_LINE_BYTES);
		expect(reader.read(line)).toEqual({ ok: true, lines: [] });
		const read = reader.read(`\n${MIRROR_READY}\n`);
		expect(read.ok && read.lines.map((one) => one.length)).toEqual([MAX_BRIDGE_LINE_BYTES, MIRROR_READY.length]);
	});

	test("exactly 1 MiB of three-byte characters (and two ASCII bytes) with its newline: accepted", () => {
		const line = `${"€".repeat((MAX_BRIDGE_LINE_BYTES - 1) / 3)}a`;
		expect(Buffer.byteLength(line, "utf8")).toBe(MAX_BRIDGE_LINE_BYTES);
		expect(new LineReader().read(`${line}\n`)).toEqual({ ok: true, lines: [line] });
	});

	test("many lines that together pass 1 MiB are fine: the cap is per line", () => {
		const reader = new LineReader();
		const line = "z".repeat(600 * 1024);
		expect(reader.read(`${line}\n${line}\n`)).toEqual({ ok: true, lines: [line, line] });
		expect(reader.read(`${line}\n`)).toEqual({ ok: true, lines: [line] });
	});
});

describe("a client that sends a long line a byte at a time cannot hold pi up", () => {
	test("100 000 one-byte chunks after 340 KiB: each byte read once (the quadratic reading took seconds for 20 000)", () => {
		const reader = new LineReader();
		reader.read("x".repeat(340 * 1024));
		const startedMs = performance.now();
		let refused = 0;
		for (let byte = 0; byte < 100_000; byte++) if (!reader.read("y").ok) refused++;
		expect(refused).toBe(0);
		expect(reader.read("\n")).toEqual({ ok: true, lines: ["x".repeat(340 * 1024) + "y".repeat(100_000)] });
		expect(performance.now() - startedMs).toBeLessThan(5000);
	});
});
