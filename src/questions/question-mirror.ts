import type { AskingEditor } from "../editors/editor-asks.ts";
import { type QuestionNews, QuestionQueue, type QuestionView } from "./core/question-queue.ts";
import { questionStatusLines, questionView } from "./core/question-texts.ts";

/** What the mirror needs of the rest, each a function. */
export interface QuestionMirrorParts {
	/** Mirroring wanted: the settings (`mirrorQuestions`, asks on). */
	on: () => boolean;
	/** Why not, when off: for `/ide status`. */
	offReason?: string;
	/** The editors whose asks the running run carries (asks/): a question asked now is theirs. */
	runEditors: () => readonly AskingEditor[];
	/** The next question's id: unique in this pi process unless a test counts its own. */
	nextId?: () => number;
}

/** Ids unique in this pi process: an editor never takes a new session's question for an old one's. */
let processQuestionIds = 0;
const processQuestionId = () => ++processQuestionIds;

const ESC = "\u001b";

/** A choice made in an editor (its index in the choices), or undefined: withdrawn before anyone chose there. */
export type MirrorAnswer = number | undefined;

/**
 * pi's questions of a run an editor started, shown in that editor beside pi's own dialog: the choices of a
 * `select` or `confirm` (the first answer wins, wherever), a notice for a dialog only pi can answer. One at a
 * time per editor, in the order asked (parallel tool calls ask at once). A run typed into pi has no editor:
 * nothing is shown, and nothing is paid but the check.
 */
export class QuestionMirror {
	private readonly queue = new QuestionQueue();
	private readonly told = new Map<string, AskingEditor>();
	private readonly choosing = new Map<number, (choice: number) => void>();
	/** A custom dialog's key handler by question: the Esc an editor sends goes to pi's component. */
	private readonly keyHandlers = new Map<number, (key: string) => void>();
	private mirrored = 0;
	private answeredInEditor = 0;
	private closed = false;

	constructor(private readonly parts: QuestionMirrorParts) {}

	/**
	 * The editors a question asked now reaches: the run's, able to show one; none when off. A Neovim that runs
	 * pi-bridge.nvim gets it through the plugin when the plugin asked in this run too: one copy on one screen.
	 */
	targets(): AskingEditor[] {
		if (this.closed || !this.parts.on()) return [];
		const able = this.parts.runEditors().filter((editor) => editor.noQuestions === undefined);
		if (!able.some((editor) => editor.piBridge === "plugin")) return able;
		return able.filter((editor) => editor.piBridge !== "host");
	}

	/**
	 * Shows `view` in `targets` until `signal` withdraws it: resolves with the index of the choice made in an
	 * editor, or undefined once withdrawn (a dismissal in an editor closes only its copy and resolves nothing).
	 */
	show(
		view: QuestionView,
		targets: readonly AskingEditor[],
		signal: AbortSignal,
		onKey?: (key: string) => void,
	): Promise<MirrorAnswer> {
		if (targets.length === 0 || signal.aborted || this.closed) return Promise.resolve(undefined);
		const id = (this.parts.nextId ?? processQuestionId)();
		this.mirrored++;
		for (const editor of targets) this.told.set(editor.key, editor);
		return new Promise<MirrorAnswer>((resolve) => {
			const end = (answer: MirrorAnswer) => {
				signal.removeEventListener("abort", withdrawn);
				this.choosing.delete(id);
				this.keyHandlers.delete(id);
				this.tell(this.queue.close(id));
				resolve(answer);
			};
			const withdrawn = () => end(undefined);
			signal.addEventListener("abort", withdrawn, { once: true });
			this.choosing.set(id, (choice) => end(choice));
			if (onKey) this.keyHandlers.set(id, onKey);
			this.tell(this.queue.add({ id, view, keys: targets.map((editor) => editor.key) }));
		});
	}

	/** The review's choices as one question (review/choices-mirror.ts): the one chosen in an editor. */
	choose(title: string, choices: readonly string[], signal: AbortSignal): Promise<string | undefined> | undefined {
		const targets = this.targets();
		if (targets.length === 0) return undefined;
		return this.show(questionView(title, choices), targets, signal).then((index) =>
			index === undefined ? undefined : choices[index],
		);
	}

	/** An editor's reply (asks/ checked its shape): a choice of the question it shows, or its copy closed. */
	replied(editor: AskingEditor, reply: { id: number; choice?: number }): void {
		const question = this.queue.shownTo(editor.key, reply.id);
		if (!question) return;
		if (reply.choice === undefined) {
			this.tell(this.queue.dismiss(editor.key, reply.id));
			return;
		}
		const count = question.view.kind === "question" ? question.view.choices.length : 0;
		if (reply.choice > count) return;
		this.answeredInEditor++;
		this.choosing.get(reply.id)?.(reply.choice - 1);
	}

	/** Esc pressed on an editor's copy of a custom dialog: pi's component takes it (it closes the dialog). */
	keyed(editor: AskingEditor, reply: { id: number; key: string }): void {
		if (reply.key !== ESC || !this.queue.shownTo(editor.key, reply.id)) return;
		this.keyHandlers.get(reply.id)?.(reply.key);
	}

	/** An editor's connection ended: its copies go, and it holds no question up. */
	gone(key: string): void {
		this.tell(this.queue.gone(key));
		this.told.delete(key);
	}

	statusLines(): string[] {
		const on = this.parts.on();
		const holders = this.queue.holders().map(({ key, question }) => ({
			label: this.told.get(key)?.label ?? key,
			title: question.view.kind === "question" ? question.view.title : question.view.text,
		}));
		const unable = on
			? this.parts
					.runEditors()
					.flatMap((editor) =>
						editor.noQuestions === undefined ? [] : [{ label: editor.label, reason: editor.noQuestions }],
					)
			: [];
		return questionStatusLines({
			on,
			...(this.parts.offReason !== undefined && { offReason: this.parts.offReason }),
			holders,
			open: this.queue.size,
			unable,
			mirrored: this.mirrored,
			answeredInEditor: this.answeredInEditor,
		});
	}

	/** The session ends: every editor's copy closes; pi's dialogs are pi's to close. */
	close(): void {
		this.closed = true;
		this.tell(this.queue.clear());
		this.choosing.clear();
		this.keyHandlers.clear();
	}

	private tell(news: readonly QuestionNews[]): void {
		for (const { key, news: one } of news) this.told.get(key)?.tell(one);
	}
}
