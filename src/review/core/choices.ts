/**
 * pi's own side of a review: the select raced against the editor. First answer wins; Esc rejects and stops the
 * turn, so a stray key never approves.
 */

export const CHOICE = {
	accept: "Accept",
	acceptAll: "Accept all in this session",
	reject: "Reject",
	rejectWhy: "Reject and say why",
} as const;

export const CHOICES = [CHOICE.accept, CHOICE.acceptAll, CHOICE.reject, CHOICE.rejectWhy];

/** How long an RPC host's dialog stays: pi cannot withdraw it once the editor answered, so it ends by itself. */
export const RPC_DIALOG_TIMEOUT_MS = 120_000;

/** Who decided, for `/ide status` and the model. */
export type Decider = "pi" | "editor";

export type Decision =
	| { kind: "accept"; by: Decider; text?: string; all?: boolean }
	| { kind: "reject"; by: Decider; reason?: string; stopTurn?: boolean }
	| { kind: "aborted" };

/** What pi's select says under the question: where the diff is, or why it is not there. */
export type ViewNote =
	| { kind: "opening"; editor: string }
	| { kind: "shown"; editor: string; where: string; keys: string }
	| { kind: "closed"; editor: string }
	| { kind: "failed"; editor: string; reason: string }
	/** No editor can show it: why ("no editor is connected", "Zed is read from its database, ..."). */
	| { kind: "none"; reason: string };

/** The select's title: the call, then where to look. One line each: a select's title is not a pager. */
export function selectTitle(
	call: { tool: string; displayName: string; added: number; removed: number },
	note: ViewNote,
): string {
	const head = `Review: ${call.tool} ${call.displayName} (+${call.added} -${call.removed})`;
	return `${head}\n${noteText(note)}`;
}

function noteText(note: ViewNote): string {
	switch (note.kind) {
		case "opening":
			return `Opening the diff in ${note.editor}...`;
		case "shown":
			return `Shown in ${note.editor}, ${note.where}: ${note.keys}; or answer here.`;
		case "closed":
			return `The diff in ${note.editor} was closed without a decision: decide here.`;
		case "failed":
			return `Not shown in ${note.editor}: ${note.reason}. Decide here.`;
		case "none":
			return `Not shown in an editor: ${note.reason}. Decide here.`;
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
