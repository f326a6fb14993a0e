import { afterEach, describe, expect, test } from "vitest";
import { MAX_REPLY_CHARS } from "../../src/asks/core/reply-text.ts";
import { ReplyViews } from "../../src/asks/reply-views.ts";
import { REPLY_VIEW_UPDATE_MS } from "../../src/shared/core/timing.ts";
import { ManualClock } from "../support/clocks.ts";
import { tempDir } from "../support/temp-dir.ts";
import { askRig, assistantMessage, type FakeEditor, fakeEditor } from "./ask-rig.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The service with one editor whose ask started the run now under way. */
async function askedAndWorking(editor: FakeEditor = fakeEditor(51)) {
	const dir = tempDir("asks-reply");
	cleanups.push(dir.cleanup);
	const rig = askRig(dir.path);
	cleanups.push(() => rig.service.close());
	rig.input((await rig.ask(editor, { prompt: "explain" })) ?? "");
	rig.service.agentStarted();
	return { ...rig, editor };
}

describe("the reply of the editor's latest ask, through the service", () => {
	test("none yet: says so, and nothing is shown", () => {
		const dir = tempDir("asks-reply");
		cleanups.push(dir.cleanup);
		const { receive } = askRig(dir.path);
		const neovim = fakeEditor(50);
		receive(neovim, "reply");
		expect(neovim.told).toEqual([
			{ kind: "status", text: "pi: no reply yet: nothing was asked from this editor", level: "info" },
		]);
	});

	test("opened: shown at once; streamed at most once per REPLY_VIEW_UPDATE_MS, thinking left out; final at the end", async () => {
		const { receive, service, clock, editor } = await askedAndWorking();
		receive(editor, "reply");
		expect(editor.replies()).toEqual([{ text: "", streaming: true }]);

		service.messageUpdated(assistantMessage("Hel"), false);
		service.messageUpdated(assistantMessage("Hello"), false);
		clock.advance(REPLY_VIEW_UPDATE_MS - 1);
		expect(editor.replies()).toHaveLength(1);
		clock.advance(1);
		expect(editor.replies().at(-1)).toEqual({ text: "Hello", streaming: true });

		// An update every 10 ms for a second: at most one view update per REPLY_VIEW_UPDATE_MS.
		const before = editor.replies().length;
		let text = "Hello";
		for (let step = 0; step < 100; step++) {
			text += ".";
			service.messageUpdated(assistantMessage(text), false);
			clock.advance(10);
		}
		const shown = editor.replies().slice(before);
		expect(shown.length).toBeGreaterThanOrEqual(1);
		expect(shown.length).toBeLessThanOrEqual(1000 / REPLY_VIEW_UPDATE_MS);
		expect(shown.every((reply) => reply.streaming && !reply.text.includes("the user wants"))).toBe(true);

		service.messageUpdated(assistantMessage(text), true);
		service.messageUpdated({ role: "user", content: "not the reply" }, true);
		service.messageUpdated(assistantMessage("Second message."), false);
		clock.advance(REPLY_VIEW_UPDATE_MS);
		expect(editor.replies().at(-1)).toEqual({ text: `${text}\n\nSecond message.`, streaming: true });

		service.messageUpdated(assistantMessage("Second message, whole."), true);
		await service.runEnded({ aborted: false });
		expect(editor.replies().at(-1)).toEqual({ text: `${text}\n\nSecond message, whole.`, streaming: false });
		expect(editor.told.at(-1)).toEqual({ kind: "status", text: "pi: done", level: "info" });
		const count = editor.replies().length;
		clock.advance(10 * REPLY_VIEW_UPDATE_MS);
		expect(editor.replies()).toHaveLength(count);

		// Opened again after the run: the final reply, at once.
		receive(editor, "reply");
		expect(editor.replies().at(-1)).toEqual({ text: `${text}\n\nSecond message, whole.`, streaming: false });
	});

	test("closed: nothing more is shown, not even the final reply; opened again, the reply so far", async () => {
		const { receive, service, clock, editor } = await askedAndWorking();
		receive(editor, "reply");
		service.messageUpdated(assistantMessage("partial"), false);
		receive(editor, "replyClosed");
		clock.advance(10 * REPLY_VIEW_UPDATE_MS);
		service.messageUpdated(assistantMessage("partial and more"), false);
		clock.advance(10 * REPLY_VIEW_UPDATE_MS);
		expect(editor.replies()).toEqual([{ text: "", streaming: true }]);
		receive(editor, "reply");
		expect(editor.replies().at(-1)).toEqual({ text: "partial and more", streaming: true });
		receive(editor, "replyClosed");
		await service.runEnded({ aborted: false });
		expect(editor.replies()).toHaveLength(2);
		expect(clock.pendingTimers).toBe(0);
	});

	test("a new ask starts its reply empty; another editor's view never gets this one's reply", async () => {
		const { receive, service, clock, editor, ask, input } = await askedAndWorking();
		const other = fakeEditor(52, "Emacs 52");
		service.messageUpdated(assistantMessage("first answer"), true);
		await service.runEnded({ aborted: false });
		receive(other, "reply");
		expect(other.statuses()).toEqual(["pi: no reply yet: nothing was asked from this editor"]);
		input((await ask(editor, { prompt: "again" })) ?? "");
		service.agentStarted();
		receive(editor, "reply");
		expect(editor.replies().at(-1)).toEqual({ text: "", streaming: true });
		service.messageUpdated(assistantMessage("second answer"), false);
		clock.advance(REPLY_VIEW_UPDATE_MS);
		expect(editor.replies().at(-1)).toEqual({ text: "second answer", streaming: true });
		expect(other.replies()).toEqual([]);
	});

	test("an editor gone: nothing more is told it", async () => {
		const { receive, asks, service, clock, editor } = await askedAndWorking();
		receive(editor, "reply");
		asks.gone(editor.key);
		service.messageUpdated(assistantMessage("late"), false);
		clock.advance(REPLY_VIEW_UPDATE_MS);
		await service.runEnded({ aborted: false });
		expect(editor.told).toEqual([
			{ kind: "status", text: "pi: working (faux/model-1)", level: "working" },
			{ kind: "reply", text: "", streaming: true },
		]);
	});
});

describe("ReplyViews alone", () => {
	test("a reply over the cap is cut with its note", () => {
		const clock = new ManualClock();
		const shown: string[] = [];
		const views = new ReplyViews(clock, (_key, text) => shown.push(text));
		views.started("pid:1");
		expect(views.opened("pid:1")).toBe(true);
		views.streamed(["pid:1"], "x".repeat(MAX_REPLY_CHARS + 5), true);
		views.ended(["pid:1"]);
		expect(shown.at(-1)).toBe(`${"x".repeat(MAX_REPLY_CHARS)}\n\n[reply cut at 256 KiB]`);
	});

	test("a key never started shows nothing; forget() drops the reply; close() cancels what was due", () => {
		const clock = new ManualClock();
		const shown: string[] = [];
		const views = new ReplyViews(clock, (key, text) => shown.push(`${key}: ${text}`));
		expect(views.opened("pid:9")).toBe(false);
		views.streamed(["pid:9"], "nobody's", false);
		views.started("pid:1");
		views.opened("pid:1");
		views.streamed(["pid:1"], "due", false);
		expect(clock.pendingTimers).toBe(1);
		views.close();
		expect(clock.pendingTimers).toBe(0);
		clock.advance(REPLY_VIEW_UPDATE_MS);
		views.forget("pid:1");
		expect(views.opened("pid:1")).toBe(false);
		expect(shown).toEqual(["pid:1: "]);
	});
});
