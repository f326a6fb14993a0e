import { describe, expect, test } from "vitest";
import { contextMessage } from "../../../src/prompt/core/context-message.ts";
import { type EditorFields, goneLine, unchangedLine } from "../../../src/prompt/core/editor-block.ts";
import type { EditorForPrompt } from "../../../src/prompt/core/editor-for-prompt.ts";
import { type ModelKnowledge, NO_KNOWLEDGE } from "../../../src/prompt/core/model-knowledge.ts";
import { cutForPrompt, sentSelection, withheldSelection } from "../../../src/prompt/core/selection-payload.ts";
import { selection } from "../../support/fixtures.ts";

const FIELDS: EditorFields = {
	App: "App: nvim",
	File: "File: /p/src/main.ts",
	Language: "Language: typescript",
	Cursor: "Cursor: line 4, column 1",
	Buffer: "Buffer: 6 lines, no unsaved changes",
};
const source = (text = "line2\nline3\nline4", selectedAt = 100) => ({
	file: "/p/src/main.ts",
	language: "typescript",
	selection: selection(2, 4, text, selectedAt),
});
const SENT = sentSelection(source(), cutForPrompt(source().selection), 0);
const editor = (overrides: Partial<Extract<EditorForPrompt, { kind: "editor" }>> = {}): EditorForPrompt => ({
	kind: "editor",
	fields: FIELDS,
	fileLabel: "src/main.ts",
	cursorLine: 4,
	...overrides,
});
const knows = (fields: EditorFields, selectionId?: string, sent: string[] = []): ModelKnowledge => ({
	known: { fields, selection: selectionId },
	sentTextIds: new Set(sent),
});

const FULL_NO_SELECTION = [
	"<editor-context>",
	`The user's editor state as of this prompt ("this file", "here" and "the selection" refer to it).`,
	"App: nvim",
	"File: /p/src/main.ts",
	"Language: typescript",
	"Cursor: line 4, column 1",
	"Buffer: 6 lines, no unsaved changes",
	"</editor-context>",
].join("\n");
const DELTA_HEADER =
	"The user's editor changed since the previous editor context; only these lines differ, the rest is as it was:";
const RANGE = "lines 2-4 (from line 2 column 1 to line 4 column 5)";

