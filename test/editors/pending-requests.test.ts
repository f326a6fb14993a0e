import { expect, test } from "vitest";
import { PendingRequests } from "../../src/editors/pending-requests.ts";
import { ManualClock } from "../support/clocks.ts";

test("an answer settles its request; one after the timeout finds nobody", async () => {
	const clock = new ManualClock();
	const pending = new PendingRequests<string>(clock);
	const first = pending.open(100, "timed out");
	const second = pending.open(100, "timed out");
	expect([first.id, second.id]).toEqual([1, 2]);
	expect(pending.settle(first.id, "one")).toBe(true);
	clock.advance(100);
	expect(await first.answer).toBe("one");
	expect(await second.answer).toBe("timed out");
	expect(pending.settle(second.id, "late")).toBe(false);
	expect(pending.settle(99, "never asked")).toBe(false);
});

test("the connection gone: every request still waiting gets the answer given; ids wrap at maxId", async () => {
	const pending = new PendingRequests<string>(new ManualClock(), 2);
	const first = [pending.open(100, "t"), pending.open(100, "t")];
	pending.settleAll("closed");
	expect(await Promise.all(first.map(({ answer }) => answer))).toEqual(["closed", "closed"]);
	expect(first.map(({ id }) => id)).toEqual([1, 2]);
	expect(pending.open(100, "t").id).toBe(1);
});
