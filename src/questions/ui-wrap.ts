import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import type { QuestionView } from "./core/question-queue.ts";
import { confirmView, noticeView, questionView } from "./core/question-texts.ts";
import type { MirrorAnswer, QuestionMirror } from "./question-mirror.ts";

const WRAPPED = ["select", "confirm", "input", "editor", "custom"] as const;
type Wrapped = Pick<ExtensionUIContext, (typeof WRAPPED)[number]>;

/**
 * What a wrapped `ctx.ui` keeps under this key: the functions that were there before (pi's own, or another
 * extension's wrap) and the mirror of the moment. `Symbol.for`: a pi-ide-context loaded again (`/reload`) finds
 * the wrap in place and swaps the mirror, so a question is never mirrored twice.
 */
const WRAP_SLOT = Symbol.for("pi-ide-context.questions.wrap");

interface WrapSlot {
	before: Wrapped;
	ours: Wrapped;
	mirror?: Pick<QuestionMirror, "targets" | "show">;
}

type SlotHolder = { [WRAP_SLOT]?: WrapSlot };

/**
 * Wraps the session's `ctx.ui` (every extension's dialogs go through it): while a run an editor asked is under
 * way, a question shows in that editor too; otherwise each call goes straight through. Returns the unwrap.
 */
export function wrapUi(ui: ExtensionUIContext, mirror: Pick<QuestionMirror, "targets" | "show">): () => void {
	const holder = ui as ExtensionUIContext & SlotHolder;
	// A slot whose functions were put back by another extension's unwrap is no wrap any more: a fresh one.
	const found = holder[WRAP_SLOT];
	const live = found && WRAPPED.some((name) => ui[name] === found.ours[name]) ? found : undefined;
	const slot = live ?? newSlot(ui);
	slot.mirror = mirror;
	if (!live) {
		holder[WRAP_SLOT] = slot;
		Object.assign(ui, slot.ours);
	}
	return () => {
		if (slot.mirror === mirror) slot.mirror = undefined;
		// Another extension wrapped after us: ours stays under theirs, passing straight through.
		if (WRAPPED.every((name) => ui[name] === slot.ours[name])) {
			Object.assign(ui, slot.before);
			delete holder[WRAP_SLOT];
		}
	};
}

/** pi's `select` and `custom` as they were before this wrap: the review asks with them and mirrors its own choices. */
export function unmirrored(ui: ExtensionUIContext): ExtensionUIContext {
	const slot = (ui as ExtensionUIContext & SlotHolder)[WRAP_SLOT];
	if (!slot) return ui;
	return Object.assign(Object.create(ui) as ExtensionUIContext, {
		select: slot.before.select,
		custom: slot.before.custom,
	});
}

function newSlot(ui: ExtensionUIContext): WrapSlot {
	// The functions themselves, called on `ui`: the unwrap puts back exactly what was there.
	const before: Wrapped = {
		select: ui.select,
		confirm: ui.confirm,
		input: ui.input,
		editor: ui.editor,
		custom: ui.custom,
	};
	const call = <K extends keyof Wrapped>(name: K, args: Parameters<Wrapped[K]>): ReturnType<Wrapped[K]> =>
		(before[name] as (...all: Parameters<Wrapped[K]>) => ReturnType<Wrapped[K]>).apply(ui, args);
	const slot: WrapSlot = { before, ours: before };
	const targets = () => slot.mirror?.targets() ?? [];
	slot.ours = {
		select: (...args) => {
			const [title, options, opts] = args;
			const to = targets();
			if (to.length === 0 || !slot.mirror) return call("select", args);
			return raced(slot.mirror, questionView(title, options), to, opts?.signal, (signal) =>
				call("select", [title, options, { ...opts, signal }]),
			).then((won) => (won.from === "editor" ? options[won.choice] : won.answer));
		},
		confirm: (...args) => {
			const [title, message, opts] = args;
			const to = targets();
			if (to.length === 0 || !slot.mirror) return call("confirm", args);
			return raced(slot.mirror, confirmView(title, message), to, opts?.signal, (signal) =>
				call("confirm", [title, message, { ...opts, signal }]),
			).then((won) => (won.from === "editor" ? won.choice === 0 : won.answer));
		},
		input: (...args) => noticed(slot, noticeView(args[0]), () => call("input", args)),
		editor: (...args) => noticed(slot, noticeView(args[0]), () => call("editor", args)),
		custom: ((...args: Parameters<Wrapped["custom"]>) => {
			const to = targets();
			if (to.length === 0 || !slot.mirror) return call("custom", args);
			return drawnNotice(slot.mirror, to, args, (made) => call("custom", made));
		}) as Wrapped["custom"],
	};
	return slot;
}

