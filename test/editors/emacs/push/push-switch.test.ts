import { describe, expect, test } from "vitest";
import { PushSwitch } from "../../../../src/editors/emacs/push/push-switch.ts";

/** A switch whose requests the test answers: `answers` in turn (true: Emacs answered), each asked `on` logged. */
function switchAnswering(answers: boolean[]) {
	const asked: boolean[] = [];
	const pushSwitch = new PushSwitch(async (on) => {
		asked.push(on);
		return answers.shift() ?? true;
	});
	return { pushSwitch, asked };
}

describe("one Emacs's pushing hooks as pi knows them", () => {
	test("on, answered: on; asked again for the same, nothing is sent", async () => {
		const { pushSwitch, asked } = switchAnswering([true]);
		await pushSwitch.set(true);
		await pushSwitch.set(true);
		expect(pushSwitch.on).toBe(true);
		expect(asked).toEqual([true]);
	});

	test("installed off: off asks nothing", async () => {
		const { pushSwitch, asked } = switchAnswering([]);
		await pushSwitch.set(false);
		expect(asked).toEqual([]);
	});

	test("on unanswered (a busy Emacs runs it later): unknown, so the next off is asked, and stops it", async () => {
		const { pushSwitch, asked } = switchAnswering([false, true]);
		await pushSwitch.set(true);
		expect(pushSwitch.on).toBe(false);
		await pushSwitch.set(false);
		expect(asked).toEqual([true, false]);
		await pushSwitch.set(false);
		expect(asked).toEqual([true, false]);
	});

	test("on unanswered, on again: asked again (not taken for done)", async () => {
		const { pushSwitch, asked } = switchAnswering([false, true]);
		await pushSwitch.set(true);
		await pushSwitch.set(true);
		expect(asked).toEqual([true, true]);
		expect(pushSwitch.on).toBe(true);
	});

	test("off unanswered: the next off is asked too", async () => {
		const { pushSwitch, asked } = switchAnswering([true, false, true]);
		await pushSwitch.set(true);
		await pushSwitch.set(false);
		await pushSwitch.set(false);
		expect(asked).toEqual([true, false, false]);
		expect(pushSwitch.on).toBe(false);
	});

	test("a request that throws counts as unanswered", async () => {
		const pushSwitch = new PushSwitch(() => Promise.reject(new Error("gone")));
		await pushSwitch.set(true);
		expect(pushSwitch.on).toBe(false);
	});

	test("one request at a time: off wished while on is asked goes after it, and is what stays", async () => {
		const asked: boolean[] = [];
		let answer = () => {};
		const pushSwitch = new PushSwitch((on) => {
			asked.push(on);
			return new Promise((settle) => {
				answer = () => settle(true);
			});
		});
		const on = pushSwitch.set(true);
		const off = pushSwitch.set(false);
		expect(asked).toEqual([true]);
		answer();
		await new Promise((settle) => setTimeout(settle, 0));
		expect(asked).toEqual([true, false]);
		answer();
		await Promise.all([on, off]);
		expect(pushSwitch.on).toBe(false);
	});

	test.each<[string, { wanted: boolean; frames: number }, boolean[]]>([
		["pushed with the frames seen while off: the hooks run, off asked again", { wanted: false, frames: 1 }, [false]],
		[
			"pushed with another frame count while off: the frame hooks' push, nothing asked",
			{ wanted: false, frames: 2 },
			[],
		],
		["pushed while on is wanted: nothing asked", { wanted: true, frames: 1 }, []],
	])("%s", async (_name, { wanted, frames }, expected) => {
		const { pushSwitch, asked } = switchAnswering([]);
		await pushSwitch.set(wanted);
		asked.length = 0;
		pushSwitch.framesSeen(1);
		pushSwitch.pushed(frames);
		await new Promise((settle) => setTimeout(settle, 0));
		expect(asked).toEqual(expected);
	});
});
