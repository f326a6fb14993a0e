import { describe, expect, test } from "vitest";
import type { Diagnostic } from "../../../src/editors/core/protocol-state.ts";
import { cutBytes, diagnosticsSection, MAX_DIAGNOSTICS_SECTION_BYTES } from "../../../src/prompt/core/diagnostics.ts";

const item = (line: number, severity: Diagnostic["severity"], message = `m${line}`, source?: string): Diagnostic => ({
	line,
	column: 1,
	severity,
	message,
	...(source !== undefined && { source }),
});

describe("the Diagnostics section", () => {
	test("the issue's example", () => {
		const section = diagnosticsSection(
			[
				item(14, "warning", "Unused import 'os'", "pyright"),
				item(2, "error", "Undefined variable 'x'", "pyright"),
				item(3, "info", "i"),
				item(4, "hint", "h"),
				item(5, "hint", "h"),
				item(30, "error", "Other", "pyright"),
			],
			{ cursorLine: 1 },
		);
		expect(section).toBe(
			[
				"Diagnostics: 2 errors, 1 warning (3 info/hints not shown)",
				"- line 2: error: Undefined variable 'x' [pyright]",
				"- line 30: error: Other [pyright]",
				"- line 14: warning: Unused import 'os' [pyright]",
			].join("\n"),
		);
	});

	test.each([
		["nothing", undefined, undefined],
		["an empty list", [], undefined],
		["only info and hints: nothing worth a prompt", [item(1, "info"), item(2, "hint")], undefined],
		["one error", [item(7, "error", "bad")], "Diagnostics: 1 error, 0 warnings\n- line 7: error: bad"],
	])("%s", (_name, diagnostics, expected) => {
		expect(diagnosticsSection(diagnostics, {})).toBe(expected);
	});

	test.each([
		[
			"inside the selection first, then by distance from the cursor, then by line",
			{ selection: { start: { line: 40, column: 1 }, end: { line: 41, column: 1 } }, cursorLine: 10 },
			[item(5, "error"), item(15, "error"), item(41, "error"), item(12, "error"), item(8, "error")],
			[41, 8, 12, 5, 15],
		],
		["no cursor: by line", {}, [item(9, "warning"), item(3, "warning"), item(1, "error")], [1, 3, 9]],
	])("%s", (_name, where, diagnostics, lines) => {
		const listed = (diagnosticsSection(diagnostics, where) ?? "")
			.split("\n")
			.slice(1)
			.map((line) => Number(/^- line (\d+)/.exec(line)?.[1]));
		expect(listed).toEqual(lines);
	});

	test("at most 20 listed, the rest counted", () => {
		const many = Array.from({ length: 32 }, (_, index) => item(index + 1, "error"));
		const lines = (diagnosticsSection(many, {}) ?? "").split("\n");
		expect(lines).toHaveLength(22);
		expect(lines.at(-1)).toBe("- and 12 more");
	});

	test("each message one line: line breaks and control characters go, cut at 300 bytes with …", () => {
		const section = diagnosticsSection(
			[item(1, "error", `a\nb\u001b[31m\u0007c ${"é".repeat(400)}`, "src\u0000x")],
			{},
		);
		const line = section?.split("\n")[1] ?? "";
		expect(line.startsWith("- line 1: error: a bc éé")).toBe(true);
		expect(line).toContain("… [srcx]");
		const message = line.slice("- line 1: error: ".length, line.indexOf(" [srcx]"));
		expect(Buffer.byteLength(message)).toBeLessThanOrEqual(300);
	});

	test("the section stays within 4 KiB; what does not fit is counted", () => {
		const long = Array.from({ length: 20 }, (_, index) => item(index + 1, "error", "x".repeat(290)));
		const section = diagnosticsSection(long, {}) ?? "";
		expect(Buffer.byteLength(section)).toBeLessThanOrEqual(MAX_DIAGNOSTICS_SECTION_BYTES);
		expect(section.split("\n").at(-1)).toMatch(/^- and \d+ more$/);
	});
});

describe("a cut on a character boundary", () => {
	test.each([
		["short", 10, "short"],
		["ééé", 5, "é…"],
		["abcdef", 4, "a…"],
	])("%s at %i bytes", (text, max, expected) => expect(cutBytes(text, max)).toBe(expected));
});
