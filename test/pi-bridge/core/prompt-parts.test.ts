import { describe, expect, test } from "vitest";
import { type PromptPart, promptParts } from "../../../src/pi-bridge/core/prompt-parts.ts";

/** What a test reads of a part: its kind, its origin, and the text that says which it is. */
function shape(part: PromptPart) {
	switch (part.kind) {
		case "words":
			return { words: part.text };
		case "block":
			return { block: part.body, origin: part.origin, closed: part.close !== undefined };
		case "mark":
			return { mark: part.head, code: part.code, origin: part.origin };
		case "diagnostics":
			return { diagnostics: part.text, origin: part.origin };
	}
}

const BUFFER = { from: "buffer" } as const;
const UNKNOWN = { from: "unknown" } as const;
const mark = (file?: string) => ({ from: "mark", ...(file !== undefined && { file }) }) as const;

/**
 * Texts exactly as the newest pi-bridge.nvim expands them (lua/pi-bridge/placeholders.lua): a fence tagged with
 * the current buffer's filetype and no header, blank lines around it, the spaces around the placeholder dropped;
 * one line per mark with inline code; diagnostics inline where the placeholder was.
 */
const TEXTS: [string, string, { filetype?: string }, ReturnType<typeof shape>[]][] = [
	[
		"@this: the cursor line, fenced with the buffer's filetype",
		"look at\n\n```lua\nbbb\n```\n\n",
		{ filetype: "lua" },
		[{ words: "look at\n\n" }, { block: "bbb", origin: BUFFER, closed: true }, { words: "\n\n" }],
	],
	[
		"@selection mid-sentence, a buffer without a filetype (tagged text)",
		"x\n\n```text\nbbb\nccc\n```\n\ny",
		{ filetype: "" },
		[{ words: "x\n\n" }, { block: "bbb\nccc", origin: BUFFER, closed: true }, { words: "\n\ny" }],
	],
	[
		"@selection from a buffer whose context names no filetype at all (an older plugin): text",
		"x\n\n```text\nbbb\n```\n\n",
		{},
		[{ words: "x\n\n" }, { block: "bbb", origin: BUFFER, closed: true }, { words: "\n\n" }],
	],
	[
		"@this and @selection in one prompt",
		"in\n\n```typescript\nconst a = 1;\n```\n\nreplace foo with\n\n```typescript\nbar();\nbaz();\n```\n\n",
		{ filetype: "typescript" },
		[
			{ words: "in\n\n" },
			{ block: "const a = 1;", origin: BUFFER, closed: true },
			{ words: "\n\nreplace foo with\n\n" },
			{ block: "bar();\nbaz();", origin: BUFFER, closed: true },
			{ words: "\n\n" },
		],
	],
	[
		"@content cut by the plugin: its truncation line inside the fence",
		"review\n\n```lua\nlocal a = 1\nlocal b = 2\n[truncated: showing 2 of 90000 lines, ~900KB of ~2.15MB]\n```\n\n",
		{ filetype: "lua" },
		[
			{ words: "review\n\n" },
			{
				block: "local a = 1\nlocal b = 2\n[truncated: showing 2 of 90000 lines, ~900KB of ~2.15MB]",
				origin: BUFFER,
				closed: true,
			},
			{ words: "\n\n" },
		],
	],
	[
		"@content of a markdown buffer with fences inside: a longer fence, the inner ones kept in the body",
		"summarize\n\n````markdown\n# Title\n```js\nx()\n```\n````\n\n",
		{ filetype: "markdown" },
		[
			{ words: "summarize\n\n" },
			{ block: "# Title\n```js\nx()\n```", origin: BUFFER, closed: true },
			{ words: "\n\n" },
		],
	],
	[
		"@marks: a global mark, an unnamed buffer's, one in a buffer not loaded (header only)",
		"explain\n\nVim mark A - [a.lua:42](/home/ada/p/a.lua): `local x = 1`\nVim mark b - [No Name]:2: `two`\nVim mark C - [f.lua:3](/home/ada/p/f.lua):",
		{ filetype: "lua" },
		[
			{ words: "explain\n\n" },
			{
				mark: "Vim mark A - [a.lua:42](/home/ada/p/a.lua):",
				code: " `local x = 1`",
				origin: mark("/home/ada/p/a.lua"),
			},
			{ words: "\n" },
			{ mark: "Vim mark b - [No Name]:2:", code: " `two`", origin: mark() },
			{ words: "\n" },
			{ mark: "Vim mark C - [f.lua:3](/home/ada/p/f.lua):", code: "", origin: mark("/home/ada/p/f.lua") },
		],
	],
	[
		"@mA whose line holds backticks: a longer, padded code span",
		"explain\n\nVim mark A - [x.md:1](/p/x.md): `` run `make` ``",
		{ filetype: "lua" },
		[
			{ words: "explain\n\n" },
			{ mark: "Vim mark A - [x.md:1](/p/x.md):", code: " `` run `make` ``", origin: mark("/p/x.md") },
		],
	],
	[
		"@mA in a Next.js dynamic route: brackets in the file's name",
		"explain\n\nVim mark A - [[id].tsx:3](/p/pages/users/[id].tsx): `const id = query.id`",
		{ filetype: "typescriptreact" },
		[
			{ words: "explain\n\n" },
			{
				mark: "Vim mark A - [[id].tsx:3](/p/pages/users/[id].tsx):",
				code: " `const id = query.id`",
				origin: mark("/p/pages/users/[id].tsx"),
			},
		],
	],
	[
		"@mA in a Next.js route group: parentheses in the path",
		"why\n\nVim mark S - [.env.local:1](/p/app/(shop)/.env.local): `STRIPE_KEY=sk_live_x`\nand then?",
		{ filetype: "typescriptreact" },
		[
			{ words: "why\n\n" },
			{
				mark: "Vim mark S - [.env.local:1](/p/app/(shop)/.env.local):",
				code: " `STRIPE_KEY=sk_live_x`",
				origin: mark("/p/app/(shop)/.env.local"),
			},
			{ words: "\nand then?" },
		],
	],
	[
		"@mA whose line holds a carriage return and a U+2028 (a file of mixed line endings)",
		"see\n\nVim mark A - [w.ps1:7](/p/w.ps1): `$key = 'k'\u2028\r`",
		{ filetype: "lua" },
		[
			{ words: "see\n\n" },
			{ mark: "Vim mark A - [w.ps1:7](/p/w.ps1):", code: " `$key = 'k'\u2028\r`", origin: mark("/p/w.ps1") },
		],
	],
	[
		"a line that only starts like a mark (no code span after the colon) stays words",
		"Vim mark A - [a.lua:1](/p/a.lua):x",
		{ filetype: "lua" },
		[{ words: "Vim mark A - [a.lua:1](/p/a.lua):x" }],
	],
	[
		"an older plugin's mark: a header naming the file, then a fenced block (the block is the mark's file's)",
		"fix \n\nVim mark A - /home/ada/p/.env:1:\n\n```sh\nTOKEN=abc\n```\n\n",
		{ filetype: "lua" },
		[
			{ words: "fix \n\nVim mark A - /home/ada/p/.env:1:\n\n" },
			{ block: "TOKEN=abc", origin: mark("/home/ada/p/.env"), closed: true },
			{ words: "\n\n" },
		],
	],
	[
		"@diagnostics: inline after the user's words, one line each",
		"fix L1:C1 [ERROR] unused variable\nL4:C7 [WARN] shadowed `x`\nplease",
		{ filetype: "lua" },
		[
			{ words: "fix " },
			{ diagnostics: "L1:C1 [ERROR] unused variable", origin: BUFFER },
			{ words: "\n" },
			{ diagnostics: "L4:C7 [WARN] shadowed `x`", origin: BUFFER },
			{ words: "\nplease" },
		],
	],
	[
		"a fence the user typed with another language: its origin unknown",
		"compare with\n```python\nprint(1)\n```\nand",
		{ filetype: "lua" },
		[{ words: "compare with\n" }, { block: "print(1)", origin: UNKNOWN, closed: true }, { words: "\nand" }],
	],
	[
		"a fence with no tag at all: unknown",
		"```\nsecret?\n```",
		{ filetype: "lua" },
		[{ block: "secret?", origin: UNKNOWN, closed: true }],
	],
	[
		"a fence that never closes: the block runs to the end",
		"what about\n```lua\nlocal x\nlocal y",
		{ filetype: "lua" },
		[{ words: "what about\n" }, { block: "local x\nlocal y", origin: BUFFER, closed: false }],
	],
	[
		"words only, with @ names the plugin left as typed",
		"what does @foo do in @buffer?",
		{ filetype: "lua" },
		[{ words: "what does @foo do in @buffer?" }],
	],
	[
		"mark-like and diagnostic-like lines inside a fence stay in the block",
		"x\n\n```lua\nVim mark A - [a.lua:1](/p/a.lua): `y`\nL1:C1 [ERROR] z\n```\n\n",
		{ filetype: "lua" },
		[
			{ words: "x\n\n" },
			{ block: "Vim mark A - [a.lua:1](/p/a.lua): `y`\nL1:C1 [ERROR] z", origin: BUFFER, closed: true },
			{ words: "\n\n" },
		],
	],
];

