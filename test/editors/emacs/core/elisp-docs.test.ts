import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { EMACS_ELISP_CHUNKS } from "../../../../src/editors/emacs/core/elisp/push-elisp.ts";
import { EMACS_REVIEW_ELISP_CHUNKS } from "../../../../src/review/core/emacs-diff-elisp.ts";
import { chunkFromQuotes, emacsElispQuotes } from "../../../support/elisp-quotes.ts";

/** docs/security.md promises every chunk of elisp pi sends into Emacs, verbatim: this keeps the promise. */
describe("docs/security.md quotes every chunk of elisp pi sends into Emacs", () => {
	const docs = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "docs", "security.md"), "utf8");
	const section = docs.slice(docs.indexOf("## What pi sends into Emacs"));
	const quotes = emacsElispQuotes();

	test.each(quotes.map((quote) => [quote.title, quote.text]))("%s is quoted", (_title, text) => {
		expect(section).toContain(`\`\`\`elisp\n${text}\n\`\`\``);
	});

	test.each(Object.entries({ ...EMACS_ELISP_CHUNKS, ...EMACS_REVIEW_ELISP_CHUNKS }))(
		"%s is the quotes put back together, character for character",
		(name, chunk) => {
			expect(chunkFromQuotes(name, quotes)).toBe(chunk);
		},
	);

	test("the section holds no other elisp: every block is one of the quotes", () => {
		const blocks = [...section.matchAll(/```elisp\n([\s\S]*?)\n```/g)].map((match) => match[1]);
		expect(blocks).toEqual(quotes.map((quote) => quote.text));
	});

	test("the shared pieces are shared: the snapshot form and the review's form are each quoted once", () => {
		const texts = quotes.map((quote) => quote.text);
		expect(texts.filter((text) => text.includes("(SNAPSHOT_FORM :indent")).length).toBeGreaterThan(0);
		expect(texts.filter((text) => text.includes("REVIEW_BODY")).length).toBe(1);
		expect(new Set(texts).size).toBe(texts.length);
	});
});
