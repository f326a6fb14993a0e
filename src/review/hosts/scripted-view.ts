import { runInBackground } from "../../shared/background.ts";
import type { Cancel } from "../../shared/core/clock.ts";
import type { DiffView, RequestOutcome, ShownResult } from "../core/diff-host.ts";
import { type ViewOutcome, viewOutcome } from "../core/view-outcome.ts";

/** How pi's close reaches the editor: one ask, and how often it is asked again while the connection lasts. */
export interface ScriptedClose {
	/** One ask to close the review there: true once the editor says it is gone. Never rejects. */
	once: () => Promise<boolean>;
	attempts: number;
	retryMs: number;
	/** The retry's name among `/ide status`'s background failures. */
	task: string;
}

/** What one review in a scripted editor is made of: the editor's functions, and the host's own steps. */
export interface ScriptedViewParts {
	/** Resolves with why once pi's connection with the editor is gone. */
	whenClosed: () => Promise<string>;
	/** The timer the close's retries wait on (the channel's clock). */
	after: (ms: number, run: () => void) => Cancel;
	/** Subscribes to the editor's answers, settling them on `outcome`; returns the unsubscribe, called at the answer. */
	listen: (outcome: ViewOutcome) => () => void;
	/** The open, already asked: its answer is whether the view is shown. Never rejects. */
	shown: Promise<ShownResult>;
	close: ScriptedClose;
	/** What the host clears of its own once the editor was asked to close (Emacs: the accepted text's file). */
	afterClose?: () => Promise<void>;
}

/**
 * A review's view in an editor pi scripts over its own server (Neovim's Lua, Emacs's elisp): what both do alike.
 * The connection's end fails whatever is not settled. pi's close decides nothing from then on, waits for the
 * open's answer (so it never overtakes the open it closes) and is asked again while the connection lasts: a review
 * left open after pi decided would still take the user's accept. An open that failed is closed too: a late open
 * (its answer timed out) may still have run.
 */
export function scriptedView(parts: ScriptedViewParts): DiffView {
	// The parts are taken apart here: the closures below keep the functions they call, not the open's promise.
	const { whenClosed, after, close: asks, afterClose } = parts;
	let unsubscribe = () => {};
	const outcome = viewOutcome(() => unsubscribe());
	const { shown, settleShown, settleAnswer } = outcome;
	unsubscribe = parts.listen(outcome);
	let connectionGone = false;
	let closing: Promise<void> | undefined;

	void whenClosed().then((reason) => {
		connectionGone = true;
		settleShown({ ok: false, reason });
		settleAnswer({ kind: "failed", reason });
	});

	const closeInEditor = async (attempt: number): Promise<void> => {
		const closed = await asks.once();
		if (closed || connectionGone || attempt + 1 >= asks.attempts) return;
		after(asks.retryMs, () => {
			void runInBackground(asks.task, () => closeInEditor(attempt + 1));
		});
	};
	const close = (): Promise<void> => {
		closing ??= (async () => {
			// Closed by pi: whatever the editor says of this review from now on is not an answer.
			settleAnswer({ kind: "closed" });
			await shown;
			await closeInEditor(0);
			await afterClose?.();
		})();
		return closing;
	};

	void parts.shown.then((result) => {
		settleShown(result);
		if (!result.ok) void close();
	});

	return { shown, answer: outcome.answer, close };
}

/** A request to the editor as its outcome, a throw included: a scripted editor's `run` never rejects into a review. */
export async function outcomeOf(request: () => Promise<RequestOutcome>): Promise<RequestOutcome> {
	try {
		return await request();
	} catch (error) {
		return { ok: false, reason: error instanceof Error ? error.message : String(error) };
	}
}
