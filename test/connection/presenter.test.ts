import { describe, expect, test } from "vitest";
import { EditorPresenter } from "../../src/connection/presenter.ts";
import type { Editor } from "../../src/editors/core/editor.ts";
import type { EditorEvent } from "../../src/events.ts";
import { ManualClock } from "../support/clocks.ts";
import { editorState, selection } from "../support/fixtures.ts";

function presenter(clock: ManualClock, current: () => Editor | undefined, isSecret = false, review = { on: false }) {
	const widgets: (string | undefined)[] = [];
	const events: (EditorEvent | undefined)[] = [];
	const shown = new EditorPresenter(
		{
			showWidget: (text) => widgets.push(text),
			announce: (event) => events.push(event),
			clock,
			isSecret: () => isSecret,
			reviewOn: () => review.on,
		},
		current,
	);
	return { shown, widgets, events };
}

const editorWith = (clock: ManualClock, selectedAgoSeconds: number | undefined): Editor => ({
	origin: "state-file",
	key: "pid:12",
	pid: 12,
	alive: true,
	state: editorState({
		pid: 12,
		buffer:
			selectedAgoSeconds === undefined
				? {}
				: { selection: selection(3, 4, "x", clock.nowSeconds() - selectedAgoSeconds) },
	}),
	paths: { cwd: "/home/dev/proj", argvDirs: [] },
	selectionFirstSeenSeconds: clock.nowSeconds(),
	writtenAtSeconds: clock.nowSeconds(),
	match: { tier: 0, evidence: "cwd equals the project" },
});

describe("the widget follows the connected editor, and a fresh selection turns stale on time", () => {
	test("the widget flips to 'in' the moment the selection is 60 s old, with no write, and not before", () => {
		const clock = new ManualClock();
		const editor = editorWith(clock, 50);
		const { shown, widgets } = presenter(clock, () => editor);
		shown.render();
		expect(widgets).toEqual(["2 lines selected in main.ts"]);
		clock.advance(9_999);
		expect(widgets).toHaveLength(1);
		clock.advance(2);
		expect(widgets).toEqual(["2 lines selected in main.ts", "in main.ts"]);
		expect(clock.pendingTimers).toBe(0);
	});

	test("no fresh selection: no timer is left running", () => {
		const clock = new ManualClock();
		const { shown, widgets } = presenter(clock, () => editorWith(clock, 61));
		shown.render();
		expect(widgets).toEqual(["in main.ts"]);
		expect(clock.pendingTimers).toBe(0);
	});

	test("stop cancels the expiry: nothing renders after it", () => {
		const clock = new ManualClock();
		const { shown, widgets } = presenter(clock, () => editorWith(clock, 10));
		shown.render();
		shown.stop();
		clock.advance(120_000);
		expect(widgets).toHaveLength(1);
	});

	test("the event goes out when the editor or the widget changes, not on every render", () => {
		const clock = new ManualClock();
		let editor: Editor | undefined = editorWith(clock, undefined);
		const { shown, events } = presenter(clock, () => editor);
		shown.render();
		shown.render();
		expect(events).toEqual([
			{
				key: "pid:12",
				pid: 12,
				app: "nvim",
				file: "/home/dev/proj/src/main.ts",
				timestamp: 1_800_000_000,
				widget: "in main.ts",
				review: false,
			},
		]);
		editor = undefined;
		shown.render();
		expect(events.at(-1)).toBeUndefined();
		expect(events).toHaveLength(2);
	});

	test("a secret file's selection is marked as not sent", () => {
		const clock = new ManualClock();
		const { shown, widgets } = presenter(clock, () => editorWith(clock, 5), true);
		shown.render();
		expect(widgets).toEqual(["2 lines selected in main.ts (not sent)"]);
	});

	test("review on: the widget ends with ', review on', with or without an editor; the event says it in its own field", () => {
		const clock = new ManualClock();
		const review = { on: true };
		let editor: Editor | undefined = editorWith(clock, undefined);
		const { shown, widgets, events } = presenter(clock, () => editor, false, review);
		shown.render();
		expect(widgets.at(-1)).toBe("in main.ts, review on");
		expect(events.at(-1)).toMatchObject({ widget: "in main.ts", review: true });
		review.on = false;
		shown.render();
		expect(widgets.at(-1)).toBe("in main.ts");
		expect(events.at(-1)).toMatchObject({ widget: "in main.ts", review: false });
		expect(events).toHaveLength(2);
		review.on = true;
		const noFile = editorWith(clock, undefined);
		editor = { ...noFile, state: { ...noFile.state, active_buffer: undefined } };
		shown.render();
		expect(widgets.at(-1)).toBe("review on");
		editor = undefined;
		shown.render();
		expect(widgets.at(-1)).toBe("no editor, review on");
		expect(events.at(-1)).toBeUndefined();
	});
});
