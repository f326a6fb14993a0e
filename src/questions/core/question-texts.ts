import { clip, sanitizeForDisplay, show } from "../../shared/core/display-text.ts";
import type { QuestionView } from "./question-queue.ts";

/** `confirm` as the editor asks it: the first choice is yes. */
export const CONFIRM_CHOICES = ["Yes", "No"] as const;

/** An editor shows at most this many choices: a longer list stays a notice (answered in pi). */
export const MAX_MIRRORED_CHOICES = 50;
const MAX_TITLE_LINES = 12;
const MAX_TITLE_LINE_CHARS = 400;
const MAX_CHOICE_CHARS = 200;

/**
 * A question as an editor shows it: an extension's title and choices are any text, so each line is made
 * terminal-safe and cut, the title keeps at most a dozen lines. Too many choices: a notice instead.
 */
export function questionView(title: string, choices: readonly string[]): QuestionView {
	if (choices.length === 0 || choices.length > MAX_MIRRORED_CHOICES)
		return noticeView(`${firstLine(title)} (${choices.length} choices)`);
	return {
		kind: "question",
		title: titleLines(title),
		choices: choices.map((choice) => clip(sanitizeForDisplay(choice), MAX_CHOICE_CHARS)),
	};
}

/** `confirm(title, message)`: the message under the title, Yes and No. */
export function confirmView(title: string, message: string): QuestionView {
	const view = questionView(message.trim() ? `${title}\n${message}` : title, CONFIRM_CHOICES);
	return view.kind === "question" ? { ...view, confirm: true } : view;
}

/** A custom dialog's drawing sent along: at most this many lines of this many characters. */
const MAX_NOTICE_LINES = 40;
const MAX_NOTICE_LINE_CHARS = 200;

/**
 * A dialog only pi can answer (`input`, `editor`, `custom`): where it is, and its title when it has one; a
 * custom dialog's lines as pi drew them, terminal-safe and cut.
 */
export function noticeView(title: string | undefined, drawn?: readonly string[]): QuestionView {
	const named = title?.trim() ? `: ${firstLine(title)}` : "";
	const lines = drawn
		?.slice(0, MAX_NOTICE_LINES)
		.map((line) => clip(sanitizeForDisplay(line).trimEnd(), MAX_NOTICE_LINE_CHARS));
	return { kind: "notice", text: `pi asks in its terminal${named}`, ...(lines && lines.length > 0 && { lines }) };
}

const titleLines = (title: string) =>
	title
		.replace(/\r\n?/g, "\n")
		.split("\n")
		.slice(0, MAX_TITLE_LINES)
		.map((line) => clip(sanitizeForDisplay(line), MAX_TITLE_LINE_CHARS))
		.join("\n");

const firstLine = (text: string) => show(text.replace(/\r\n?/g, "\n").split("\n")[0] ?? "", MAX_TITLE_LINE_CHARS);

/** `/ide status`'s part: on or off, who holds a question now, and the editors that cannot show them. */
export function questionStatusLines(facts: {
	on: boolean;
	offReason?: string;
	holders: readonly { label: string; title: string }[];
	open: number;
	unable: readonly { label: string; reason: string }[];
	mirrored: number;
	answeredInEditor: number;
}): string[] {
	if (!facts.on) return [`pi's questions in the editor: off${facts.offReason ? ` (${facts.offReason})` : ""}`];
	const head = `pi's questions in the editor: on, for runs an editor asked (${facts.mirrored} mirrored, ${facts.answeredInEditor} answered there)`;
	const holders = facts.holders.map(
		(holder) => `  ${show(holder.label, 60)} holds: ${show(holder.title.split("\n")[0] ?? "", 100)}`,
	);
	const waiting = facts.open > facts.holders.length ? [`  ${facts.open} open in all, one at a time`] : [];
	const unable = facts.unable.map((editor) => `  ${show(editor.label, 60)}: questions stay in pi (${editor.reason})`);
	return [head, ...holders, ...waiting, ...unable];
}
