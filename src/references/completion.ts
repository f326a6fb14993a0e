import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions } from "@mariozechner/pi-tui";

/** An `@` token right before the cursor, at the start of the input or after whitespace. */
const AT_TOKEN = /(?:^|\s)(@\S*)$/;

/**
 * pi's `@` completion with one more suggestion first: the reference ctrl+alt+k would insert for the editor's
 * selection (`@src/main.ts#L10-14`), while the editor has one and it matches what was typed. Everything else
 * is pi's own completion, untouched.
 */
export function withSelectionReference(
	current: AutocompleteProvider,
	selectionReference: () => string | undefined,
): AutocompleteProvider {
	const ours = new WeakSet<AutocompleteItem>();
	return {
		async getSuggestions(lines, cursorLine, cursorCol, options): Promise<AutocompleteSuggestions | null> {
			const base = await current.getSuggestions(lines, cursorLine, cursorCol, options);
			const token = AT_TOKEN.exec((lines[cursorLine] ?? "").slice(0, cursorCol))?.[1];
			const value = token === undefined ? undefined : selectionReference();
			if (token === undefined || value === undefined || !value.startsWith(token)) return base;
			if (base && base.prefix !== token) return base;
			const item: AutocompleteItem = { value, label: value, description: "the editor's selection" };
			ours.add(item);
			return { prefix: token, items: [item, ...(base?.items ?? []).filter((other) => other.value !== value)] };
		},
		applyCompletion(lines, cursorLine, cursorCol, item, prefix) {
			if (!ours.has(item)) return current.applyCompletion(lines, cursorLine, cursorCol, item, prefix);
			const line = lines[cursorLine] ?? "";
			const start = cursorCol - prefix.length;
			const next = [...lines];
			next[cursorLine] = `${line.slice(0, start)}${item.value} ${line.slice(cursorCol)}`;
			return { lines: next, cursorLine, cursorCol: start + item.value.length + 1 };
		},
		shouldTriggerFileCompletion(lines, cursorLine, cursorCol) {
			return current.shouldTriggerFileCompletion?.(lines, cursorLine, cursorCol) ?? true;
		},
	};
}
