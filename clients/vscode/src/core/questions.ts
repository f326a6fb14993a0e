import type { AskNews } from "../../../../src/editors/editor-asks.ts";

/**
 * pi's questions as the window shows them (pure): pi's news of one read and checked (pi sends them terminal-safe
 * and cut already, but the client trusts no peer), a question made a quick pick's texts (`pi 1234: Allow deploy?`,
 * the choices numbered `1 Yes`, `2 No`), a notice's one line, and which of the questions of several pis shows now:
 * one quick pick at a time (VS Code shows one), the oldest first, each notice as it came.
 */

/** The news about one of pi's questions. */
export type QuestionNews = Extract<AskNews, { kind: "question" | "notice" | "questionClosed" }>;
/** What pi asks the window to show: choices answered here, or a notice of a dialog only pi's terminal answers. */
export type AskedNews = Extract<QuestionNews, { kind: "question" | "notice" }>;

/** pi sends a title of at most this many lines, and at most this many choices (a longer list stays a notice). */
export const MAX_TITLE_LINES = 12;
export const MAX_CHOICES = 50;
const MAX_LINE_CHARS = 400;
const MAX_CHOICE_CHARS = 200;
/** The quick pick's placeholder holds the title's lines after the first, cut to this. */
const MAX_PLACEHOLDER_CHARS = 600;

/**
 * An accept this soon after the quick pick showed is not taken: a user typing in the editor as the question
 * arrived must not answer it with the Enter meant for their code (pi's own review select is deaf as long).
 */
export const DEAF_MS = 500;

/** What the placeholder says when the title is one line. */
export const PICK_HINT = "Pick one, or type its number; Esc leaves the answer to pi's terminal";

/** `pi/askNews` params of a question, a notice or a question's end, checked; anything else none. */
export function readQuestionNews(params: Readonly<Record<string, unknown>>): QuestionNews | undefined {
	const { id, kind } = params;
	if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) return undefined;
	if (kind === "questionClosed") return { kind, id };
	if (kind === "notice") return typeof params.text === "string" ? { kind, id, text: oneLine(params.text) } : undefined;
	if (kind !== "question" || typeof params.title !== "string") return undefined;
	const choices: unknown = params.choices;
	if (!Array.isArray(choices) || choices.length === 0 || choices.length > MAX_CHOICES) return undefined;
	if (!choices.every((choice): choice is string => typeof choice === "string")) return undefined;
	const title = params.title
		.replace(/\r\n?/g, "\n")
		.split("\n")
		.slice(0, MAX_TITLE_LINES)
		.map((line) => oneLine(line))
		.join("\n");
	return { kind, id, title, choices: choices.map((choice) => oneLine(choice, MAX_CHOICE_CHARS)) };
}

/** One item of the quick pick: the label shown, the number pi is answered with. */
export interface ChoiceItem {
	label: string;
	choice: number;
}

/** The quick pick of a question: its title, placeholder and numbered items. */
export interface PickTexts {
	title: string;
	placeholder: string;
	items: ChoiceItem[];
}

/**
 * The title's first line, after the pi it belongs to, is the quick pick's title; its further lines (a confirm's
 * message) the placeholder, else the hint. Each choice is numbered from 1, so typing its number filters to it.
 */
export function pickTexts(pid: number, question: { title: string; choices: readonly string[] }): PickTexts {
	const [first = "", ...rest] = question.title.split("\n");
	const more = rest
		.map((line) => line.trim())
		.filter(Boolean)
		.join(" ");
	return {
		title: noIcons(`pi ${pid}: ${first}`),
		placeholder: more ? noIcons(clipped(more, MAX_PLACEHOLDER_CHARS)) : PICK_HINT,
		items: question.choices.map((choice, index) => ({ label: noIcons(`${index + 1} ${choice}`), choice: index + 1 })),
	};
}

/** A notice's line: pi's words and which pi (`pi asks in its terminal: Your name? (pi 1234)`); no link is made. */
export function noticeText(pid: number, text: string): string {
	return noIcons(`${text} (pi ${pid})`).replace(/\]\(/g, "]\u200b(");
}

/** One of pi's open questions in this window: its pi (the connection, the pid) and what it shows. */
export interface WindowQuestion {
	peer: number;
	pid: number;
	news: AskedNews;
}

/**
 * The open questions of every pi that asks this window, in the order they came. pi shows one question at a time
 * per window (and says the old one closed first): a pi's new one replaces its earlier one all the same. The quick
 * pick shows the oldest question of all (the others wait their turn), never while held (an input box of the
 * client's own is open: a question must not take its place under the user's typing); every notice shows at once.
 */
export class QuestionLine {
	private readonly open: WindowQuestion[] = [];
	private holds = 0;

	arrived(question: WindowQuestion): void {
		this.gone(question.peer);
		this.open.push(question);
	}

	/** That pi's question `id` closed (answered, dismissed, closed in pi): whether it was open. */
	closed(peer: number, id: number): boolean {
		const index = this.open.findIndex((question) => question.peer === peer && question.news.id === id);
		if (index >= 0) this.open.splice(index, 1);
		return index >= 0;
	}

	/** That pi went (its connection ended, it stopped offering asks): its question goes. */
	gone(peer: number): void {
		const index = this.open.findIndex((question) => question.peer === peer);
		if (index >= 0) this.open.splice(index, 1);
	}

	clear(): void {
		this.open.length = 0;
	}

	/** The question the quick pick shows now, when any and not held. */
	picked(): WindowQuestion | undefined {
		return this.holds > 0 ? undefined : this.open.find((question) => question.news.kind === "question");
	}

	notices(): WindowQuestion[] {
		return this.open.filter((question) => question.news.kind === "notice");
	}

	/** Holds the quick pick back until the returned release (each release counts once). */
	hold(): () => void {
		this.holds++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.holds--;
		};
	}
}

/** One question of one pi, as a map's key. */
export const questionKey = (question: Pick<WindowQuestion, "peer" | "news">) => `${question.peer}:${question.news.id}`;

/** Whether an accept at `nowMs` is taken for a quick pick shown at `shownAtMs` (DEAF_MS). */
export const acceptTaken = (shownAtMs: number, nowMs: number) => nowMs - shownAtMs >= DEAF_MS;

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** One line: each run of control characters and line breaks one space, cut. */
const oneLine = (text: string, max = MAX_LINE_CHARS) => clipped(text.replace(CONTROL, " ").trim(), max);

/** VS Code draws `$(name)` in a label or title as an icon: pi's text never is one. */
const noIcons = (text: string) => text.replace(/\$\(/g, "$\u200b(");

const clipped = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
