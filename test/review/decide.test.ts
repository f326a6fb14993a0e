import { describe, expect, test } from "vitest";
import type { DiffView, EditorAnswer, ShownResult } from "../../src/review/core/diff-host.ts";
import { CHOICE, CHOICES } from "../../src/review/core/select-texts.ts";
import { type DecideInputs, decide } from "../../src/review/decide.ts";
import { ManualClock } from "../support/clocks.ts";
import { waitFor } from "../support/wait-for.ts";

/** pi's select, answered by the test or withdrawn by its signal. */
function scriptedUi() {
	const open: { title: string; answer: (choice: string | undefined) => void; signal?: AbortSignal }[] = [];
	const ui = {
		select: (title: string, _choices: string[], options?: { signal?: AbortSignal }) =>
			new Promise<string | undefined>((answer) => {
				options?.signal?.addEventListener("abort", () => answer(undefined), { once: true });
				open.push({ title, answer, ...(options?.signal && { signal: options.signal }) });
			}),
		input: async () => "not like this",
	};
	return { ui, open };
}

/** The question mirror as the review sees it: the choices asked, answered by the test, withdrawn by the signal. */
function scriptedMirror(shows = true) {
	const asked: { title: string; choices: readonly string[]; signal: AbortSignal; choose: (c: string) => void }[] = [];
	return {
		asked,
		choose: (title: string, choices: readonly string[], signal: AbortSignal) =>
			shows
				? new Promise<string | undefined>((resolve) => {
						signal.addEventListener("abort", () => resolve(undefined), { once: true });
						asked.push({ title, choices, signal, choose: resolve });
					})
				: undefined,
	};
}

function diffView(shown: ShownResult): DiffView & { answerWith: (answer: EditorAnswer) => void } {
	let answerWith: (answer: EditorAnswer) => void = () => {};
	const answer = new Promise<EditorAnswer>((resolve) => {
		answerWith = resolve;
	});
	return { shown: Promise.resolve(shown), answer, close: async () => {}, answerWith };
}

function inputs(parts: Partial<DecideInputs>): DecideInputs {
	return { rpc: false, title: (note) => `Review: write a.ts\n${note.kind}`, clock: new ManualClock(), ...parts };
}

describe("the review's choices in the editor a run came from (pi's question mirror)", () => {
	test("no editor shows the diff: the choices go to the mirror; chosen there, pi's select is withdrawn", async () => {
		const { ui, open } = scriptedUi();
		const mirror = scriptedMirror();
		const deciding = decide(inputs({ ui, mirror, unshown: "no editor is connected" }));
		await waitFor("asked in pi and in the editor", () => open.length === 1 && mirror.asked.length === 1);
		expect(mirror.asked[0]).toMatchObject({ title: "Review: write a.ts\nnone", choices: CHOICES });
		mirror.asked[0]?.choose(CHOICE.reject);
		expect(await deciding).toEqual({ kind: "reject", by: "editor" });
		expect(open[0]?.signal?.aborted).toBe(true);
	});

	test("answered in pi first: the editor's copy is withdrawn; pi decided", async () => {
		const { ui, open } = scriptedUi();
		const mirror = scriptedMirror();
		const deciding = decide(inputs({ ui, mirror, unshown: "no editor is connected" }));
		await waitFor("asked in both", () => open.length === 1 && mirror.asked.length === 1);
		open[0]?.answer(CHOICE.acceptAll);
		expect(await deciding).toEqual({ kind: "accept", by: "pi", all: true });
		expect(mirror.asked[0]?.signal.aborted).toBe(true);
	});

	test("the editor's diff could not open: its choices go as a question instead", async () => {
		const { ui, open } = scriptedUi();
		const mirror = scriptedMirror();
		const view = diffView({ ok: false, reason: "Neovim is in a prompt" });
		const deciding = decide(inputs({ ui, mirror, view: { editor: "Neovim 42", hint: ":w", diff: view } }));
		await waitFor("asked in both", () => open.length === 1 && mirror.asked.length === 1);
		mirror.asked[0]?.choose(CHOICE.accept);
		expect(await deciding).toEqual({ kind: "accept", by: "editor" });
	});

	test("the editor shows the diff: its accept/reject is the editor's surface, the question is not shown twice", async () => {
		const { ui, open } = scriptedUi();
		const mirror = scriptedMirror();
		const view = diffView({ ok: true, where: "tab page 2" });
		const deciding = decide(inputs({ ui, mirror, view: { editor: "Neovim 42", hint: ":w", diff: view } }));
		await waitFor("asked in pi", () => open.length === 1);
		view.answerWith({ kind: "accepted", text: "new\n" });
		expect(await deciding).toEqual({ kind: "accept", by: "editor", text: "new\n" });
		expect(mirror.asked).toEqual([]);
	});

	test("'Reject and say why' chosen in the editor: the reason asked in pi (its input, a notice in the editor)", async () => {
		const { ui, open } = scriptedUi();
		const mirror = scriptedMirror();
		const deciding = decide(inputs({ ui, mirror, unshown: "no editor is connected" }));
		await waitFor("asked in both", () => open.length === 1 && mirror.asked.length === 1);
		mirror.asked[0]?.choose(CHOICE.rejectWhy);
		expect(await deciding).toEqual({ kind: "reject", by: "editor", reason: "not like this" });
	});

	test("a run typed into pi (the mirror shows nothing): pi's select alone decides", async () => {
		const { ui, open } = scriptedUi();
		const deciding = decide(inputs({ ui, mirror: scriptedMirror(false), unshown: "no editor is connected" }));
		await waitFor("asked in pi", () => open.length === 1);
		open[0]?.answer(CHOICE.accept);
		expect(await deciding).toEqual({ kind: "accept", by: "pi" });
	});

	test("the diff closed undecided in the editor: asked again in pi, and the choices go to the editor as a question", async () => {
		const { ui, open } = scriptedUi();
		const mirror = scriptedMirror();
		const view = diffView({ ok: true, where: "tab page 2" });
		const deciding = decide(inputs({ ui, mirror, view: { editor: "Neovim 42", hint: ":w", diff: view } }));
		await waitFor("asked in pi", () => open.length === 1);
		expect(mirror.asked).toEqual([]);
		view.answerWith({ kind: "closed" });
		await waitFor("asked again, also in the editor", () => open.length === 2 && mirror.asked.length === 1);
		expect(mirror.asked[0]?.title).toBe("Review: write a.ts\nclosed");
		mirror.asked[0]?.choose(CHOICE.reject);
		expect(await deciding).toEqual({ kind: "reject", by: "editor" });
	});
});
