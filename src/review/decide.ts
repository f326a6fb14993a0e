import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import type { Clock } from "../shared/core/clock.ts";
import { FOREIGN_TIMER_EARLY_MS, REVIEW_RPC_DIALOG_TIMEOUT_MS, REVIEW_SHOWN_WAIT_MS } from "../shared/core/timing.ts";
import type { ApproverDecision } from "./approvals.ts";
import type { ChoicesMirror } from "./choices-mirror.ts";
import type { DiffView, EditorAnswer } from "./core/diff-host.ts";
import type { Decider } from "./core/review-status.ts";
import { CHOICES, choiceOf, type ViewNote } from "./core/select-texts.ts";
import { guardedSelect } from "./review-select.ts";

/** What the race ends with: who decided what, or why nobody could. */
export type Decision =
	/** `all`: every file for the session; `file`: this file (an approver's `all`). `at`: the approver that decided. */
	| { kind: "accept"; by: Decider; text?: string; all?: boolean; file?: boolean; at?: string }
	| { kind: "reject"; by: Decider; reason?: string; stopTurn?: boolean; at?: string }
	/** Nobody could decide: print mode, and the editor could not show it or closed it (why). */
	| { kind: "unshown"; reason: string }
	| { kind: "aborted" };

/** What a decision is made with: pi's dialogs (none in print mode), the editor's view (none without one). */
export interface DecideInputs {
	/** `custom` where pi has it (the TUI): the select that ignores keys at first (review-select.ts). */
	ui?: Pick<ExtensionUIContext, "select" | "input"> & Partial<Pick<ExtensionUIContext, "custom">>;
	/** RPC mode: the host's dialog cannot be withdrawn, so it gets a timeout and ends by itself. */
	rpc: boolean;
	/** Why no editor shows it, when none does. */
	unshown?: string;
	/** `hint`: how to answer there (":w accepts, :PiReject rejects"). */
	view?: { editor: string; hint: string; diff: DiffView };
	/** The turn's abort (Esc in pi, the host's abort) and the session's end: the review ends undecided. */
	signal?: AbortSignal;
	/** The select's title for a note on where the diff is. */
	title: (note: ViewNote) => string;
	/** The choices also in the editor a run came from, where that editor shows no diff (pi's question mirror). */
	mirror?: Pick<ChoicesMirror, "choose">;
	/** An approver's answer (pi-bridge's picker, review/approvals.ts): undefined once nobody is left to answer. */
	approval?: { name: string; answer: Promise<ApproverDecision | undefined> };
	clock: Clock;
}

type Raced =
	| { from: "editor"; answer: EditorAnswer }
	| { from: "approver"; decision: ApproverDecision | undefined }
	/** The review's select answered: in pi, or in the editor's copy of it (`by`). */
	| { from: "pi"; id: number; answer: string | undefined; by: Decider }
	| { from: "abort" };

/**
 * The editor and pi's select at the same moment; the first answer wins and the other side is withdrawn. A view
 * closed or broken decides nothing: the select stays and the user decides there (the TUI asks again, saying so;
 * an RPC host keeps its dialog, which pi cannot take back). Print mode has only the editor.
 */
export async function decide(inputs: DecideInputs): Promise<Decision> {
	const { ui, view } = inputs;
	let editor: Promise<Raced> | undefined = view?.diff.answer.then((answer) => ({ from: "editor", answer }));
	let note: ViewNote = view
		? await shownNote(view, inputs.clock)
		: { kind: "none", reason: inputs.unshown ?? "no editor can" };
	if (note.kind === "failed") editor = undefined;
	let approval: Promise<Raced> | undefined = inputs.approval?.answer.then((decision) => ({
		from: "approver",
		decision,
	}));
	const aborted = abortedOf(inputs.signal);
	/** pi's dialogs up now: one in the TUI; in RPC an older one too, which the host keeps and may still answer. */
	let selects: Asked[] = [];
	const withdrawAll = () => {
		for (const select of selects) select.withdraw.abort();
	};
	let askAgain = true;
	for (;;) {
		if (ui && askAgain) selects.push(ask(ui, inputs, note));
		askAgain = false;
		if (!editor && !approval && selects.length === 0) return { kind: "unshown", reason: viewEndText(note) };
		const raced = await Promise.race([
			aborted,
			...(editor ? [editor] : []),
			...(approval ? [approval] : []),
			...selects.map((select) => select.answer),
		]);
		if (raced.from === "abort") {
			withdrawAll();
			return { kind: "aborted" };
		}
		if (raced.from === "approver") {
			// Nobody left to answer there (the plugin's connections closed): the others decide.
			if (raced.decision === undefined) {
				approval = undefined;
				continue;
			}
			withdrawAll();
			return approverDecision(raced.decision, inputs.approval?.name ?? "");
		}
		if (raced.from === "editor") {
			const decision = editorDecision(raced.answer);
			if (decision) {
				withdrawAll();
				return decision;
			}
			editor = undefined;
			const editorName = view?.editor ?? "";
			const ended = raced.answer;
			note =
				ended.kind === "failed"
					? { kind: "failed", editor: editorName, reason: ended.reason }
					: { kind: "closed", editor: editorName };
			// Asked again with the news. The TUI's older select goes; an RPC host keeps its (pi cannot take it back),
			// and whichever of the two is answered first decides.
			if (!inputs.rpc) {
				withdrawAll();
				await Promise.all(selects.map((select) => select.answer));
				selects = [];
			}
			askAgain = ui !== undefined;
			continue;
		}
		const answered = selects.find((select) => select.id === raced.id);
		selects = selects.filter((select) => select !== answered);
		const timedOut =
			inputs.rpc &&
			raced.answer === undefined &&
			inputs.clock.nowMs() - (answered?.askedAtMs ?? 0) >= REVIEW_RPC_DIALOG_TIMEOUT_MS - FOREIGN_TIMER_EARLY_MS;
		// A host's dialog ended by itself while another, or the editor, may still answer: they decide.
		if (timedOut && (editor || selects.length > 0)) continue;
		withdrawAll();
		return await piDecision(raced.answer, raced.by, inputs, timedOut);
	}
}

