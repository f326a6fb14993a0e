import { describe, expect, test } from "vitest";
import type { BridgePrompt } from "../../../src/pi-bridge/core/bridge-messages.ts";
import { promptParts } from "../../../src/pi-bridge/core/prompt-parts.ts";
import { finishedPrompt, type PartVerdict, promptLead } from "../../../src/pi-bridge/core/prompt-text.ts";

/** Each part's verdict as the safety rules would give it when nothing is secret: its text as it is. */
function asIs(text: string, filetype = "lua"): { parts: ReturnType<typeof promptParts>; verdicts: PartVerdict[] } {
	const parts = promptParts(text, { filetype });
	const verdicts = parts.map((part): PartVerdict => {
		if (part.kind === "block") return { redacted: part.body };
		if (part.kind === "mark") return { redacted: part.code };
		return { redacted: part.text };
	});
	return { parts, verdicts };
}

const finished = (text: string) => {
	const result = finishedPrompt(asIs(text));
	if (!result.ok) throw new Error(result.reason);
	return result;
};

describe("the prompt as pi sends it", () => {
	test.each([
		["@this", "look at\n\n```lua\nbbb\n```\n\nplease"],
		["@marks", "explain\n\nVim mark A - [a.lua:42](/p/a.lua): `local x = 1`\nVim mark b - [No Name]:2: `two`"],
		["@diagnostics", "fix L1:C1 [ERROR] unused variable\nL4:C7 [WARN] shadowed x"],
		["an older plugin's mark", "fix \n\nVim mark A - /p/b.lua:1:\n\n```lua\nalpha\n```\n\n"],
		["@content of markdown", "sum\n\n````markdown\n```js\nx()\n```\n````\n\n"],
	])("nothing secret, nothing long (%s): the text as the plugin sent it", (_name, text) => {
		expect(finished(text)).toEqual({ ok: true, text, withheld: 0, cut: 0 });
	});

	test("a lead goes first, a blank line after it", () => {
		const result = finishedPrompt({ lead: "File: @a.lua#L2", ...asIs("look at\n\n```lua\nbbb\n```\n\n") });
		expect(result).toMatchObject({ ok: true, text: "File: @a.lua#L2\n\nlook at\n\n```lua\nbbb\n```\n\n" });
	});

	test("a withheld block becomes a note in its place; the words around it unchanged", () => {
		const { parts } = asIs("what is wrong with\n\n```sh\nTOKEN=abc\n```\n\nin this file?", "sh");
		const result = finishedPrompt({
			parts,
			verdicts: [undefined, { withheld: ".env is a secret file" }, undefined],
		});
		expect(result).toEqual({
			ok: true,
			text: "what is wrong with\n\n[code block withheld: .env is a secret file]\n\nin this file?",
			withheld: 1,
			cut: 0,
		});
	});

	test("a withheld mark keeps its head (which file, which line), its code replaced by a note", () => {
		const { parts } = asIs(
			"see\n\nVim mark E - [.env:3](/p/.env): `API_KEY=sk-123`\nVim mark A - [a.lua:1](/p/a.lua): `x`",
		);
		const result = finishedPrompt({
			parts,
			verdicts: [undefined, { withheld: "a secret file" }, undefined, { redacted: " `x`" }],
		});
		expect(result).toMatchObject({
			ok: true,
			text: "see\n\nVim mark E - [.env:3](/p/.env): [withheld: a secret file]\nVim mark A - [a.lua:1](/p/a.lua): `x`",
			withheld: 1,
		});
	});

	test("withheld diagnostics: a note in their place", () => {
		const { parts } = asIs("fix L1:C1 [ERROR] bad token sk-123");
		expect(finishedPrompt({ parts, verdicts: [undefined, { withheld: "a secret file" }] })).toMatchObject({
			text: "fix [diagnostics withheld: a secret file]",
			withheld: 1,
		});
	});

	test("a part with no verdict is withheld as not checked, never sent as it came", () => {
		const { parts } = asIs("look\n\n```lua\nsecret()\n```\n\n");
		expect(finishedPrompt({ parts, verdicts: [] })).toMatchObject({
			text: "look\n\n[code block withheld: not checked]\n\n",
			withheld: 1,
		});
	});

	test("a redacted block: the redacted text inside the block's own fences", () => {
		const { parts } = asIs("why\n\n```sh\nexport TOKEN=ghp_abcdef\necho ok\n```\n\n", "sh");
		const result = finishedPrompt({
			parts,
			verdicts: [undefined, { redacted: "export TOKEN=[redacted]\necho ok" }, undefined],
		});
		expect(result).toEqual({
			ok: true,
			text: "why\n\n```sh\nexport TOKEN=[redacted]\necho ok\n```\n\n",
			withheld: 0,
			cut: 0,
		});
	});

	test("a redacted mark and redacted diagnostics: their redacted text", () => {
		const { parts } = asIs("a\n\nVim mark A - [k.lua:1](/p/k.lua): `key = 'sk-1'`\nfix L1:C1 [ERROR] sk-1 leaked");
		const verdicts: (PartVerdict | undefined)[] = parts.map((part) =>
			part.kind === "mark"
				? { redacted: " `key = '[redacted]'`" }
				: part.kind === "diagnostics"
					? { redacted: "L1:C1 [ERROR] [redacted] leaked" }
					: undefined,
		);
		expect(finishedPrompt({ parts, verdicts })).toMatchObject({
			text: "a\n\nVim mark A - [k.lua:1](/p/k.lua): `key = '[redacted]'`\nfix L1:C1 [ERROR] [redacted] leaked",
		});
	});

	test("the user's words lose control characters (an escape sequence, a bidi override) and keep their lines", () => {
		const result = finished("hi\u001b[31m red\u202e\tthere\nsecond line");
		expect(result.text).toBe("hi red\tthere\nsecond line");
	});

	test("control characters inside a block are written as visible escapes, not dropped", () => {
		expect(finished("x\n\n```lua\na\u0007b\n```\n\n").text).toBe("x\n\n```lua\na\\u0007b\n```\n\n");
	});

	test("an unclosed fence is closed with a fence as long as its opening", () => {
		expect(finished("what about\n````lua\nlocal x\nlocal y").text).toBe("what about\n````lua\nlocal x\nlocal y\n````");
	});

	test("a block over 64 KiB is cut at a line with a note after its fence", () => {
		const body = Array.from(
			{ length: 2000 },
			(_, index) => `local line_${String(index + 1).padStart(4, "0")} = ${"x".repeat(20)}`,
		);
		const text = `look\n\n\`\`\`lua\n${body.join("\n")}\n\`\`\`\n\nok`;
		expect(Buffer.byteLength(body.join("\n"))).toBeGreaterThan(64 * 1024);
		const result = finished(text);
		expect(result.cut).toBe(1);
		const [head, rest] = result.text.split("\n```\n");
		expect(head?.startsWith("look\n\n```lua\nlocal line_0001 = ")).toBe(true);
		expect(Buffer.byteLength(head ?? "")).toBeLessThanOrEqual(64 * 1024 + "look\n\n```lua\n".length);
		const keptLines = (head ?? "").split("\n").length - 3;
		expect(rest).toBe(`[code block cut at 64 KiB: lines ${keptLines + 1}-2000 left out]\n\nok`);
		expect(body.slice(0, keptLines).join("\n")).toBe((head ?? "").split("\n").slice(3).join("\n"));
	});

	test("past 256 KiB of blocks in all, the later blocks are left out with a note; the words all kept", () => {
		const block = (n: number) => `\`\`\`lua\n${`-- block ${n} ${"y".repeat(1000)}\n`.repeat(60).trimEnd()}\n\`\`\``;
		const blocks = [1, 2, 3, 4, 5].map(block);
		const text = blocks.map((one, index) => `part ${index + 1}\n\n${one}\n\n`).join("");
		const result = finished(text);
		expect(result.cut).toBe(1);
		expect(result.text).toBe(
			[1, 2, 3, 4]
				.map((n) => `part ${n}\n\n${block(n)}\n\n`)
				.concat("part 5\n\n[code block left out: 256 KiB of inlined code per prompt reached]\n\n")
				.join(""),
		);
	});

	test("marks and diagnostics do not count toward the 256 KiB of blocks", () => {
		const big = `\`\`\`lua\n${"z".repeat(60_000)}\n\`\`\``;
		const text = `${[1, 2, 3, 4].map(() => `${big}\nVim mark A - [a.lua:1](/p/a.lua): \`${"m".repeat(200)}\`\n`).join("")}`;
		expect(finished(text)).toMatchObject({ text, cut: 0 });
	});

	test("the buffer's file secret and a block pi cannot tell the file of: the whole prompt refused", () => {
		const { parts, verdicts } = asIs("compare\n\n```lua\nx\n```\n\nwith\n```\npasted?\n```\n");
		const result = finishedPrompt({ parts, verdicts, bufferSecret: ".env matches a secret pattern" });
		expect(result.ok).toBe(false);
		expect(!result.ok && result.reason).toContain(".env matches a secret pattern");
		expect(!result.ok && result.reason).toContain("nothing sent");
	});

	test("the buffer's file secret but every block known: sent, the buffer's blocks as their verdicts say", () => {
		const { parts } = asIs("look\n\n```sh\nTOKEN=1\n```\n\nand\n\nVim mark A - [a.lua:1](/p/a.lua): `x`", "sh");
		const verdicts: (PartVerdict | undefined)[] = parts.map((part) =>
			part.kind === "block" ? { withheld: "secret" } : part.kind === "mark" ? { redacted: part.code } : undefined,
		);
		expect(finishedPrompt({ parts, verdicts, bufferSecret: "secret" })).toEqual({
			ok: true,
			text: "look\n\n[code block withheld: secret]\n\nand\n\nVim mark A - [a.lua:1](/p/a.lua): `x`",
			withheld: 1,
			cut: 0,
		});
	});

	test("a block of unknown origin while the buffer is not secret: checked like any other, sent", () => {
		expect(finished("pasted\n```\nprint(1)\n```\n")).toMatchObject({ text: "pasted\n```\nprint(1)\n```\n" });
	});
});

const context = (fields: Partial<BridgePrompt["context"]> & { file: string }): BridgePrompt["context"] => ({
	cwd: "/home/ada/p",
	mode: "normal",
	...fields,
});
const PROJECT = { projectDir: "/home/ada/p" };

describe("what the model is told of the buffer first", () => {
	test.each<[string, BridgePrompt["context"], { projectDir: string; exists?: boolean }, string | undefined]>([
		[
			"saved, no range: a link",
			context({ file: "/home/ada/p/src/a.ts", buffer_state: "saved" }),
			PROJECT,
			"File: @src/a.ts",
		],
		[
			"saved with range 12-20: a link to those lines",
			context({ file: "/home/ada/p/src/a.ts", buffer_state: "saved", range: "12-20" }),
			PROJECT,
			"File: @src/a.ts#L12-20",
		],
		[
			"saved with range 25: a link to that line",
			context({ file: "/home/ada/p/src/a.ts", buffer_state: "saved", range: "25" }),
			PROJECT,
			"File: @src/a.ts#L25",
		],
		[
			"saved with several ranges 25,40-45: named after the link",
			context({ file: "/home/ada/p/src/a.ts", buffer_state: "saved", range: "25,40-45" }),
			PROJECT,
			"File: @src/a.ts (lines 25, 40-45)",
		],
		[
			"saved outside the project: the absolute path",
			context({ file: "/etc/hosts", buffer_state: "saved", range: "3" }),
			PROJECT,
			"File: @/etc/hosts#L3",
		],
		[
			"saved, a path with a space: quoted",
			context({ file: "/home/ada/p/my notes/a b.md", buffer_state: "saved", range: "2-4" }),
			PROJECT,
			'File: @"my notes/a b.md"#L2-4',
		],
		[
			"modified: a hint that the disk may differ",
			context({ file: "/home/ada/p/src/a.ts", buffer_state: "modified", range: "3" }),
			PROJECT,
			"[Hint: @src/a.ts has unsaved changes in Neovim: the file on disk may differ. Ask the user, or for its current text, before editing it.]",
		],
		[
			"scratch: a hint not to edit it",
			context({ file: "/home/ada/.local/share/nvim/scratch/x.lua", buffer_state: "scratch" }),
			PROJECT,
			"[Hint: the code is from a scratch buffer in Neovim, a copy that does not last (@/home/ada/.local/share/nvim/scratch/x.lua): do not edit that file; ask the user for the real one.]",
		],
		[
			"unsaved (named, never written): a hint not to search the disk",
			context({ file: "/home/ada/p/new.ts", buffer_state: "unsaved" }),
			PROJECT,
			"[Hint: the code is from a Neovim buffer not saved to a file: do not search the disk for it; ask the user where it belongs.]",
		],
		[
			"nameless (the plugin sends an empty file): the same hint",
			context({ file: "", buffer_state: "nameless" }),
			PROJECT,
			"[Hint: the code is from a Neovim buffer not saved to a file: do not search the disk for it; ask the user where it belongs.]",
		],
		[
			"no state (an older plugin), the file exists: a link",
			context({ file: "/home/ada/p/src/a.ts", range: "7" }),
			{ ...PROJECT, exists: true },
			"File: @src/a.ts#L7",
		],
		[
			"no state, the file missing: a hint",
			context({ file: "/home/ada/p/gone.ts" }),
			{ ...PROJECT, exists: false },
			"[Hint: @gone.ts does not exist on disk (a buffer Neovim has not saved?): do not search for it; ask the user where it is.]",
		],
		[
			"no state, nothing known of the disk: a hint, never a link",
			context({ file: "/home/ada/p/gone.ts" }),
			PROJECT,
			"[Hint: @gone.ts does not exist on disk (a buffer Neovim has not saved?): do not search for it; ask the user where it is.]",
		],
		["a relative file: nothing", context({ file: "src/a.ts", buffer_state: "saved" }), PROJECT, undefined],
		["an empty file, no state: nothing", context({ file: "" }), { ...PROJECT, exists: false }, undefined],
		[
			"a path with a control character: escaped, not raw",
			context({ file: "/home/ada/p/a\u001b[2Jb.ts", buffer_state: "saved" }),
			PROJECT,
			"File: @a\\u001b[2Jb.ts",
		],
	])("%s", (_name, promptContext, facts, expected) => {
		expect(promptLead(promptContext, facts)).toBe(expected);
	});
});
