import { clip, sanitizeForDisplay } from "../../shared/core/display-text.ts";

/**
 * What pi's own side of a review says: the select raced against the editor, its title (the call, where the diff
 * is) and its choices, and the answer read back. First answer wins; Esc rejects and stops the turn, so a stray key
 * never approves.
 */

export const CHOICE = {
	accept: "Accept",
	acceptAll: "Accept all in this session",
	reject: "Reject",
	rejectWhy: "Reject and say why",
} as const;

export const CHOICES = [CHOICE.accept, CHOICE.acceptAll, CHOICE.reject, CHOICE.rejectWhy];

/** What pi's select says under the question: where the diff is, or why it is not there. */
export type ViewNote =
	| { kind: "opening"; editor: string }
	| { kind: "shown"; editor: string; where: string; keys: string }
	| { kind: "closed"; editor: string }
	| { kind: "failed"; editor: string; reason: string }
	/** No editor can show it: why ("no editor is connected", "Zed is read from its database, ..."). */
	| { kind: "none"; reason: string };

/**
 * The select's title: the call, then where to look. One line each: a select's title is not a pager. What came from
 * outside (the path, an editor's reason) is made terminal-safe and cut here.
 */
export function selectTitle(
	call: { tool: string; displayName: string; added: number; removed: number },
	note: ViewNote,
): string {
	const head = `Review: ${call.tool} ${shown(call.displayName, 200)} (+${call.added} -${call.removed})`;
	return `${head}\n${noteText(note)}`;
}

const shown = (text: string, chars: number) => clip(sanitizeForDisplay(text).replace(/\s+/g, " "), chars);

function noteText(note: ViewNote): string {
	switch (note.kind) {
		case "opening":
			return `Opening the diff in ${note.editor}...`;
		case "shown":
			return `Shown in ${note.editor}, ${shown(note.where, 120)}: ${note.keys}; or answer here.`;
		case "closed":
			return `The diff in ${note.editor} was closed without a decision: decide here.`;
		case "failed":
			return `Not shown in ${note.editor}: ${shown(note.reason, 200)}. Decide here.`;
		case "none":
			return `Not shown in an editor: ${shown(note.reason, 200)}. Decide here.`;
	}
}

/** The choice a select returned; undefined (Esc, or withdrawn) stays undefined. */
export function choiceOf(answer: string | undefined): keyof typeof CHOICE | undefined {
	const entry = Object.entries(CHOICE).find(([, label]) => label === answer);
	return entry?.[0] as keyof typeof CHOICE | undefined;
}

const linesOf = (text: string | undefined) => (text ? text.replace(/\n$/, "").split("\n") : []);

/** Lines added and removed, by lines kept in common (order aside): cheap, and near enough for a title. */
export function lineCounts(before: string | undefined, after: string): { added: number; removed: number } {
	const a = linesOf(before);
	const b = linesOf(after);
	const remaining = new Map<string, number>();
	for (const line of a) remaining.set(line, (remaining.get(line) ?? 0) + 1);
	let kept = 0;
	for (const line of b) {
		const left = remaining.get(line) ?? 0;
		if (left > 0) {
			remaining.set(line, left - 1);
			kept++;
		}
	}
	return { added: b.length - kept, removed: a.length - kept };
}
