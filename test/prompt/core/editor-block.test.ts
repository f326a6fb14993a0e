import { describe, expect, test } from "vitest";
import { absoluteFile } from "../../../src/editors/core/active-buffer.ts";
import { bufferFields, goneLine } from "../../../src/prompt/core/editor-block.ts";
import { cutText, fenceFor, fenceLanguageOf, MAX_SENT_TEXT_BYTES } from "../../../src/shared/core/text-cuts.ts";
import { firstBlockFor } from "../../support/blocks.ts";
import { editorState, nvimFixture, selection } from "../../support/fixtures.ts";

const NOW = 1_800_000_000;
const HEADER = `The user's editor state as of this prompt ("this file", "here" and "the selection" refer to it).`;

describe("the first block of a prompt (bufferFields, fullBlock, the selection payload)", () => {
	test("no selection: the lightweight block, exactly", () => {
		expect(firstBlockFor(editorState({ buffer: { modified: true } }), NOW, NOW)).toBe(
			[
				"<editor-context>",
				HEADER,
				"App: nvim",
				"File: /home/dev/proj/src/main.ts",
				"Language: typescript",
				"Cursor: line 42, column 10",
				"Buffer: 200 lines, unsaved changes",
				"</editor-context>",
			].join("\n"),
		);
	});

	test("fresh selection from the real visual-line capture, exactly", () => {
		const state = nvimFixture("visual-line-selection", { project: "/work/proj", selectedAt: NOW - 10 });
		expect(firstBlockFor(state, NOW, NOW)).toBe(
			[
				"<editor-context>",
				HEADER,
				"App: nvim",
				"File: /work/proj/src/main.ts",
				"Language: typescript",
				"Cursor: line 4, column 1",
				"Buffer: 6 lines, no unsaved changes",
				"Selection: lines 2-4 (from line 2 column 1 to line 4 column 5)",
				"```typescript",
				"line2\nline3\nline4",
				"```",
				"</editor-context>",
			].join("\n"),
		);
	});

	test("charwise single-line selection names one line", () => {
		const block = firstBlockFor(nvimFixture("charwise-selection", { selectedAt: NOW }), NOW, NOW);
		expect(block).toContain("Selection: line 5 (from line 5 column 2 to line 5 column 3)\n```typescript\nin\n```");
	});

	test.each([
		["stale", NOW - 61],
		["unknown time", null],
	])("a %s selection leaves no selection section and no text", (_name, selectedAt) => {
		const block = firstBlockFor(
			editorState({ buffer: { selection: selection(1, 2, "SECRET-TEXT", selectedAt) } }),
			NOW,
			NOW,
		);
		expect(block).not.toContain("Selection");
		expect(block).not.toContain("SECRET-TEXT");
		expect(block).not.toContain("```");
	});

	test.each([
		["unnamed buffer (real capture)", nvimFixture("unnamed-buffer")],
		["no active buffer", editorState({ active_buffer: null })],
	])("%s: no block", (_name, state) => {
		expect(firstBlockFor(state, NOW, NOW)).toBeUndefined();
	});

	test("optional fields: no language, no cursor column, no cursor", () => {
		const noColumn = firstBlockFor(
			editorState({ buffer: { language: null, cursor: { line: 3, column: null } } }),
			NOW,
			NOW,
		);
		expect(noColumn).toContain("File: /home/dev/proj/src/main.ts\nCursor: line 3\n");
		const noCursor = firstBlockFor(editorState({ buffer: { cursor: { line: null, column: null } } }), NOW, NOW);
		expect(noCursor).not.toContain("Cursor");
	});

	test("control characters from the file never reach the model raw", () => {
		const state = editorState({
			app: "nvim\u001b]0;x\u0007",
			buffer: {
				file: "/p/a\nFile: /etc/passwd",
				language: "ts\u202E",
				selection: selection(1, 2, "ok\u001b[2J\r\nline\u0000", NOW),
			},
		});
		const block = firstBlockFor(state, NOW, NOW) ?? "";
		expect(block).toMatch(/^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/);
		expect(block).toContain("File: /p/a\\u000aFile: /etc/passwd\n");
		expect(block).toContain("ok\\u001b[2J\nline\\u0000");
		expect(block.split("\n").filter((line) => line.startsWith("File:"))).toHaveLength(1);
		// A language that is not a plain tag is shown escaped but not used as the fence's info string.
		expect(block).toContain("\n```\nok");
	});

	test("selection text containing fences, tildes and the closing delimiter stays inside a longer fence", () => {
		const text = "```js\nx\n```\n~~~\n</editor-context>\n`````";
		const block =
			firstBlockFor(editorState({ buffer: { language: "md", selection: selection(1, 6, text, NOW) } }), NOW, NOW) ?? "";
		expect(block).toContain(`\`\`\`\`\`\`md\n${text}\n\`\`\`\`\`\`\n</editor-context>`);
		expect(block.endsWith("\n</editor-context>")).toBe(true);
	});
});

