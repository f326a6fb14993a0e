import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { CHOICES, choiceOf, type Decision, RPC_DIALOG_TIMEOUT_MS, type ViewNote } from "./core/choices.ts";
import type { DiffView, EditorAnswer } from "./core/diff-host.ts";

/** What a decision is made with: pi's dialogs (none in print mode), the editor's view (none without one). */
export interface DecideInputs {
	ui?: Pick<ExtensionUIContext, "select" | "input">;
	/** RPC mode: the host's dialog cannot be withdrawn, so it gets a timeout and ends by itself. */
	rpc: boolean;
	/** Why no editor shows it, when none does. */
	unshown?: string;
	/** `hint`: how to answer there (":w accepts, :PiReject rejects"). */
	view?: { editor: string; hint: string; diff: DiffView };
	/** The turn's abort (Esc in pi, the host's abort): the review ends undecided. */
	signal?: AbortSignal;
	/** The select's title for a note on where the diff is. */
	title: (note: ViewNote) => string;
	nowMs: () => number;
}

type Raced = { from: "editor"; answer: EditorAnswer } | { from: "pi"; answer: string | undefined } | { from: "abort" };

/**
 * The editor and pi's select at the same moment; the first answer wins and the other side is withdrawn. A view
 * closed or broken decides nothing: the select stays (asked again, saying so) and the user decides there.
 */
export async function decide(inputs: DecideInputs): Promise<Decision> {
	const { ui, view, signal } = inputs;
	let editorAnswer: Promise<Raced> | undefined = view?.diff.answer.then((answer) => ({ from: "editor", answer }));
	let note: ViewNote = view ? await shownNote(view) : { kind: "none", reason: inputs.unshown ?? "no editor can" };
	if (note.kind === "failed") {
		editorAnswer = undefined;
		if (!ui) return { kind: "reject", by: "editor", reason: noteReason(note) };
	}
	const aborted = new Promise<Raced>((done) => {
		if (signal?.aborted) done({ from: "abort" });
		signal?.addEventListener("abort", () => done({ from: "abort" }), { once: true });
	});
	for (;;) {
		const withdraw = new AbortController();
		const askedAtMs = inputs.nowMs();
		const select: Promise<Raced> | undefined = ui
			?.select(inputs.title(note), CHOICES, {
				signal: withdraw.signal,
				...(inputs.rpc && { timeout: RPC_DIALOG_TIMEOUT_MS }),
			})
			.then((answer) => ({ from: "pi", answer }));
		const raced: Raced = await Promise.race([
			aborted,
			...(editorAnswer ? [editorAnswer] : []),
			...(select ? [select] : []),
		]);
		if (raced.from !== "pi") withdraw.abort();
		if (raced.from === "abort") return { kind: "aborted" };
		if (raced.from === "editor") {
			const answer = raced.answer;
			if (answer.kind === "accepted") return { kind: "accept", by: "editor", text: answer.text };
			if (answer.kind === "rejected")
				return { kind: "reject", by: "editor", ...(answer.reason && { reason: answer.reason }) };
			editorAnswer = undefined;
			note =
				answer.kind === "closed"
					? { kind: "closed", editor: view?.editor ?? "" }
					: { kind: "failed", editor: view?.editor ?? "", reason: answer.reason };
			// Print mode: nobody left to ask.
			if (!ui) return { kind: "reject", by: "editor", reason: noteReason(note) };
			await select;
			continue;
		}
		const timedOut =
			inputs.rpc && raced.answer === undefined && inputs.nowMs() - askedAtMs >= RPC_DIALOG_TIMEOUT_MS - 100;
		if (timedOut && editorAnswer) {
			// The host's dialog ended by itself: the editor still shows the diff and decides.
			const rest = await Promise.race([aborted, editorAnswer]);
			if (rest.from === "editor" && (rest.answer.kind === "accepted" || rest.answer.kind === "rejected"))
				return rest.answer.kind === "accepted"
					? { kind: "accept", by: "editor", text: rest.answer.text }
					: { kind: "reject", by: "editor", ...(rest.answer.reason && { reason: rest.answer.reason }) };
			return rest.from === "abort" ? { kind: "aborted" } : { kind: "reject", by: "pi", reason: "no answer" };
		}
		return await piDecision(raced.answer, inputs, timedOut);
	}
}

async function piDecision(answer: string | undefined, inputs: DecideInputs, timedOut: boolean): Promise<Decision> {
	switch (choiceOf(answer)) {
		case "accept":
			return { kind: "accept", by: "pi" };
		case "acceptAll":
			return { kind: "accept", by: "pi", all: true };
		case "reject":
			return { kind: "reject", by: "pi" };
		case "rejectWhy": {
			const reason = await inputs.ui?.input("Why? (the model reads this)", "what to do instead", {
				...(inputs.signal && { signal: inputs.signal }),
			});
			return { kind: "reject", by: "pi", ...(reason?.trim() && { reason: reason.trim() }) };
		}
		default:
			// Esc: a stray key never approves, and the turn stops so the user can say what they want.
			return timedOut
				? { kind: "reject", by: "pi", reason: "no answer in time" }
				: { kind: "reject", by: "pi", stopTurn: true };
	}
}

/** The select says where the diff is: it waits for the editor that long at most, then says it is opening. */
const SHOWN_WAIT_MS = 1500;

async function shownNote(view: NonNullable<DecideInputs["view"]>): Promise<ViewNote> {
	let timer: NodeJS.Timeout | undefined;
	const shown = await Promise.race([
		view.diff.shown,
		new Promise<undefined>((done) => {
			timer = setTimeout(() => done(undefined), SHOWN_WAIT_MS);
		}),
	]);
	clearTimeout(timer);
	if (shown === undefined) return { kind: "opening", editor: view.editor };
	return shown.ok
		? { kind: "shown", editor: view.editor, where: shown.where, keys: view.hint }
		: { kind: "failed", editor: view.editor, reason: shown.reason };
}

function noteReason(note: ViewNote): string | undefined {
	if (note.kind === "closed") return `the diff in ${note.editor} was closed without a decision`;
	if (note.kind === "failed") return `${note.editor} could not show it: ${note.reason}`;
	return undefined;
}