describe("contextMessage: each thing enters the model's context once", () => {
	test.each<[string, EditorForPrompt, ModelKnowledge, string | undefined, string | undefined, string | undefined]>([
		[
			"nothing known: the full block",
			editor(),
			NO_KNOWLEDGE,
			FULL_NO_SELECTION,
			"full",
			"editor: src/main.ts line 4, no selection",
		],
		[
			"nothing known, fresh selection: the full block with its text",
			editor({ selection: SENT }),
			NO_KNOWLEDGE,
			FULL_NO_SELECTION.replace(
				"</editor-context>",
				`Selection: ${RANGE}\n\`\`\`typescript\nline2\nline3\nline4\n\`\`\`\n</editor-context>`,
			),
			"full",
			"editor: src/main.ts line 4, 3 lines selected",
		],
		["nothing changed: one line", editor(), knows(FIELDS), unchangedLine(), "unchanged", "editor unchanged"],
		[
			"same selection still in context: one line, text not repeated",
			editor({ selection: SENT }),
			knows(FIELDS, SENT.id, [SENT.id]),
			unchangedLine(),
			"unchanged",
			"editor unchanged",
		],
		[
			"cursor moved: only the cursor line",
			editor({ fields: { ...FIELDS, Cursor: "Cursor: line 9, column 2" }, cursorLine: 9 }),
			knows(FIELDS),
			`<editor-context>\n${DELTA_HEADER}\nCursor: line 9, column 2\n</editor-context>`,
			"delta",
			"editor: src/main.ts line 9, no selection",
		],
		[
			"cursor moved while the sent selection is still there: named, not resent",
			editor({ fields: { ...FIELDS, Cursor: "Cursor: line 9, column 2" }, selection: SENT, cursorLine: 9 }),
			knows(FIELDS, SENT.id, [SENT.id]),
			`<editor-context>\n${DELTA_HEADER}\nCursor: line 9, column 2\n</editor-context>`,
			"delta",
			"editor: src/main.ts line 9, selection unchanged, not resent",
		],
		[
			"the model knows the file but the selection's text left its context: sent again",
			editor({ selection: SENT }),
			knows(FIELDS, SENT.id, []),
			`<editor-context>\n${DELTA_HEADER}\nSelection: ${RANGE}\n\`\`\`typescript\nline2\nline3\nline4\n\`\`\`\n</editor-context>`,
			"delta",
			"editor: src/main.ts line 4, 3 lines selected",
		],
		[
			"a selection sent earlier comes back: named with where its text is",
			editor({ selection: SENT }),
			knows(FIELDS, undefined, [SENT.id]),
			`<editor-context>\n${DELTA_HEADER}\nSelection: ${RANGE}, the text sent with an earlier prompt\n</editor-context>`,
			"delta",
			"editor: src/main.ts line 4, selection unchanged, not resent",
		],
		[
			"the selection went stale: Selection none",
			editor(),
			knows(FIELDS, SENT.id, [SENT.id]),
			`<editor-context>\n${DELTA_HEADER}\nSelection: none\n</editor-context>`,
			"delta",
			"editor: src/main.ts line 4, no selection",
		],
		[
			"another file: the full block again",
			editor({ fields: { ...FIELDS, File: "File: /p/src/other.ts" }, fileLabel: "src/other.ts" }),
			knows(FIELDS),
			FULL_NO_SELECTION.replace("/p/src/main.ts", "/p/src/other.ts"),
			"full",
			"editor: src/other.ts line 4, no selection",
		],
		[
			"a line that disappears is said to be unknown",
			editor({ fields: { ...FIELDS, Cursor: undefined }, cursorLine: undefined }),
			knows(FIELDS),
			`<editor-context>\n${DELTA_HEADER}\nCursor: unknown\n</editor-context>`,
			"delta",
			"editor: src/main.ts, no selection",
		],
		[
			"gone after a block: one line",
			{ kind: "gone", reason: "disconnected" },
			knows(FIELDS),
			goneLine("disconnected"),
			"gone",
			"editor disconnected",
		],
		[
			"no file after a block",
			{ kind: "gone", reason: "no-file" },
			knows(FIELDS),
			goneLine("no-file"),
			"gone",
			"editor: no file open",
		],
		[
			"rejected after a block",
			{ kind: "gone", reason: "rejected" },
			knows(FIELDS),
			goneLine("rejected"),
			"gone",
			"editor state unknown (its latest state was rejected)",
		],
		[
			"gone with nothing known (or already said): nothing",
			{ kind: "gone", reason: "disconnected" },
			NO_KNOWLEDGE,
			undefined,
			undefined,
			undefined,
		],
	])("%s", (_name, now, knowledge, content, kind, summary) => {
		const message = contextMessage(now, knowledge);
		expect(message?.content).toBe(content);
		expect(message?.details.kind).toBe(kind);
		expect(message?.details.summary).toBe(summary);
	});

	test("details record what the model holds afterwards; sentSelection only when the text went along", () => {
		const first = contextMessage(editor({ selection: SENT }), NO_KNOWLEDGE);
		expect(first?.details).toEqual({
			v: 1,
			kind: "full",
			fields: FIELDS,
			selection: SENT.id,
			selectionLines: 3,
			sentSelection: SENT.id,
			summary: "editor: src/main.ts line 4, 3 lines selected",
		});
		const repeat = contextMessage(editor({ selection: SENT }), knows(FIELDS, SENT.id, [SENT.id]));
		expect(repeat?.details.sentSelection).toBeUndefined();
		expect(repeat?.details.selection).toBe(SENT.id);
	});

	test("the selection's identity is the text as sent: a new selected_at or other text is another selection", () => {
		const again = sentSelection(source(), cutForPrompt(source().selection), 0);
		expect(again.id).toBe(SENT.id);
		expect(sentSelection(source("line2\nline3\nline4", 101), cutForPrompt(source().selection), 0).id).not.toBe(SENT.id);
		expect(sentSelection(source("other"), cutForPrompt(selection(2, 4, "other", 100)), 0).id).not.toBe(SENT.id);
	});

	test("a cut selection says so; a withheld one names why and never counts as sent", () => {
		const big = "x".repeat(70 * 1024);
		const cut = sentSelection(source(big), cutForPrompt(selection(2, 4, big, 100)), 0);
		expect(contextMessage(editor({ selection: cut }), NO_KNOWLEDGE)?.details.summary).toBe(
			"editor: src/main.ts line 4, 3 lines selected, selection cut at 64 KiB",
		);
		const withheld = withheldSelection(source(), {
			reason: '.env matches the secret-file pattern ".env"',
			label: ".env",
		});
		const message = contextMessage(editor({ selection: withheld }), NO_KNOWLEDGE);
		expect(message?.content).toContain(
			`Selection: ${RANGE}, text withheld: .env matches the secret-file pattern ".env"`,
		);
		expect(message?.content).not.toContain("line3");
		expect(message?.details.sentSelection).toBeUndefined();
		expect(message?.details.summary).toBe("editor: src/main.ts line 4, selection withheld (.env)");
	});

	test("redactions are counted in the transcript line", () => {
		const redacted = sentSelection(source(), cutForPrompt(source().selection), 2);
		expect(contextMessage(editor({ selection: redacted }), NO_KNOWLEDGE)?.details).toMatchObject({
			summary: "editor: src/main.ts line 4, 3 lines selected, 2 secrets redacted",
			redactions: 2,
		});
	});
});

