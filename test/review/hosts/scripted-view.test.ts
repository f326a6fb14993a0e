import { describe, expect, test } from "vitest";
import type { RequestOutcome, ShownResult } from "../../../src/review/core/diff-host.ts";
import type { ViewOutcome } from "../../../src/review/core/view-outcome.ts";
import { outcomeOf, scriptedView } from "../../../src/review/hosts/scripted-view.ts";
import { ManualClock } from "../../support/clocks.ts";

/** A scripted editor as the test says: the open answered by hand, each close ask answered by `closes`. */
function fakeEditor(closes: boolean[] = []) {
	const clock = new ManualClock();
	const steps: string[] = [];
	let answerOpen!: (result: ShownResult) => void;
	const shown = new Promise<ShownResult>((resolve) => {
		answerOpen = resolve;
	});
	let closeConnection!: (reason: string) => void;
	const closed = new Promise<string>((resolve) => {
		closeConnection = resolve;
	});
	let outcome: ViewOutcome | undefined;
	let listening = false;
	const view = scriptedView({
		whenClosed: () => closed,
		after: (ms, run) => clock.after(ms, run),
		listen: (given) => {
			outcome = given;
			listening = true;
			return () => {
				listening = false;
			};
		},
		shown,
		close: {
			once: async () => {
				steps.push("close");
				return closes.shift() ?? true;
			},
			attempts: 3,
			retryMs: 1000,
			task: "test close",
		},
		afterClose: async () => {
			steps.push("after close");
		},
	});
	const answer = (given: Parameters<ViewOutcome["settleAnswer"]>[0]) => outcome?.settleAnswer(given);
	return { view, clock, steps, answerOpen, closeConnection, answer, listening: () => listening };
}

const settle = () => new Promise((done) => setImmediate(done));

describe("a review's view in a scripted editor", () => {
	test("the editor's first answer counts, and ends the subscription", async () => {
		const editor = fakeEditor();
		editor.answerOpen({ ok: true, where: "tab page 2" });
		expect(await editor.view.shown).toEqual({ ok: true, where: "tab page 2" });
		expect(editor.listening()).toBe(true);
		editor.answer({ kind: "rejected", reason: "no" });
		editor.answer({ kind: "accepted", text: "x" });
		expect(await editor.view.answer).toEqual({ kind: "rejected", reason: "no" });
		expect(editor.listening()).toBe(false);
	});

	test("closed by pi before it was shown: closed at once, the close asked only after the open's answer", async () => {
		const editor = fakeEditor();
		const closing = editor.view.close();
		expect(await editor.view.answer).toEqual({ kind: "closed" });
		await settle();
		expect(editor.steps).toEqual([]);
		editor.answerOpen({ ok: true, where: "tab page 2" });
		await closing;
		expect(editor.steps).toEqual(["close", "after close"]);
		// Idempotent: the same close, nothing asked again.
		await editor.view.close();
		expect(editor.steps).toEqual(["close", "after close"]);
	});

	test("a failed open is the answer too, and whatever a late open left is closed", async () => {
		const editor = fakeEditor();
		editor.answerOpen({ ok: false, reason: "no answer within 2000 ms" });
		expect(await editor.view.answer).toEqual({ kind: "failed", reason: "no answer within 2000 ms" });
		await editor.view.close();
		expect(editor.steps).toEqual(["close", "after close"]);
	});

	test("a close the editor could not take is asked again, at most so many times", async () => {
		const editor = fakeEditor([false, false, false, false]);
		editor.answerOpen({ ok: true, where: "tab page 2" });
		await editor.view.close();
		expect(editor.steps).toEqual(["close", "after close"]);
		for (let retry = 0; retry < 4; retry++) {
			editor.clock.advance(1000);
			await settle();
		}
		expect(editor.steps).toEqual(["close", "after close", "close", "close"]);
		expect(editor.clock.pendingTimers).toBe(0);
	});

	test("the connection gone: not shown and failed, with why; a failed close is not asked again", async () => {
		const editor = fakeEditor([false]);
		editor.closeConnection("Neovim closed the connection");
		expect(await editor.view.shown).toEqual({ ok: false, reason: "Neovim closed the connection" });
		expect(await editor.view.answer).toEqual({ kind: "failed", reason: "Neovim closed the connection" });
		await editor.view.close();
		expect(editor.steps).toEqual(["close", "after close"]);
		expect(editor.clock.pendingTimers).toBe(0);
	});

	test("the connection gone after it was shown: the answer fails, the show stays", async () => {
		const editor = fakeEditor();
		editor.answerOpen({ ok: true, where: "tab page 2" });
		await editor.view.shown;
		editor.closeConnection("pi closed the connection");
		expect(await editor.view.answer).toEqual({ kind: "failed", reason: "pi closed the connection" });
		expect(await editor.view.shown).toEqual({ ok: true, where: "tab page 2" });
	});
});

describe("a scripted editor's request as its outcome", () => {
	test("a rejection and a throw are failures with their message; an outcome stays as it is", async () => {
		const answered: RequestOutcome = { ok: true, value: { tab: 2 } };
		expect(await outcomeOf(async () => answered)).toBe(answered);
		expect(await outcomeOf(() => Promise.reject(new Error("socket gone")))).toEqual({
			ok: false,
			reason: "socket gone",
		});
		expect(
			await outcomeOf(() => {
				throw "not an error";
			}),
		).toEqual({ ok: false, reason: "not an error" });
	});
});
