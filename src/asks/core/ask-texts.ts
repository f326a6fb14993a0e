import { basename } from "node:path";
import type { ContextMessage } from "../../prompt/core/context-message.ts";
import { escapeForPrompt, show } from "../../shared/core/display-text.ts";

/** Every word pi shows in an editor about an ask, one line each (an editor cuts it to its own width). */
export const askText = {
	working: (model: string | undefined) => `pi: working${model ? ` (${show(model, 80)})` : ""}`,
	notSent: (why: string) => `pi: not sent: ${show(why, 200)}`,
	refused: (why: string) => `pi: ${show(why, 200)}`,
	added: (reference: string) => `pi: added ${show(reference, 160)} to pi's input`,
	stopping: "pi: stopping the run",
	nothingToStop: "pi: nothing runs",
	noReply: "pi: no reply yet: nothing was asked from this editor",
} as const;

/** Why an ask is refused before anything is sent, in the user's words. */
export const notSentReason = {
	off: "asks are off in pi's settings",
	noModel: "pi has no model (pick one with /model)",
	compacting: "pi is compacting its context; ask again in a moment",
	ending: "pi's session is ending",
	noStart: "pi started no run (see pi's terminal: no API key?)",
	noUi: "this pi has no input box to put it in (RPC mode)",
} as const;

/** How a finished run is told: the files it changed (or its error), then what the editor did not reload. */
export function doneText(
	run: { files: readonly string[]; error?: string; aborted: boolean },
	notReloaded: number,
): string {
	const head = run.aborted
		? "pi: stopped"
		: run.error !== undefined
			? `pi: error: ${show(run.error, 160)}`
			: run.files.length === 0
				? "pi: done"
				: `pi: done, changed ${changedFiles(run.files)}`;
	const tail =
		notReloaded === 0 ? "" : `; ${notReloaded} ${notReloaded === 1 ? "file" : "files"} changed on disk, not reloaded`;
	return `${head}${tail}`;
}

/** `a.ts, b.ts and 3 more`: base names, as the echo area has room for. */
function changedFiles(files: readonly string[]): string {
	const names = files.slice(0, 3).map((file) => show(basename(file), 60));
	return files.length > 3 ? `${names.join(", ")} and ${files.length - 3} more` : names.join(", ");
}

/** The transcript's words for a prompt that came from an editor. */
export const askedFrom = (label: string, connectedNow = false) =>
	`asked from ${label}${connectedNow ? ", now connected to it" : ""}`;

/**
 * The prompt's message when the prompt came from an editor: its transcript line starts by naming the editor;
 * with nothing else to say (explicit context), one line of its own that tells the model where the user typed.
 */
export function withAskedFrom(message: ContextMessage | undefined, note: string): ContextMessage {
	if (message) return { ...message, details: { ...message.details, summary: `${note}; ${message.details.summary}` } };
	return {
		content: `<editor-context>The user typed this prompt in the editor (${escapeForPrompt(note, false)}).</editor-context>`,
		details: { v: 1, kind: "references", summary: `editor: ${note}` },
	};
}
