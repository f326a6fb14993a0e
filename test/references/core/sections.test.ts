import { describe, expect, test } from "vitest";
import {
	MAX_REFERENCED_BYTES_PER_PROMPT,
	type ResolvedReference,
	referenceId,
	referenceSections,
} from "../../../src/references/core/sections.ts";

const text = (overrides: Partial<Extract<ResolvedReference, { kind: "text" }>> = {}): ResolvedReference => ({
	kind: "text",
	file: "/p/src/util.ts",
	shown: "src/util.ts",
	startLine: 2,
	endLine: 3,
	text: "const a = 1;\nconst b = 2;",
	language: "ts",
	from: "disk",
	unsavedInEditor: false,
	redactions: 0,
	...overrides,
});
const none = { alreadySent: new Set<string>() };

describe("referenceSections", () => {
	test("a text from disk: path and range named, fenced as a selection is", () => {
		const out = referenceSections([text()], [], none);
		expect(out.sections).toEqual([
			[
				"<editor-reference>",
				"The user referenced /p/src/util.ts lines 2-3 (from the file on disk):",
				"```ts",
				"const a = 1;",
				"const b = 2;",
				"```",
				"</editor-reference>",
			].join("\n"),
		]);
		expect(out.summaries).toEqual(["src/util.ts#L2-3 attached"]);
		expect(out.sentIds).toEqual([
			referenceId({ file: "/p/src/util.ts", startLine: 2, endLine: 3, text: "const a = 1;\nconst b = 2;" }),
		]);
	});

	test("from the editor's selection; unsaved changes on disk; clipped; cut; redacted", () => {
		const [fromSelection] = referenceSections(
			[text({ from: "selection", startLine: 4, endLine: 4 })],
			[],
			none,
		).sections;
		expect(fromSelection).toContain(
			"The user referenced /p/src/util.ts line 4 (from the editor's selection, which may hold unsaved edits):",
		);
		const out = referenceSections(
			[
				text({
					unsavedInEditor: true,
					clippedFrom: { endLine: 20, lines: 3 },
					cutNote: "[reference cut at 64 KiB: lines 3-3 left out]",
					redactions: 2,
				}),
			],
			[],
			none,
		);
		expect(out.sections[0]?.split("\n").slice(1, 4)).toEqual([
			"The user referenced /p/src/util.ts lines 2-3 (from the file on disk):",
			"[asked up to line 20; the file has 3 lines]",
			"[the editor has unsaved changes to this file; this is the text on disk]",
		]);
		expect(out.sections[0]).toContain("```\n[reference cut at 64 KiB: lines 3-3 left out]\n</editor-reference>");
		expect(out.summaries).toEqual(["src/util.ts#L2-3 attached, 2 secrets redacted"]);
	});

	test("send once: the same file, range and text is one line; changed text goes again", () => {
		const sent = referenceSections([text()], [], none).sentIds;
		const again = referenceSections([text()], [], { alreadySent: new Set(sent) });
		expect(again.sections).toEqual([
			"<editor-reference>/p/src/util.ts lines 2-3: the same text as sent with an earlier prompt</editor-reference>",
		]);
		expect(again.sentIds).toEqual([]);
		expect(again.summaries).toEqual(["src/util.ts#L2-3 unchanged, not resent"]);
		const changed = referenceSections([text({ text: "const a = 9;" })], [], { alreadySent: new Set(sent) });
		expect(changed.sentIds).toHaveLength(1);
	});

	test("the fresh selection the ambient block carries with the same prompt goes once", () => {
		const out = referenceSections([text({ from: "selection" })], [], {
			...none,
			ambientSelection: { file: "/p/src/util.ts", startLine: 2, endLine: 3 },
		});
		expect(out.sections).toEqual([
			"<editor-reference>/p/src/util.ts lines 2-3: the selection in the editor context above</editor-reference>",
		]);
		expect(out.sentIds).toEqual([]);
	});

	test("withheld, problems and notes are one line each", () => {
		const out = referenceSections(
			[
				{
					kind: "withheld",
					file: "/p/.env",
					shown: ".env",
					startLine: 1,
					endLine: 2,
					reason: '.env matches the secret-file pattern ".env"',
					label: ".env",
				},
				{ kind: "problem", shown: "src/nope.ts", problem: "file not found" },
				{ kind: "problem", shown: "img.png", problem: "binary" },
			],
			["@a.ts#L0: line 0 is not a line (lines start at 1)"],
			none,
		);
		expect(out.sections).toEqual([
			"<editor-reference>@a.ts#L0: line 0 is not a line (lines start at 1)</editor-reference>",
			'<editor-reference>/p/.env lines 1-2: text withheld: .env matches the secret-file pattern ".env"</editor-reference>',
			"<editor-reference>src/nope.ts: file not found</editor-reference>",
			"<editor-reference>img.png: binary</editor-reference>",
		]);
		expect(out.summaries).toEqual([
			"@a.ts#L0: line 0 is not a line (lines start at 1)",
			".env#L1-2 withheld (.env)",
			"src/nope.ts: file not found",
			"img.png: binary",
		]);
		expect(out.sentIds).toEqual([]);
	});

	test(`at most ${MAX_REFERENCED_BYTES_PER_PROMPT / 1024} KiB of referenced text per prompt; the rest named`, () => {
		const big = "x".repeat(60 * 1024);
		const many = Array.from({ length: 6 }, (_, i) => text({ file: `/p/f${i}.ts`, shown: `f${i}.ts`, text: big }));
		const out = referenceSections(many, [], none);
		expect(out.sentIds).toHaveLength(4);
		expect(out.sections.slice(4)).toEqual([
			"<editor-reference>/p/f4.ts lines 2-3: not attached (256 KiB of referenced text per prompt reached)</editor-reference>",
			"<editor-reference>/p/f5.ts lines 2-3: not attached (256 KiB of referenced text per prompt reached)</editor-reference>",
		]);
	});

	test("paths typed with control characters cannot forge lines", () => {
		const out = referenceSections(
			[{ kind: "problem", shown: "a\nFile: /etc/passwd", problem: "file not found" }],
			[],
			none,
		);
		expect(out.sections[0]).not.toContain("\n");
		expect(out.summaries[0]).not.toContain("\n");
	});
});
