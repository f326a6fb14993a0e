import type { AutocompleteItem, AutocompleteProvider } from "@mariozechner/pi-tui";
import { describe, expect, test } from "vitest";
import { withSelectionReference } from "../../src/references/completion.ts";

/** pi's own provider, reduced to what it does for `@` tokens: file suggestions with the token as prefix. */
const files: AutocompleteProvider = {
	async getSuggestions(lines, cursorLine, cursorCol) {
		const token = /(?:^|\s)(@\S*)$/.exec((lines[cursorLine] ?? "").slice(0, cursorCol))?.[1];
		if (token === undefined) return null;
		return { prefix: token, items: [{ value: "@src/main.ts", label: "main.ts" }] };
	},
	applyCompletion(lines, cursorLine, cursorCol, item, prefix) {
		const line = lines[cursorLine] ?? "";
		const next = [...lines];
		next[cursorLine] = `${line.slice(0, cursorCol - prefix.length)}${item.value}${line.slice(cursorCol)}`;
		return { lines: next, cursorLine, cursorCol: cursorCol - prefix.length + item.value.length };
	},
};
const signal = new AbortController().signal;
const suggest = (provider: AutocompleteProvider, text: string) =>
	provider.getSuggestions([text], 0, text.length, { signal });

describe("@ completion offers the editor's selection first", () => {
	const withSelection = withSelectionReference(files, () => "@src/main.ts#L10-14");
	test.each([
		["a bare @", "explain @", ["@src/main.ts#L10-14", "@src/main.ts"]],
		["a prefix it matches", "explain @src/ma", ["@src/main.ts#L10-14", "@src/main.ts"]],
		["at the start of the input", "@", ["@src/main.ts#L10-14", "@src/main.ts"]],
		["a prefix it does not match", "explain @lib/", ["@src/main.ts"]],
	])("%s", async (_name, text, values) => {
		expect((await suggest(withSelection, text))?.items.map((item) => item.value)).toEqual(values);
	});

	test("no @ token, or no selection: pi's own completion, untouched", async () => {
		expect(await suggest(withSelection, "explain this")).toBeNull();
		const noSelection = withSelectionReference(files, () => undefined);
		expect((await suggest(noSelection, "explain @"))?.items.map((item) => item.value)).toEqual(["@src/main.ts"]);
	});

	test("applying it replaces the token and leaves a space; pi's own items apply as pi applies them", async () => {
		const suggestions = await suggest(withSelection, "explain @src");
		if (!suggestions) throw new Error("no suggestions");
		const [ours, theirs] = suggestions.items as [AutocompleteItem, AutocompleteItem];
		expect(withSelection.applyCompletion(["explain @src and more"], 0, 12, ours, "@src")).toEqual({
			lines: ["explain @src/main.ts#L10-14  and more"],
			cursorLine: 0,
			cursorCol: 28,
		});
		expect(withSelection.applyCompletion(["explain @src"], 0, 12, theirs, "@src").lines).toEqual([
			"explain @src/main.ts",
		]);
	});
});
