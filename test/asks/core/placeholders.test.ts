import { describe, expect, test } from "vitest";
import type { Ask, Placeholders } from "../../../src/asks/core/ask-messages.ts";
import { NO_NAME, placeholdersIn, planAsk, referenceOf } from "../../../src/asks/core/placeholders.ts";
import type { Diagnostic } from "../../../src/editors/core/protocol-state.ts";

const A = "/abs/a.ts";
const lines = { file: A, startLine: 2, endLine: 4, text: "two\nthree\nfour" };
const diagnostic: Diagnostic = { line: 3, column: 1, severity: "error", message: "boom" };
/** Every placeholder, as an editor sends them when the prompt uses them all. */
const everything: Placeholders = {
	this: lines,
	selection: lines,
	buffer: { file: A },
	buffers: [{ file: A }, { file: "/abs/b.ts" }],
	diagnostics: { file: A, items: [diagnostic] },
};
const ask = (prompt: string, placeholders?: Placeholders): Ask => ({ prompt, ...(placeholders && { placeholders }) });

describe("each placeholder becomes a reference, its lines go along", () => {
	test("@this: the selection's lines as a reference, and its span", () => {
		expect(planAsk(ask("explain @this please", { this: lines }))).toEqual({
			text: "explain @/abs/a.ts#L2-4 please",
			spans: [{ file: A, name: A, startLine: 2, endLine: 4, text: "two\nthree\nfour" }],
			notes: [],
		});
	});

	test.each<[string, Placeholders["this"], string, { start: number; end: number } | undefined]>([
		[
			"a part of one line keeps its columns",
			{ file: A, startLine: 3, endLine: 3, startColumn: 5, endColumn: 9, text: "three" },
			"@/abs/a.ts#L3",
			{ start: 5, end: 9 },
		],
		[
			"the cursor's line: no columns",
			{ file: A, startLine: 3, endLine: 3, text: "    three" },
			"@/abs/a.ts#L3",
			undefined,
		],
		[
			"columns over several lines are not a part of one line",
			{ ...lines, startColumn: 2, endColumn: 3 },
			"@/abs/a.ts#L2-4",
			undefined,
		],
		[
			"one column alone is not a part",
			{ file: A, startLine: 3, endLine: 3, startColumn: 5, text: "three" },
			"@/abs/a.ts#L3",
			undefined,
		],
	])("@selection: %s", (_name, selection, reference, columns) => {
		const plan = planAsk(ask("fix @selection", { selection }));
		expect(plan.text).toBe(`fix ${reference}`);
		expect(plan.spans).toHaveLength(1);
		expect(plan.spans[0]?.columns).toEqual(columns);
		expect(plan.spans[0]?.text).toBe(selection?.text);
	});

	test.each<[string, Placeholders["this"], string]>([
		["[No Name]", { name: NO_NAME, startLine: 1, endLine: 2, text: "a\nb" }, "[No Name]#L1-2"],
		["a buffer's own name", { name: "*scratch*", startLine: 4, endLine: 4, text: "(+ 1 2)" }, "*scratch*#L4"],
		["no name at all", { startLine: 1, endLine: 1, text: "x" }, "[No Name]#L1"],
	])("a buffer with no file: %s, by name, its text attached", (_name, span, reference) => {
		const plan = planAsk(ask("what is @this", { this: span }));
		expect(plan.text).toBe(`what is ${reference}`);
		expect(plan.spans).toEqual([
			{ name: span?.name ?? NO_NAME, startLine: span?.startLine, endLine: span?.endLine, text: span?.text },
		]);
		expect(plan.spans[0]).not.toHaveProperty("file");
	});

	test("@buffer is the file's path only: nothing attached", () => {
		expect(planAsk(ask("review @buffer", { buffer: { file: A } }))).toEqual({
			text: "review @/abs/a.ts",
			spans: [],
			notes: [],
		});
	});

	test("@buffer with no file: its name, and its text attached whole", () => {
		const plan = planAsk(ask("review @buffer", { buffer: { name: NO_NAME, text: "a\nb\nc" } }));
		expect(plan.text).toBe("review [No Name]");
		expect(plan.spans).toEqual([{ name: NO_NAME, startLine: 1, endLine: 3, text: "a\nb\nc" }]);
	});

	test("@buffers: the listed buffers' paths (a nameless one by name), nothing attached", () => {
		const buffers = [{ file: A }, { file: "/abs/b.ts" }, { name: "", text: "scratch" }, { name: "*notes*" }];
		const plan = planAsk(ask("compare @buffers.", { buffers }));
		expect(plan.text).toBe("compare @/abs/a.ts @/abs/b.ts [No Name] *notes*.");
		expect(plan.spans).toEqual([]);
	});

	test.each<[string, NonNullable<Placeholders["diagnostics"]>, string]>([
		["of a file", { file: A, items: [diagnostic] }, "the diagnostics of @/abs/a.ts"],
		["of a buffer with no file", { name: "*scratch*", items: [diagnostic] }, "the diagnostics of *scratch*"],
		["of a buffer with no name", { items: [] }, "the diagnostics of [No Name]"],
	])("@diagnostics %s: named in the words, the items kept for their section", (_name, diagnostics, words) => {
		const plan = planAsk(ask("fix @diagnostics", { diagnostics }));
		expect(plan.text).toBe(`fix ${words}`);
		expect(plan.spans).toEqual([]);
		expect(plan.diagnostics).toEqual({
			...(diagnostics.file !== undefined && { file: diagnostics.file }),
			name: diagnostics.name ?? NO_NAME,
			items: diagnostics.items,
		});
	});

	test("a path with a space is quoted, as a reference's is; a control character in it escaped", () => {
		const spaced = "/abs/my dir/a b.ts";
		const plan = planAsk(
			ask("see @this and @buffer and @buffers", {
				this: { ...lines, file: spaced },
				buffer: { file: spaced },
				buffers: [{ file: "/abs/x\u001b[2J.ts" }],
			}),
		);
		expect(plan.text).toBe(`see @"${spaced}"#L2-4 and @"${spaced}" and @/abs/x\\u001b[2J.ts`);
		expect(referenceOf({ file: spaced, name: spaced, startLine: 3, endLine: 3 })).toBe(`@"${spaced}"#L3`);
	});
});

