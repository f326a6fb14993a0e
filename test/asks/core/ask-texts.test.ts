import { describe, expect, test } from "vitest";
import { askedFrom, askText, doneText, notSentReason, withAskedFrom } from "../../../src/asks/core/ask-texts.ts";

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("doneText: how a finished run is told", () => {
	test.each<[string, { files: string[]; error?: string; aborted: boolean }, number, string]>([
		["nothing changed", { files: [], aborted: false }, 0, "pi: done"],
		["one file, by its base name", { files: ["/p/src/a.ts"], aborted: false }, 0, "pi: done, changed a.ts"],
		[
			"three files",
			{ files: ["/p/a.ts", "/p/src/b.ts", "/q/c.md"], aborted: false },
			0,
			"pi: done, changed a.ts, b.ts, c.md",
		],
		[
			"more than three: the rest counted",
			{ files: ["/p/a.ts", "/p/b.ts", "/p/c.ts", "/p/d.ts", "/p/e.ts"], aborted: false },
			0,
			"pi: done, changed a.ts, b.ts, c.ts and 2 more",
		],
		["an error", { files: [], error: "429 rate limited", aborted: false }, 0, "pi: error: 429 rate limited"],
		[
			"an error after a change",
			{ files: ["/p/a.ts"], error: "overloaded", aborted: false },
			0,
			"pi: error: overloaded",
		],
		["stopped", { files: ["/p/a.ts"], aborted: true }, 0, "pi: stopped"],
		["stopped, with the abort's error", { files: [], error: "aborted", aborted: true }, 0, "pi: stopped"],
		[
			"one file changed on disk, not reloaded",
			{ files: [], aborted: false },
			1,
			"pi: done; 1 file changed on disk, not reloaded",
		],
		[
			"files changed and files not reloaded",
			{ files: ["/p/a.ts"], aborted: false },
			2,
			"pi: done, changed a.ts; 2 files changed on disk, not reloaded",
		],
		[
			"an error and a file not reloaded",
			{ files: [], error: "boom", aborted: false },
			1,
			"pi: error: boom; 1 file changed on disk, not reloaded",
		],
		[
			"stopped and files not reloaded",
			{ files: [], aborted: true },
			3,
			"pi: stopped; 3 files changed on disk, not reloaded",
		],
	])("%s", (_name, run, notReloaded, text) => {
		expect(doneText(run, notReloaded)).toBe(text);
	});

	test.each([
		["an escape sequence and a newline", "boom\u001b[31m red\u001b[0m\nsecond line\u0007"],
		["a bidi override", "bad \u202eeulav\u202c here"],
		["C1 controls and DEL", "x\u009b2Jy\u007fz\u0085"],
		["an OSC title", "\u001b]0;owned\u0007error"],
	])("an error with %s is one safe line", (_name, error) => {
		const text = doneText({ files: [], error, aborted: false }, 0);
		expect(text.startsWith("pi: error: ")).toBe(true);
		expect(text).not.toMatch(CONTROL);
		expect(text).not.toContain("\n");
		expect(text).not.toContain("owned");
	});

	test("an escape sequence is dropped, other controls become spaces", () => {
		expect(doneText({ files: [], error: "boom\u001b[31m red\nnext", aborted: false }, 0)).toBe(
			"pi: error: boom red next",
		);
	});

	test("a long error is cut; a file name with controls made safe", () => {
		const long = doneText({ files: [], error: "e".repeat(500), aborted: false }, 0);
		expect(long).toBe(`pi: error: ${"e".repeat(157)}...`);
		const named = doneText({ files: ["/p/a\u001b[2J\nb.ts"], aborted: false }, 0);
		expect(named).toBe("pi: done, changed a b.ts");
	});
});

describe("the one-line words told the editor", () => {
	test.each<[string, string, string]>([
		["working with a model", askText.working("anthropic/claude-sonnet"), "pi: working (anthropic/claude-sonnet)"],
		["working without a model", askText.working(undefined), "pi: working"],
		["working, a model name with controls", askText.working("evil\u001b[2J\nmodel"), "pi: working (evil model)"],
		["not sent", askText.notSent(notSentReason.noModel), "pi: not sent: pi has no model (pick one with /model)"],
		["not sent, a thrown message", askText.notSent("bad\u0007\nthing"), "pi: not sent: bad  thing"],
		[
			"refused",
			askText.refused("prompt too long (65 KiB typed; 64 KiB at most)"),
			"pi: prompt too long (65 KiB typed; 64 KiB at most)",
		],
		["added", askText.added("@src/a.ts#L3-5"), "pi: added @src/a.ts#L3-5 to pi's input"],
	])("%s", (_name, text, expected) => {
		expect(text).toBe(expected);
		expect(text).not.toMatch(CONTROL);
	});

	test("every reason is one line of plain words", () => {
		for (const reason of Object.values(notSentReason)) {
			expect(reason).not.toMatch(CONTROL);
			expect(askText.notSent(reason)).toBe(`pi: not sent: ${reason}`);
		}
	});
});

describe("withAskedFrom: the prompt's message names the editor", () => {
	test("a message there already: its transcript line starts with the editor", () => {
		const message = {
			content: "<editor-context>x</editor-context>",
			details: { v: 1 as const, kind: "full" as const, summary: "src/a.ts" },
		};
		const out = withAskedFrom(message as Parameters<typeof withAskedFrom>[0], askedFrom("Neovim 4242"));
		expect(out.content).toBe(message.content);
		expect(out.details.summary).toBe("asked from Neovim 4242; src/a.ts");
	});

	test("none (explicit context): one line of its own, the label escaped", () => {
		const out = withAskedFrom(undefined, askedFrom("Emacs\n4242"));
		expect(out.content).toBe(
			"<editor-context>The user typed this prompt in the editor (asked from Emacs\\u000a4242).</editor-context>",
		);
		expect(out.details).toEqual({ v: 1, kind: "references", summary: "editor: asked from Emacs\n4242" });
	});
});
