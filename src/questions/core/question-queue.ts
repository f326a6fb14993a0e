import type { AskNews } from "../../editors/core/ask-methods.ts";

/** What an editor shows of one question: its choices (answered there) or a notice (answered only in pi). */
export type QuestionView =
	| { kind: "question"; title: string; choices: readonly string[]; confirm?: true }
	| { kind: "notice"; text: string; lines?: readonly string[] };

export interface OpenQuestion {
	id: number;
	view: QuestionView;
	/** The editors it is for: the running run's when it was asked. */
	keys: readonly string[];
	/** The editors that closed their copy (pi's dialog still decides). */
	dismissedBy: Set<string>;
}

/** One piece of news for one editor. */
export interface QuestionNews {
	key: string;
	news: AskNews;
}

/**
 * pi's open questions in the order they were asked, and what each editor shows of them: one at a time, the
 * first one for it that it has not closed. Every change returns the news that brings the editors from what
 * they showed to what they show now (a question closed, the next one shown). Pure: no editor is told here.
 */
export class QuestionQueue {
	private readonly open: OpenQuestion[] = [];
	private readonly shown = new Map<string, number>();

	/** A question asked: shown at once where no other one is. */
	add(question: Omit<OpenQuestion, "dismissedBy">): QuestionNews[] {
		this.open.push({ ...question, dismissedBy: new Set() });
		return this.settle(question.keys);
	}

	/** Answered (anywhere) or closed in pi: gone from every editor, the next one shown. */
	close(id: number): QuestionNews[] {
		const index = this.open.findIndex((question) => question.id === id);
		if (index < 0) return [];
		const [closed] = this.open.splice(index, 1);
		return this.settle(closed?.keys ?? []);
	}

	/** One editor closed its copy: the next one for it is shown there; pi's dialog stays. */
	dismiss(key: string, id: number): QuestionNews[] {
		if (this.shown.get(key) !== id) return [];
		this.open.find((question) => question.id === id)?.dismissedBy.add(key);
		return this.settle([key]);
	}

	/** An editor is gone: it shows nothing more, and holds no question up. */
	gone(key: string): QuestionNews[] {
		for (const question of this.open) if (question.keys.includes(key)) question.dismissedBy.add(key);
		return this.settle([key]).filter((news) => news.key !== key);
	}

	/** The question an editor shows now, when `id` is it: only that one can be answered there. */
	shownTo(key: string, id: number): OpenQuestion | undefined {
		return this.shown.get(key) === id ? this.open.find((question) => question.id === id) : undefined;
	}

	/** Each editor's question now, with its label for `/ide status`. */
	holders(): { key: string; question: OpenQuestion }[] {
		return [...this.shown].flatMap(([key, id]) => {
			const question = this.open.find((open) => open.id === id);
			return question ? [{ key, question }] : [];
		});
	}

	get size(): number {
		return this.open.length;
	}

	/** Everything closed (the session ends): each editor's copy goes. */
	clear(): QuestionNews[] {
		const keys = [...this.shown.keys()];
		this.open.length = 0;
		return this.settle(keys);
	}

	private settle(keys: readonly string[]): QuestionNews[] {
		const news: QuestionNews[] = [];
		for (const key of new Set(keys)) {
			const before = this.shown.get(key);
			const now = this.open.find((question) => question.keys.includes(key) && !question.dismissedBy.has(key));
			if (now?.id === before) continue;
			if (before !== undefined) news.push({ key, news: { kind: "questionClosed", id: before } });
			if (now) {
				this.shown.set(key, now.id);
				news.push({ key, news: { id: now.id, ...now.view } });
			} else this.shown.delete(key);
		}
		return news;
	}
}
