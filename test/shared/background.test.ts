import { afterEach, describe, expect, test } from "vitest";
import {
	backgroundFailures,
	forgetBackgroundFailures,
	guarded,
	recordBackgroundFailure,
	runInBackground,
} from "../../src/shared/background.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { waitFor } from "../support/wait-for.ts";

afterEach(() => forgetBackgroundFailures());

const tasks = () => backgroundFailures().map(({ task, count, lastReason }) => ({ task, count, lastReason }));

describe("background work never takes pi down", () => {
	test("a synchronous throw is recorded, and the promise handed back resolves", async () => {
		await expect(
			runInBackground("zed scan", () => {
				throw new Error("boom");
			}),
		).resolves.toBeUndefined();
		expect(tasks()).toEqual([{ task: "zed scan", count: 1, lastReason: "Error: boom" }]);
	});

	test("a rejection is recorded; the same task again counts up and keeps the latest reason", async () => {
		await runInBackground("neovim scan", () => Promise.reject(new TypeError("first")));
		await runInBackground("neovim scan", () => Promise.reject("second"));
		expect(tasks()).toEqual([{ task: "neovim scan", count: 2, lastReason: "second" }]);
	});

	test("work that succeeds records nothing and its result is not kept", async () => {
		await runInBackground("read", async () => 42);
		runInBackground("read", () => "sync");
		expect(tasks()).toEqual([]);
	});

	test("a callback (a watcher's, setImmediate's) that throws is recorded, not thrown to its caller", async () => {
		const callback = guarded("dir watch", (name: string) => {
			throw new Error(`bad ${name}`);
		});
		expect(() => callback("nvim.1.0")).not.toThrow();
		setImmediate(guarded("reconcile", () => Promise.reject(new Error("later"))));
		await waitFor("the rejection is recorded", () => tasks().length === 2);
		expect(tasks()).toEqual([
			{ task: "dir watch", count: 1, lastReason: "Error: bad nvim.1.0" },
			{ task: "reconcile", count: 1, lastReason: "Error: later" },
		]);
	});

	test("the system clock's timers are guarded: a throwing timer callback is recorded", async () => {
		systemClock.after(0, () => {
			throw new Error("timer went wrong");
		});
		await waitFor("recorded", () => tasks().length === 1);
		expect(tasks()).toEqual([{ task: "timer", count: 1, lastReason: "Error: timer went wrong" }]);
	});

	test("a reason is cut, a value that cannot be shown is named, and only so many tasks are kept", () => {
		recordBackgroundFailure("huge", new Error("x".repeat(10_000)));
		const unprintable = {
			toString() {
				throw new Error("no");
			},
		};
		recordBackgroundFailure("odd", unprintable);
		expect(tasks()[0]?.lastReason.length).toBeLessThanOrEqual(501);
		expect(tasks()[1]?.lastReason).toBe("a value that cannot be shown");
		for (let index = 0; index < 40; index++) recordBackgroundFailure(`task ${index}`, "x");
		expect(backgroundFailures()).toHaveLength(32);
		expect(backgroundFailures().at(-1)?.task).toBe("task 39");
	});
});