interface Asked {
	id: number;
	answer: Promise<Raced>;
	withdraw: AbortController;
	askedAtMs: number;
}

let askedCount = 0;

function ask(ui: NonNullable<DecideInputs["ui"]>, inputs: DecideInputs, note: ViewNote): Asked {
	const id = ++askedCount;
	const withdraw = new AbortController();
	const askedAtMs = inputs.clock.nowMs();
	const title = inputs.title(note);
	const inPi = async (): Promise<string | undefined> => {
		if (!inputs.rpc && ui.custom) {
			const tui = ui as Pick<ExtensionUIContext, "custom">;
			const guarded = await guardedSelect(tui, title, CHOICES, { signal: withdraw.signal, clock: inputs.clock });
			if (guarded !== "unsupported") return guarded;
		}
		return ui.select(title, CHOICES, {
			signal: withdraw.signal,
			...(inputs.rpc && { timeout: REVIEW_RPC_DIALOG_TIMEOUT_MS }),
		});
	};
	// An editor that shows no diff (none, failed, closed) gets the choices as a question; one that shows it answers there.
	const shows = note.kind === "shown" || note.kind === "opening";
	const mirrored = shows ? undefined : inputs.mirror?.choose(title, CHOICES, withdraw.signal);
	const fromPi = inPi().then((chosen): Raced => ({ from: "pi", id, answer: chosen, by: "pi" }));
	const fromEditor = mirrored?.then((chosen): Promise<Raced> | Raced =>
		chosen === undefined ? new Promise<Raced>(() => {}) : { from: "pi", id, answer: chosen, by: "editor" },
	);
	// The first answer withdraws the other surface (pi's select or the editor's copy).
	const answer = fromEditor ? Promise.race([fromPi, fromEditor]).finally(() => withdraw.abort()) : fromPi;
	return { id, answer, withdraw, askedAtMs };
}

function approverDecision(decision: ApproverDecision, at: string): Decision {
	if (decision === "no") return { kind: "reject", by: "editor", at };
	return { kind: "accept", by: "editor", at, ...(decision === "all" && { file: true }) };
}

/** The editor's answer as the decision, or undefined when it decides nothing (closed, failed). */
function editorDecision(answer: EditorAnswer): Decision | undefined {
	if (answer.kind === "accepted") return { kind: "accept", by: "editor", text: answer.text };
	if (answer.kind === "rejected")
		return { kind: "reject", by: "editor", ...(answer.reason && { reason: answer.reason }) };
	return undefined;
}

function abortedOf(signal: AbortSignal | undefined): Promise<Raced> {
	return new Promise<Raced>((done) => {
		if (signal?.aborted) done({ from: "abort" });
		signal?.addEventListener("abort", () => done({ from: "abort" }), { once: true });
	});
}

/** A choice of the review's select, made in pi or in the editor's copy of it (`by`). */
async function piDecision(
	answer: string | undefined,
	by: Decider,
	inputs: DecideInputs,
	timedOut: boolean,
): Promise<Decision> {
	switch (choiceOf(answer)) {
		case "accept":
			return { kind: "accept", by };
		case "acceptAll":
			return { kind: "accept", by, all: true };
		case "reject":
			return { kind: "reject", by };
		case "rejectWhy": {
			const reason = await inputs.ui?.input("Why? (the model reads this)", "what to do instead", {
				...(inputs.signal && { signal: inputs.signal }),
				...(inputs.rpc && { timeout: REVIEW_RPC_DIALOG_TIMEOUT_MS }),
			});
			return { kind: "reject", by, ...(reason?.trim() && { reason: reason.trim() }) };
		}
		default:
			// Esc: a stray key never approves, and the turn stops so the user can say what they want.
			return timedOut
				? { kind: "reject", by: "pi", reason: "no answer in time" }
				: { kind: "reject", by: "pi", stopTurn: true };
	}
}

/** The select says where the diff is: it waits for the editor that long at most, then says it is opening. */
async function shownNote(view: NonNullable<DecideInputs["view"]>, clock: Clock): Promise<ViewNote> {
	let cancel: (() => void) | undefined;
	const shown = await Promise.race([
		view.diff.shown,
		new Promise<undefined>((done) => {
			cancel = clock.after(REVIEW_SHOWN_WAIT_MS, () => done(undefined));
		}),
	]);
	cancel?.();
	if (shown === undefined) return { kind: "opening", editor: view.editor };
	return shown.ok
		? { kind: "shown", editor: view.editor, where: shown.where, keys: view.hint }
		: { kind: "failed", editor: view.editor, reason: shown.reason };
}

/** Why nobody could decide (print mode): the view's end as the note says it. */
function viewEndText(note: ViewNote): string {
	if (note.kind === "closed") return `the diff in ${note.editor} was closed without a decision`;
	if (note.kind === "failed") return `${note.editor} could not show it (${note.reason})`;
	if (note.kind === "none") return note.reason;
	return "no editor could show it";
}