describe("what is not a placeholder stays as typed", () => {
	test.each([
		["an unknown @word", "ask @word about @thing"],
		["a longer word", "@thistle and @selections and @bufferz and @diagnosticsy"],
		["a word joined on", "@this-one @this_one @buffer2"],
		["inside a word", "a@this b@selection"],
		["e-mail addresses", "mail me@this.com or ops@buffers.org"],
		["another case", "@This @SELECTION"],
		["a reference already", "@src/a.ts#L2 @/abs/a.ts"],
		["a lone @", "@ this @"],
	])("%s", (_name, prompt) => {
		expect(planAsk(ask(prompt, everything))).toEqual({ text: prompt, spans: [], notes: [] });
		expect(placeholdersIn(prompt)).toEqual([]);
	});

	test.each<[string, string, string]>(
		[
			["@this", "the editor sent no line"],
			["@selection", "the editor had no selection"],
			["@buffer", "the editor sent no buffer"],
			["@buffers", "the editor listed no buffers"],
			["@diagnostics", "the editor sent no diagnostics"],
		].map(([typed, why]) => [typed, `look at ${typed} and ${typed} again`, why] as [string, string, string]),
	)("%s the editor sent nothing for: stays, with one note", (typed, prompt, why) => {
		expect(planAsk(ask(prompt, typed === "@buffers" ? { buffers: [] } : {}))).toEqual({
			text: prompt,
			spans: [],
			notes: [`${typed}: ${why}, so it stays as typed`],
		});
	});
});

describe("the same lines attach once; the rest of the words are not touched", () => {
	test("the same placeholder twice, and @selection on the same lines: one span", () => {
		const plan = planAsk(ask("@this: why @this? (@selection is it)", { this: lines, selection: lines }));
		expect(plan.text).toBe("@/abs/a.ts#L2-4: why @/abs/a.ts#L2-4? (@selection is it)");
		expect(plan.spans).toHaveLength(1);
		const again = planAsk(ask("@this then @selection", { this: lines, selection: lines }));
		expect(again.text).toBe("@/abs/a.ts#L2-4 then @/abs/a.ts#L2-4");
		expect(again.spans).toHaveLength(1);
	});

	test("two different spans of one file both attach", () => {
		const part = { file: A, startLine: 3, endLine: 3, startColumn: 1, endColumn: 3, text: "thr" };
		expect(planAsk(ask("@this vs @selection", { this: lines, selection: part })).spans).toHaveLength(2);
	});

	test("every other byte as typed: spacing, tabs, newlines, unicode, $-patterns, markdown", () => {
		const parts = ["  Fix\t", "@this", "  — café 🎉 $& $1 $$ $`\n\n**bold** `code`\n", "@buffer", "\r\n  trailing\t "];
		const prompt = parts.join("");
		const plan = planAsk(ask(prompt, everything));
		expect(plan.text).toBe(parts.join("").replace("@this", "@/abs/a.ts#L2-4").replace("@buffer", "@/abs/a.ts"));
		expect(plan.text.startsWith("  Fix\t@/abs/a.ts#L2-4  — café 🎉 $& $1 $$ $`\n\n**bold** `code`\n@/abs/a.ts")).toBe(
			true,
		);
		expect(plan.text.endsWith("\r\n  trailing\t ")).toBe(true);
	});

	test("at the start, after a newline, before punctuation", () => {
		expect(planAsk(ask("@this,\n@this.\tand @this?", { this: lines })).text).toBe(
			"@/abs/a.ts#L2-4,\n@/abs/a.ts#L2-4.\tand @/abs/a.ts#L2-4?",
		);
	});
});

describe("placeholdersIn: what an editor sends along", () => {
	test.each<[string, string[]]>([
		["plain words", []],
		["fix @this", ["this"]],
		["@buffers and @buffer, @buffer again", ["buffers", "buffer"]],
		["@selection\n@diagnostics @this me@this.com @thistle", ["selection", "diagnostics", "this"]],
	])("%s", (prompt, names) => {
		expect(placeholdersIn(prompt)).toEqual(names);
	});
});
