import { describe, expect, test } from "vitest";
import { viewOutcome } from "../../../src/review/core/view-outcome.ts";

describe("a diff view's two outcomes", () => {
	test("each keeps its first: later answers and shows are ignored", async () => {
		const outcome = viewOutcome();
		outcome.settleShown({ ok: true, where: "tab 2" });
		outcome.settleShown({ ok: false, reason: "late" });
		outcome.settleAnswer({ kind: "rejected", reason: "first" });
		outcome.settleAnswer({ kind: "accepted", text: "second" });
		expect(await outcome.shown).toEqual({ ok: true, where: "tab 2" });
		expect(await outcome.answer).toEqual({ kind: "rejected", reason: "first" });
	});

	test("a failed show is the answer too, with the same reason", async () => {
		const outcome = viewOutcome();
		outcome.settleShown({ ok: false, reason: "no server" });
		expect(outcome.answered).toBe(true);
		expect(await outcome.answer).toEqual({ kind: "failed", reason: "no server" });
	});

	test("a failed show after an answer leaves the answer as it was", async () => {
		const outcome = viewOutcome();
		outcome.settleAnswer({ kind: "closed" });
		outcome.settleShown({ ok: false, reason: "closed by pi" });
		expect(await outcome.shown).toEqual({ ok: false, reason: "closed by pi" });
		expect(await outcome.answer).toEqual({ kind: "closed" });
	});

	test("the answer ends the subscription, once, before the answer is seen", async () => {
		const stopped: string[] = [];
		const outcome = viewOutcome(() => stopped.push("stop"));
		expect(outcome.answered).toBe(false);
		outcome.settleAnswer({ kind: "closed" });
		outcome.settleAnswer({ kind: "closed" });
		outcome.settleShown({ ok: false, reason: "gone" });
		expect(stopped).toEqual(["stop"]);
		expect(outcome.answered).toBe(true);
	});
});
