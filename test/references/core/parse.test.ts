import { describe, expect, test } from "vitest";
import {
	insertedReference,
	MAX_REFERENCES_PER_PROMPT,
	parseReferences,
	referencePath,
} from "../../../src/references/core/parse.ts";

const refs = (prompt: string) => parseReferences(prompt).references.map((r) => `${r.path}:${r.startLine}-${r.endLine}`);

describe("parseReferences: the forms that count", () => {
	test.each([
		["one line", "explain @src/util.ts#L2", ["src/util.ts:2-2"]],
		["a range", "explain @src/util.ts#L2-3 please", ["src/util.ts:2-3"]],
		["a range with L twice", "@src/util.ts#L2-L30", ["src/util.ts:2-30"]],
		["a reversed range is put in order", "@src/util.ts#L5-2", ["src/util.ts:2-5"]],
		["absolute", "see @/home/me/p/a.ts#L1", ["/home/me/p/a.ts:1-1"]],
		["home", "see @~/notes/x.md#L7", ["~/notes/x.md:7-7"]],
		["quoted, with a space", 'look at @"src/my util.ts"#L2', ["src/my util.ts:2-2"]],
		["quoted, a range", '@"src/my util.ts"#L2-4', ["src/my util.ts:2-4"]],
		["quoted, L twice", '@"a b/c.ts"#L2-L4', ["a b/c.ts:2-4"]],
		["at the very start", "@a.ts#L1 why?", ["a.ts:1-1"]],
		["after a newline", "first\n@a.ts#L1", ["a.ts:1-1"]],
		["followed by punctuation", "is @a.ts#L3, or @b.ts#L4.", ["a.ts:3-3", "b.ts:4-4"]],
		["in parentheses is not after whitespace", "(@a.ts#L3)", []],
		["two references", "@a.ts#L1 and @b.ts#L2-3", ["a.ts:1-1", "b.ts:2-3"]],
		["the same one twice counts once", "@a.ts#L1 @a.ts#L1", ["a.ts:1-1"]],
	])("%s", (_name, prompt, expected) => {
		expect(refs(prompt)).toEqual(expected);
	});
});

describe("parseReferences: what is left alone, with no note", () => {
	test.each([
		["a bare @name (pi's own completion)", "explain @src/util.ts"],
		["an e-mail address", "mail me@example.com#L2 today"],
		["an @ inside a word", "foo@bar.ts#L2"],
		["no line number", "@a.ts#L"],
		["a letter after the number", "@a.ts#L2x"],
		["a heading anchor", "@README.md#install"],
		["an unterminated quote", '@"a b.ts#L2'],
	])("%s", (_name, prompt) => {
		expect(parseReferences(prompt)).toEqual({ references: [], notes: [] });
	});
});

describe("parseReferences: line 0", () => {
	test.each(["@a.ts#L0", "@a.ts#L0-3", "@a.ts#L3-0"])("%s is one note, no reference", (prompt) => {
		expect(parseReferences(prompt)).toEqual({
			references: [],
			notes: [`${prompt}: line 0 is not a line (lines start at 1)`],
		});
	});
});

test(`at most ${MAX_REFERENCES_PER_PROMPT} references; the rest named in notes`, () => {
	const prompt = Array.from({ length: MAX_REFERENCES_PER_PROMPT + 2 }, (_, i) => `@f${i}.ts#L1`).join(" ");
	const parsed = parseReferences(prompt);
	expect(parsed.references).toHaveLength(MAX_REFERENCES_PER_PROMPT);
	expect(parsed.notes).toEqual([
		`@f${MAX_REFERENCES_PER_PROMPT}.ts#L1: not attached (at most ${MAX_REFERENCES_PER_PROMPT} references per prompt)`,
		`@f${MAX_REFERENCES_PER_PROMPT + 1}.ts#L1: not attached (at most ${MAX_REFERENCES_PER_PROMPT} references per prompt)`,
	]);
});

describe("referencePath", () => {
	test.each([
		["src/a.ts", "/p/src/a.ts"],
		["./src/../lib/a.ts", "/p/lib/a.ts"],
		["/abs/a.ts", "/abs/a.ts"],
		["~/notes/a.md", "/home/me/notes/a.md"],
		["~", "/home/me"],
		["~other/a.ts", "/p/~other/a.ts"],
	])("%s", (path, expected) => {
		expect(referencePath(path, "/p", "/home/me")).toBe(expected);
	});
});

describe("insertedReference (ctrl+alt+k)", () => {
	const base = { file: "/p/src/main.ts", cwd: "/p", startLine: 10, endLine: 14, inputBefore: "" };
	test.each([
		["a selection, empty input", base, "@src/main.ts#L10-14 "],
		["a cursor line", { ...base, startLine: 42, endLine: 42 }, "@src/main.ts#L42 "],
		["after a word: a space first", { ...base, inputBefore: "explain" }, " @src/main.ts#L10-14 "],
		["after whitespace: none", { ...base, inputBefore: "explain " }, "@src/main.ts#L10-14 "],
		["after a newline: none", { ...base, inputBefore: "explain\n" }, "@src/main.ts#L10-14 "],
		["outside pi's cwd: absolute", { ...base, file: "/q/b.ts" }, "@/q/b.ts#L10-14 "],
		["a cwd with a trailing slash", { ...base, cwd: "/p/" }, "@src/main.ts#L10-14 "],
		["a space in the path: quoted", { ...base, file: "/p/src/my main.ts" }, '@"src/my main.ts"#L10-14 '],
		["no lines: the file only", { ...base, startLine: undefined, endLine: undefined }, "@src/main.ts "],
		[
			"no lines, after a word",
			{ ...base, startLine: undefined, endLine: undefined, inputBefore: "x" },
			" @src/main.ts ",
		],
		[
			"no lines, quoted",
			{ ...base, file: "/p/my main.ts", startLine: undefined, endLine: undefined },
			'@"my main.ts" ',
		],
		["a start line only: that line", { ...base, endLine: undefined }, "@src/main.ts#L10 "],
	])("%s", (_name, options, expected) => {
		expect(insertedReference(options)).toBe(expected);
	});

	test("what it inserts parses back to the same file and lines", () => {
		for (const file of ["/p/src/main.ts", "/p/src/my main.ts", "/q/x y/b.ts"]) {
			const text = insertedReference({ ...base, file, inputBefore: "why" });
			const [reference] = parseReferences(`why${text}`).references;
			expect(reference && referencePath(reference.path, "/p", "/h")).toBe(file);
			expect(reference && [reference.startLine, reference.endLine]).toEqual([10, 14]);
		}
	});
});
