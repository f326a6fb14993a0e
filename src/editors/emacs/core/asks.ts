import { show } from "../../../shared/core/display-text.ts";
import { type Fields, isFields } from "../../../shared/core/fields.ts";
import { type AskMethod, type AskNews, isAskMethod } from "../../core/ask-methods.ts";
import { type EditorPaths, scoreTier } from "../../core/tiers.ts";

/**
 * Emacs's asks as pi reads them: the caps the elisp keeps to (core/elisp/asks-elisp.ts), the lines it pushes,
 * the install's answer, which Emacsen get the commands, and the `/ide status` words. Pure: asks.ts carries them
 * out.
 */

/**
 * What an ask may weigh in Emacs (the elisp's `caps`): the whole line at most `ask_bytes` of JSON, inside the
 * pushes' 128 KiB window (core/elisp/push-elisp.ts); the typed words at most `typed_bytes` (asks/ refuses more:
 * Emacs says so first, in pi's words, and keeps the buffer); `@buffers` at most 50 files; diagnostics as the
 * snapshot caps them.
 */
export const EMACS_ASK_CAPS = {
	ask_bytes: 120 * 1024,
	typed_bytes: 64 * 1024,
	buffers: 50,
	diagnostics: 100,
	message_chars: 1024,
	path_chars: 4096,
} as const;

/**
 * A line the asks pushed: `{"kind":"ask", method, params}` (an ask, handed to asks/ unchecked: asks/ checks the
 * params) or `{"kind":"followed", id, not_reloaded}` (the answer to pi's follow of the disk), or why not.
 */
export type AsksLine =
	| { kind: "ask"; method: AskMethod; params: unknown }
	| { kind: "followed"; id: number; notReloaded: number }
	| { kind: "bad"; reason: string };

export function asksLineOf(line: Fields): AsksLine {
	if (line.kind === "followed") {
		const { id, not_reloaded: count } = line;
		if (!Number.isSafeInteger(id) || !Number.isSafeInteger(count) || (count as number) < 0)
			return { kind: "bad", reason: "a follow of the disk answered nonsense" };
		return { kind: "followed", id: id as number, notReloaded: count as number };
	}
	const { method, params } = line;
	if (typeof method !== "string" || !isAskMethod(method))
		return { kind: "bad", reason: `an ask line with an unknown method ${JSON.stringify(String(method).slice(0, 40))}` };
	return { kind: "ask", method, params: params ?? {} };
}

/** pi's news of its questions (questions/): what `*pi question*` shows, or its end. */
export type QuestionNews = Extract<AskNews, { kind: "question" | "notice" | "questionClosed" }>;

/**
 * The line on pi's push connection that shows (or closes) one of pi's questions in Emacs
 * (core/elisp/question-elisp.ts): the news as it is, a question with `focus` false when pi runs in that Emacs's
 * own terminal (its dialog is in front of the user there: the window shows, the user's window stays selected).
 */
export function questionLineOf(news: QuestionNews, piInside: boolean): Fields {
	if (news.kind === "question")
		return { kind: "question", id: news.id, title: news.title, choices: [...news.choices], focus: !piInside };
	if (news.kind === "notice") return { kind: "notice", id: news.id, text: news.text };
	return { kind: "questionClosed", id: news.id };
}

/**
 * `QUESTIONS_INSTALL_ELISP`'s answer: undefined when `*pi question*` is there, else why pi's questions stay in pi
 * (`/ide status` says it).
 */
export function questionsInstalledOf(
	answer: { ok: true; value: unknown } | { ok: false; reason: string },
): string | undefined {
	if (answer.ok && isFields(answer.value) && answer.value.ok === true) return undefined;
	return `its question view was not installed (${answer.ok ? "it answered nonsense" : show(answer.reason, 160)})`;
}

/** The names the install may answer: each command, or its `pi-ide-` twin when the user owns the name. */
const COMMAND_NAME = /^pi-(?:ide-)?(?:ask|add|stop|reply)$/;

/** What the asks' install defined: the commands' names, and the user's own names it left alone. */
export interface AsksDefined {
	commands: string[];
	kept: string[];
}

/** `ASKS_INSTALL_ELISP`'s answer checked, or why it is not one. */
export function asksDefinedOf(value: unknown): AsksDefined | string {
	if (!isFields(value) || value.ok !== true) return "the asks' install answered nonsense";
	const names = (list: unknown) =>
		Array.isArray(list) && list.length <= 4 && list.every((name) => typeof name === "string" && COMMAND_NAME.test(name))
			? (list as string[])
			: undefined;
	const commands = names(value.commands);
	const kept = names(value.kept);
	if (!commands || !kept) return "the asks' install answered nonsense";
	return { commands, kept };
}

/** What the source reads of one Emacs to decide its asks. */
export interface AsksCandidate {
	/** Asks on in pi (the settings; print mode has none). */
	on: boolean;
	/** The commands are there already: they stay while pi reads that Emacs. */
	installed: boolean;
	/** Its latest reading's paths; undefined while it has not described itself. */
	paths: EditorPaths | undefined;
	enclosing: boolean;
	connected: boolean;
}

/**
 * Whether that Emacs gets (or keeps) pi's commands: every Emacs pi reads in its project (any tier, not only the
 * one that pushes), the one pi runs in and the connected one; once there they stay (a file opened elsewhere for
 * a moment does not take them away). None while asks are off.
 */
export function asksWanted(candidate: AsksCandidate, projectDir: string): boolean {
	if (!candidate.on) return false;
	if (candidate.installed || candidate.enclosing || candidate.connected) return true;
	return candidate.paths !== undefined && scoreTier(candidate.paths, projectDir).tier !== undefined;
}

/** Where one Emacs's asks are, for `/ide status`. */
export type AsksState =
	| { kind: "off" }
	| { kind: "outside" }
	| { kind: "installed"; defined: AsksDefined }
	| { kind: "failed"; reason: string };

/** The `asks:` line of one Emacs in `/ide status`. */
export function asksStatusText(state: AsksState, lastProblem: string | undefined): string {
	const problem = lastProblem === undefined ? "" : `; last problem: ${show(lastProblem, 160)}`;
	switch (state.kind) {
		case "off":
			return "asks: off in pi (no command defined)";
		case "outside":
			return "asks: none (not in this project; the connected Emacs gets them)";
		case "failed":
			return `asks: not installed: ${show(state.reason, 200)}${problem}`;
		case "installed": {
			const { commands, kept } = state.defined;
			const ownKept = kept.length === 0 ? "" : ` (your own ${kept.join(", ")} kept)`;
			return `asks: M-x ${commands.join(", ")}${ownKept}${problem}`;
		}
	}
}