type CustomArgs = Parameters<Wrapped["custom"]>;
type Made = Awaited<ReturnType<CustomArgs[0]>>;

/** Terminal columns a custom dialog is drawn at for the editor's copy. */
const NOTICE_DRAW_COLUMNS = 80;

/**
 * A custom dialog: its notice shows once pi made the component, with the lines it draws; Esc in the editor goes
 * to the component (which closes the dialog its own way). Nothing shows where pi never makes one (RPC mode).
 */
async function drawnNotice(
	mirror: Pick<QuestionMirror, "show">,
	targets: Parameters<QuestionMirror["show"]>[1],
	[factory, options]: CustomArgs,
	piDialog: (args: CustomArgs) => ReturnType<Wrapped["custom"]>,
): Promise<Awaited<ReturnType<Wrapped["custom"]>>> {
	const gone = new AbortController();
	const noticed = (made: Made): Made => {
		if (gone.signal.aborted) return made;
		let drawn: string[] | undefined;
		try {
			drawn = made.render(NOTICE_DRAW_COLUMNS);
		} catch {}
		void mirror.show(noticeView(undefined, drawn), targets, gone.signal, (key) => made.handleInput?.(key));
		return made;
	};
	const wrapped: CustomArgs[0] = (...made) => {
		const component = factory(...made);
		return component instanceof Promise ? component.then(noticed) : noticed(component);
	};
	try {
		return await piDialog([wrapped, options] as CustomArgs);
	} finally {
		gone.abort();
	}
}

type Won<T> = { from: "editor"; choice: number } | { from: "pi"; answer: T };

/**
 * pi's dialog and the editor's copy at once: the first answer wins; the editor's withdraws pi's dialog (its
 * signal), pi's closes the editor's copy. The caller's own signal withdraws both.
 */
async function raced<T>(
	mirror: Pick<QuestionMirror, "show">,
	view: QuestionView,
	targets: Parameters<QuestionMirror["show"]>[1],
	callerSignal: AbortSignal | undefined,
	piDialog: (signal: AbortSignal) => Promise<T>,
): Promise<Won<T>> {
	const piWithdraw = new AbortController();
	const editorWithdraw = new AbortController();
	const signal = callerSignal ? AbortSignal.any([callerSignal, piWithdraw.signal]) : piWithdraw.signal;
	const editorSignal = callerSignal ? AbortSignal.any([callerSignal, editorWithdraw.signal]) : editorWithdraw.signal;
	const inEditor = mirror
		.show(view, targets, editorSignal)
		.then((choice: MirrorAnswer) => (choice === undefined ? never<Won<T>>() : { from: "editor" as const, choice }));
	try {
		// Inside the try: a dialog that throws at once still closes the editor's copy.
		const inPi = piDialog(signal).then((answer): Won<T> => ({ from: "pi", answer }));
		const won = await Promise.race([inEditor, inPi]);
		if (won.from === "editor") piWithdraw.abort();
		return won;
	} finally {
		editorWithdraw.abort();
	}
}

/** A dialog only pi can answer: a notice in the editor while it is open. */
async function noticed<T>(slot: WrapSlot, view: QuestionView, piDialog: () => Promise<T>): Promise<T> {
	const to = slot.mirror?.targets() ?? [];
	if (to.length === 0 || !slot.mirror) return piDialog();
	const gone = new AbortController();
	void slot.mirror.show(view, to, gone.signal);
	try {
		return await piDialog();
	} finally {
		gone.abort();
	}
}

const never = <T>() => new Promise<T>(() => {});