describe("an editor that cannot know about unsaved changes says so", () => {
	test.each([
		[
			"no-unsaved-text",
			"Buffer: 200 lines, unsaved changes unknown (the editor keeps no unsaved text here: positions are against the file on disk)",
		],
		["not-told", "Buffer: 200 lines, unsaved changes unknown (the editor does not tell them)"],
	] as const)("the Buffer line names it (%s), and what the positions count", (why, line) => {
		expect(bufferFields(editorState({ buffer: { modified: false } }), { unsavedUnknown: why })?.Buffer).toBe(line);
		expect(bufferFields(editorState({ buffer: { modified: true } }), { unsavedUnknown: why })?.Buffer).toBe(
			"Buffer: 200 lines, unsaved changes",
		);
	});

	test.each([
		["/p/main.ts", "ts"],
		["/p/Makefile", undefined],
		["/p/.env", undefined],
		["/p/archive.tar.gz", "gz"],
		["/p/dir.d/file", undefined],
		["/p/trailing.", undefined],
	])("the fence language %s suggests: %s", (path, language) => {
		expect(fenceLanguageOf(path)).toBe(language);
	});
});

describe("fenceFor", () => {
	test.each([
		["plain", "```"],
		["has ``` inside", "````"],
		["has ````` inside and `x`", "``````"],
		["~~~ tildes only", "```"],
	])("%s", (text, fence) => {
		expect(fenceFor(text)).toBe(fence);
	});
});

describe("cutText", () => {
	test("64 KiB or less is kept whole", () => {
		const text = "x".repeat(MAX_SENT_TEXT_BYTES);
		expect(cutText(text, { first: 1, last: 1 }, "selection")).toEqual({ text });
	});

	test("over 64 KiB is cut at a line boundary with the left-out lines named", () => {
		const line = "y".repeat(1023); // 1 KiB per line with its newline
		const text = Array.from({ length: 100 }, () => line).join("\n");
		const cut = cutText(text, { first: 10, last: 109 }, "selection");
		expect(cut.text.split("\n")).toHaveLength(64);
		expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(MAX_SENT_TEXT_BYTES);
		expect(cut.note).toBe("[selection cut at 64 KiB: lines 74-109 left out]");
	});

	test("a single huge line is cut inside the line at a character boundary", () => {
		const cut = cutText(`${"é".repeat(40_000)}\nnext`, { first: 7, last: 8 }, "selection");
		expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(MAX_SENT_TEXT_BYTES);
		expect(cut.text).toMatch(/^é+$/);
		expect(cut.note).toBe("[selection cut at 64 KiB: line 7 truncated; lines 8-8 left out]");
	});

	test("the caller names what was cut", () => {
		const text = Array.from({ length: 100 }, () => "y".repeat(1023)).join("\n");
		expect(cutText(text, { first: 1, last: 100 }, "reference").note).toBe(
			"[reference cut at 64 KiB: lines 65-100 left out]",
		);
	});

	test("the block of a 5 MB selection stays near the cap", () => {
		const big = Array.from({ length: 50_000 }, (_, i) => `line ${i} ${"z".repeat(90)}`).join("\n");
		const block = firstBlockFor(editorState({ buffer: { selection: selection(1, 50_000, big, NOW) } }), NOW, NOW) ?? "";
		expect(Buffer.byteLength(block)).toBeLessThan(MAX_SENT_TEXT_BYTES + 2048);
		expect(block).toMatch(/\[selection cut at 64 KiB: lines \d+-50000 left out\]\n<\/editor-context>$/);
	});
});

describe("absoluteFile", () => {
	test.each([
		["absolute stays", editorState(), "/home/dev/proj/src/main.ts"],
		[
			"Obsidian vault-relative resolves against cwd",
			editorState({ cwd: "/vault", buffer: { file: "Notes/foo.md" } }),
			"/vault/Notes/foo.md",
		],
		["dot segments collapse", editorState({ cwd: "/vault/", buffer: { file: "./a/../b.md" } }), "/vault/b.md"],
		["unnamed", editorState({ buffer: { file: null } }), undefined],
	])("%s", (_name, state, expected) => {
		expect(absoluteFile(state)).toBe(expected);
	});
});

describe("the line once an editor's latest state was rejected", () => {
	// A Neovim's server snapshot, a Zed row and a state file are all rejected alike: the model is told no channel's name.
	test("says the state is unknown and names no one origin's channel", () => {
		const line = goneLine("rejected");
		expect(line).toContain("The editor's state is unknown");
		expect(line).toContain("the previous editor context no longer applies.");
		for (const channel of ["state file", "database", "server", "snapshot"]) expect(line).not.toContain(channel);
	});
});