describe("contextMessage: the diagnostics section is sent once, whole when it changed", () => {
	const DIAGNOSTICS = "Diagnostics: 1 error, 0 warnings\n- line 2: error: Undefined variable 'x' [pyright]";
	const withDiagnostics = (text = DIAGNOSTICS): EditorFields => ({ ...FIELDS, Diagnostics: text });
	test.each<[string, EditorForPrompt, ModelKnowledge, string]>([
		[
			"nothing known: in the full block, after the selection's text",
			editor({ fields: withDiagnostics(), selection: SENT }),
			NO_KNOWLEDGE,
			`${RANGE}\n\`\`\`typescript\nline2\nline3\nline4\n\`\`\`\n${DIAGNOSTICS}\n</editor-context>`,
		],
		["unchanged: not sent again", editor({ fields: withDiagnostics() }), knows(withDiagnostics()), unchangedLine()],
		[
			"changed: the whole section in a delta",
			editor({ fields: withDiagnostics("Diagnostics: 0 errors, 1 warning\n- line 9: warning: w") }),
			knows(withDiagnostics()),
			`${DELTA_HEADER}\nDiagnostics: 0 errors, 1 warning\n- line 9: warning: w\n</editor-context>`,
		],
		[
			"gone away: 'none now' once",
			editor(),
			knows(withDiagnostics()),
			`${DELTA_HEADER}\nDiagnostics: none now\n</editor-context>`,
		],
		["after 'none now': nothing more", editor(), knows(FIELDS), unchangedLine()],
	])("%s", (_name, now, knowledge, ending) => {
		const message = contextMessage(now, knowledge);
		expect(message?.content.endsWith(ending)).toBe(true);
		// What the model holds afterwards is what this prompt's editor shows: "none now" is not a field it keeps.
		expect(message?.details.fields?.Diagnostics).toBe(now.kind === "editor" ? now.fields.Diagnostics : undefined);
	});
});
