import { describe, expect, test } from "vitest";
import { displayText, parseSuggestions, type SuggestionContext } from "../../../src/suggestions/core/parse.ts";

const AT_END: SuggestionContext = { cursorBefore: "", cursorAfter: "", count: 3 };
const blocks = (...texts: string[]) => texts.map((text) => `<SUGGESTION>${text}</SUGGESTION>`).join("\n");

describe("parseSuggestions: pi-ide's cases", () => {
	test.each<[string, string, Partial<SuggestionContext>, string[]]>([
		["closed blocks, their whitespace exact", blocks(" value;", "\n\twork();\n"), {}, [" value;", "\n\twork();\n"]],
		["an unclosed trailing block dropped", `${blocks(" value;")}<SUGGESTION>tail`, {}, [" value;"]],
		["only an unclosed block: none", "<SUGGESTION>const value = call(", {}, []],
		["text outside the blocks ignored", `Here you go:\n${blocks("a")}\nHope it helps`, {}, ["a"]],
		["no blocks: none", "I cannot complete this.", {}, []],
		["CRLF and CR to LF", "<SUGGESTION>one\r\ntwo\rthree</SUGGESTION>", {}, ["one\ntwo\nthree"]],
		["a lowercase tag is not a block", "<suggestion>a</suggestion>", {}, []],
		["a fence unwrapped", blocks("```ts\nconst value = compute();\n```"), {}, ["const value = compute();"]],
		["a fence with blank lines around", blocks("\n```\nx\n```\n"), {}, ["x"]],
		["a four-backtick fence", blocks("````\na ``` b\n````"), {}, ["a ``` b"]],
		[
			"a fence kept in a Markdown file",
			blocks("```ts\nconst value = compute();\n```"),
			{ language: "markdown" },
			["```ts\nconst value = compute();\n```"],
		],
		["a fence kept in mdx", blocks("```\nx\n```"), { language: "MDX" }, ["```\nx\n```"]],
		["backticks inside a line are no fence", blocks("`a` + ```b```"), {}, ["`a` + ```b```"]],
		[
			"an echoed line prefix stripped",
			blocks("\tconst value = compute();"),
			{ cursorBefore: "function run() {\n\t" },
			["const value = compute();"],
		],
		["an echoed prefix of code", blocks("  return value;"), { cursorBefore: "x\n  return" }, [" value;"]],
		["a leading space kept: only an exact repeat goes", blocks(" value"), { cursorBefore: "return" }, [" value"]],
		["an echo of the whole candidate leaves nothing", blocks("return"), { cursorBefore: "return" }, []],
		[
			"a multi-line candidate with text after the cursor dropped",
			blocks("\n\twork();", "work()"),
			{ cursorBefore: "if (ready) {", cursorAfter: " trailing\n}" },
			["work()"],
		],
		[
			"a multi-line candidate at a blank rest of line kept",
			blocks("\n\twork();\n}"),
			{ cursorBefore: "if (ready) {", cursorAfter: "  \n}" },
			["\n\twork();\n}"],
		],
		["a CRLF rest of line counts as blank", blocks("a\nb"), { cursorAfter: "\r\nnext" }, ["a\nb"]],
		["duplicates dropped", blocks("one", "one", "two"), {}, ["one", "two"]],
		["duplicates after cleaning dropped", blocks("```\none\n```", "one"), {}, ["one"]],
		["empty and whitespace-only dropped", blocks("", "  ", "\n\t", "x"), {}, ["x"]],
		["more than count: the first count", blocks("1", "2", "3", "4"), {}, ["1", "2", "3"]],
		["count 1", blocks("1", "2"), { count: 1 }, ["1"]],
		["count 0: none", blocks("1"), { count: 0 }, []],
		["a dropped candidate does not use up the count", blocks("", "a", "a", "b"), { count: 2 }, ["a", "b"]],
	])("%s", (_name, modelText, context, expected) => {
		expect(parseSuggestions(modelText, { ...AT_END, ...context })).toEqual(expected);
	});
});

describe("comment mode: prose on the current line", () => {
	const inComment = (cursorBefore: string): SuggestionContext => ({ ...AT_END, cursorBefore, cursorInComment: true });

	test.each<[string, string, string[]]>([
		["// This helper will ", "return the cached value", ["return the cached value"]],
		["// This helper will ", "{name}: value; when available", ["{name}: value; when available"]],
		["// Validate", "// continue validating input", [" continue validating input"]],
		["// Validate ", "// continue validating input", ["continue validating input"]],
		["# Validate", "# more", [" more"]],
		["-- Validate", "-- more", [" more"]],
		["; Validate", "; more", [" more"]],
		["/* Validate", "/* more", [" more"]],
		[" * Validate", " * more", [" more"]],
		["# Validate", "// more", ["// more"]],
		["// Validate", "the input\nand more lines", ["the input"]],
		["// Validate", "\nonly later lines", []],
	])("%j + %j", (cursorBefore, candidate, expected) => {
		expect(parseSuggestions(blocks(candidate), inComment(cursorBefore))).toEqual(expected);
	});
});

describe("displayText: what an editor draws, no control characters", () => {
	test.each<[string, string, string]>([
		["newlines and tabs kept", "a\n\tb\n", "a\n\tb\n"],
		["a CSI colour sequence", "\u001b[31mred\u001b[0m", "red"],
		["an OSC title sequence ended by BEL", "a\u001b]0;pwned\u0007b", "ab"],
		["an ESC cannot swallow a newline", "a\u001b\nb", "a\nb"],
		["C0 controls", "a\u0000b\u0007c\u0008d\u000be\u000cf\u007f", "abcdef"],
		["a carriage return", "a\rb", "ab"],
		["C1 controls", "a\u0085b\u0080c", "abc"],
		["a C1 CSI sequence whole", "a\u009b1mb", "ab"],
		["bidi overrides (Trojan Source)", "a\u202a\u202b\u202c\u202d\u202eb", "ab"],
		["bidi isolates", "a\u2066\u2067\u2068\u2069b", "ab"],
		["ordinary Unicode kept", "é語😀 ok", "é語😀 ok"],
	])("%s", (_name, text, shown) => {
		expect(displayText(text)).toBe(shown);
	});

	test("parseSuggestions gives display text, and a candidate of controls alone is none", () => {
		expect(parseSuggestions(blocks("\u001b[2J", "ok\u202e()"), AT_END)).toEqual(["ok()"]);
	});
});