describe("a prompt's text in parts", () => {
	test.each(TEXTS)("%s", (_name, text, context, expected) => {
		const parts = promptParts(text, context);
		expect(parts.map(shape)).toEqual(expected);
	});

	test.each(TEXTS)("the parts concatenated give back the text exactly: %s", (_name, text, context) => {
		expect(
			promptParts(text, context)
				.map((part) => part.text)
				.join(""),
		).toBe(text);
	});

	test("a block's fence lines are kept as sent, for pi to write them again", () => {
		const [, block] = promptParts("x\n\n````markdown\n```js\n```\n````\n\n", { filetype: "markdown" });
		expect(block).toMatchObject({ kind: "block", open: "````markdown", close: "````", body: "```js\n```" });
	});

	test("a whole prompt of every kind at once: the text back exactly, each part's origin", () => {
		const text = [
			"in",
			"",
			"```lua",
			"local a = 1",
			"```",
			"",
			"and",
			"",
			"Vim mark A - [b.lua:2](/p/b.lua): `return b`",
			"Vim mark B - /p/c.lua:9:",
			"",
			"```lua",
			"c()",
			"```",
			"fix L2:C3 [HINT] unused",
			"```python",
			"typed()",
			"```",
			"```lua",
			"unclosed",
		].join("\n");
		const parts = promptParts(text, { filetype: "lua" });
		expect(parts.map((part) => part.text).join("")).toBe(text);
		expect(parts.filter((part) => part.kind !== "words").map((part) => [part.kind, part.origin])).toEqual([
			["block", BUFFER],
			["mark", mark("/p/b.lua")],
			["block", mark("/p/c.lua")],
			["diagnostics", BUFFER],
			["block", UNKNOWN],
			["block", BUFFER],
		]);
	});
});
