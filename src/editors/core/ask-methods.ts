/**
 * The messages an editor sends pi's asks (asks/ checks their params, never a source), by method: `answer`
 * (`{ id, choice }`, the choice's number from 1) and `dismiss` (`{ id }`) are about one of pi's questions.
 */
export const ASK_METHODS = ["ask", "add", "stop", "reply", "replyClosed", "answer", "dismiss"] as const;
export type AskMethod = (typeof ASK_METHODS)[number];

export const isAskMethod = (method: string): method is AskMethod => (ASK_METHODS as readonly string[]).includes(method);

/** Why an ask was not sent: asks off, no model, compacting, the session ending, no run started, no UI, a failure. */
export type NotSent = "off" | "noModel" | "compacting" | "ending" | "noStart" | "noUi" | "failed";

/** `@buffers` names at most this many files (the editor lists no more; pi's check refuses more). */
export const MAX_LISTED_BUFFERS = 50;

/**
 * What pi shows in the editor: a one-line status (the echo area, the status bar), the reply's view, or one of
 * pi's questions of a run the editor started (questions/): its numbered choices (`answer` with the number picks
 * one, `dismiss` closes only the editor's copy), a notice of a dialog that can be answered only in pi, and the
 * end of either (answered elsewhere, closed in pi). An editor shows one question at a time: a new one replaces it.
 */
export type AskNews =
	/** `notSent`: an ask refused, and why in a word (a client with codes of its own maps them). */
	| { kind: "status"; text: string; level: "info" | "working" | "error"; notSent?: NotSent }
	| { kind: "reply"; text: string; streaming: boolean }
	/** `confirm`: a yes/no question (its choices are Yes and No), for a client that shows one its own way. */
	| { kind: "question"; id: number; title: string; choices: readonly string[]; confirm?: true }
	/** `lines`: the dialog as pi's terminal draws it (escape sequences dropped, cut), when pi could render it. */
	| { kind: "notice"; id: number; text: string; lines?: readonly string[] }
	| { kind: "questionClosed"; id: number };
