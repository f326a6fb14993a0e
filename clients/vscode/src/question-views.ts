import * as vscode from "vscode";
import {
	acceptTaken,
	type ChoiceItem,
	noticeText,
	pickTexts,
	QuestionLine,
	type QuestionNews,
	questionKey,
	type WindowQuestion,
} from "./core/questions.ts";

/** How the window answers a pi: `answer` with the choice's number, `dismiss` when only its copy closed. */
export type QuestionReply = (
	peer: number,
	method: "answer" | "dismiss",
	params: { id: number; choice: number } | { id: number },
) => void;

interface ShownPick {
	question: WindowQuestion;
	pick: vscode.QuickPick<vscode.QuickPickItem & ChoiceItem>;
	shownAtMs: number;
	/** Closed by the window itself (answered, closed in pi, its pi gone): its hiding is no dismissal. */
	closing: boolean;
}

/**
 * pi's questions of a run this window asked, shown here while pi's own dialog stays open in its terminal: a
 * question as a quick pick (`pi 1234: Allow deploy?`, `1 Yes`, `2 No`; picking answers pi, Esc closes only this
 * copy and pi's dialog still decides), a dialog only pi can answer as a progress notification (VS Code's one
 * notification an extension can take away again: it goes when pi's dialog closes; its Cancel closes only this
 * copy). One quick pick at a time: the questions of several pis wait their turn, each answered to its own pi.
 */
export class QuestionViews {
	private readonly line = new QuestionLine();
	private shown?: ShownPick;
	/** Each notice shown, by questionKey: what takes it away. */
	private readonly notices = new Map<string, () => void>();

	constructor(private readonly reply: QuestionReply) {}

	/** pi's news of a question, from the pi on `peer` (its pid for the texts). */
	news(peer: number, pid: number, news: QuestionNews): void {
		if (news.kind === "questionClosed") this.line.closed(peer, news.id);
		else this.line.arrived({ peer, pid, news });
		this.sync();
	}

	/** That pi went or stopped offering asks: its question goes, nothing is sent. */
	gone(peer: number): void {
		this.line.gone(peer);
		this.sync();
	}

	closeAll(): void {
		this.line.clear();
		this.sync();
	}

	/** The client's own input box or pick is open: a question waits until the returned release. */
	hold(): () => void {
		const release = this.line.hold();
		this.sync();
		return () => {
			release();
			this.sync();
		};
	}

	/** Makes the screen what the line says: the quick pick of its question, a notification per notice. */
	private sync(): void {
		const wanted = this.line.picked();
		if (this.shown && this.shown.question !== wanted) this.closePick(this.shown);
		if (wanted && !this.shown) this.showPick(wanted);
		const notices = new Map(this.line.notices().map((question) => [questionKey(question), question]));
		for (const [key, close] of [...this.notices])
			if (!notices.has(key)) {
				this.notices.delete(key);
				close();
			}
		for (const [key, question] of notices) if (!this.notices.has(key)) this.showNotice(key, question);
	}

	private showPick(question: WindowQuestion): void {
		if (question.news.kind !== "question") return;
		const texts = pickTexts(question.pid, question.news);
		const pick = vscode.window.createQuickPick<vscode.QuickPickItem & ChoiceItem>();
		pick.title = texts.title;
		pick.placeholder = texts.placeholder;
		pick.items = texts.items;
		// Clicking into the code leaves it open: only Esc (or another quick input taking its place) closes it.
		pick.ignoreFocusOut = true;
		const shown: ShownPick = { question, pick, shownAtMs: Date.now(), closing: false };
		const { id } = question.news;
		pick.onDidAccept(() => {
			const item = pick.selectedItems[0] ?? pick.activeItems[0];
			if (!item || !acceptTaken(shown.shownAtMs, Date.now())) return;
			this.reply(question.peer, "answer", { id, choice: item.choice });
			this.ended(shown);
		});
		pick.onDidHide(() => {
			if (shown.closing) return;
			this.reply(question.peer, "dismiss", { id });
			this.ended(shown);
		});
		this.shown = shown;
		pick.show();
	}

	/** Answered or dismissed here: off the line (pi's questionClosed that follows finds nothing) and closed. */
	private ended(shown: ShownPick): void {
		this.line.closed(shown.question.peer, shown.question.news.id);
		this.closePick(shown);
		this.sync();
	}

	private closePick(shown: ShownPick): void {
		if (shown.closing) return;
		shown.closing = true;
		if (this.shown === shown) this.shown = undefined;
		shown.pick.hide();
		shown.pick.dispose();
	}

	private showNotice(key: string, question: WindowQuestion): void {
		if (question.news.kind !== "notice") return;
		const title = noticeText(question.pid, question.news.text);
		const { id } = question.news;
		let takenAway = false;
		let done = () => {};
		// Kept at once: VS Code may start the task later, and pi may close the question before.
		this.notices.set(key, () => {
			takenAway = true;
			done();
		});
		void vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title, cancellable: true },
			(_progress, token) =>
				new Promise<void>((resolve) => {
					done = resolve;
					if (takenAway) return resolve();
					token.onCancellationRequested(() => {
						resolve();
						// Taken away by the window itself first: no dismissal.
						if (!this.notices.delete(key)) return;
						this.reply(question.peer, "dismiss", { id });
						this.line.closed(question.peer, id);
						this.sync();
					});
				}),
		);
	}
}
