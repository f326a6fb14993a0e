import { describe, expect, test } from "vitest";
import * as elisp from "../../../../src/editors/emacs/core/elisp/probe-elisp.ts";
import { evalRequestLine } from "../../../../src/editors/emacs/core/server-protocol.ts";

/** The fixed texts pi sends: each must be one callable form that a request line can carry. */
describe("every chunk of elisp pi sends", () => {
	const chunks: [string, string][] = Object.entries(elisp as Record<string, unknown>).filter(
		(entry): entry is [string, string] => typeof entry[1] === "string",
	);

	test("there are some", () => expect(chunks.length).toBeGreaterThan(0));

	test.each(chunks)("%s: a lambda of one argument, ASCII, brackets balanced outside strings", (_name, text) => {
		expect(text.startsWith("(lambda (pi-ide-args)")).toBe(true);
		expect(text).toMatch(/^[\x20-\x7e\n]*$/);
		let depth = 0;
		let inString = false;
		for (let index = 0; index < text.length; index++) {
			const char = text[index];
			if (inString) {
				if (char === "\\") index++;
				else if (char === '"') inString = false;
			} else if (char === '"') inString = true;
			else if (char === "(") depth++;
			else if (char === ")") {
				depth--;
				if (depth === 0) expect(index).toBe(text.length - 1);
			}
			expect(depth).toBeGreaterThanOrEqual(0);
		}
		expect([depth, inString]).toEqual([0, false]);
		expect(evalRequestLine(text, { a: 1 }).ok).toBe(true);
	});

	test.each(chunks)(
		"%s: catches every error itself (an error reaching the server blocks 28.2 for 5 s)",
		(_name, text) => {
			expect(text).toMatch(/^\(lambda \(pi-ide-args\)\n {2}\(condition-case pi-ide-error/);
		},
	);
});
