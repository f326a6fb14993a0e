import { describe, expect, test } from "vitest";
import type { EditorFacts, ListedEditor } from "../../src/editors/core/editor.ts";
import type { EditorSource } from "../../src/editors/editor-source.ts";
import { MergedSources } from "../../src/editors/merged-sources.ts";
import { RECHECK_EVERY_TICKS } from "../../src/shared/core/timing.ts";
import { ManualClock } from "../support/clocks.ts";
import { editorState } from "../support/fixtures.ts";

/** A source that records what the list asked of it. */
function source(
	options: {
		editors?: ListedEditor[];
		facts?: EditorFacts;
		lost?: boolean;
		pending?: boolean;
		flush?: () => Promise<void>;
		unsavedNow?: readonly string[];
	} = {},
) {
	const calls: string[] = [];
	const fake: EditorSource = {
		start: async () => {},
		close: async () => {},
		editors: () => options.editors ?? [],
		facts: (): EditorFacts | undefined => options.facts,
		checkLiveness: () => false,
		recheck: async () => {
			calls.push("recheck");
		},
		lookAgain: async () => {
			calls.push("look again");
		},
		get lost() {
			return options.lost === true;
		},
		isPending: () => options.pending === true,
		flush: options.flush ?? (async () => {}),
		unsavedNow: async () => options.unsavedNow,
	};
	return { fake, calls };
}

const listed = (writtenAtSeconds: number, name: string): ListedEditor => ({
	origin: "state-file",
	key: "pid:7",
	pid: 7,
	alive: true,
	state: editorState({ pid: 7, buffer: { name } }),
	paths: { cwd: "/p", argvDirs: [] },
	selectionFirstSeenSeconds: 0,
	writtenAtSeconds,
});

describe("all sources as one list", () => {
	test("a source's standing is re-checked every few ticks, a source that lost what it watched at once", async () => {
		const steady = source();
		const lost = source({ lost: true });
		const merged = new MergedSources([steady.fake, lost.fake], new ManualClock());
		for (let tick = 0; tick < RECHECK_EVERY_TICKS * 2; tick++) await merged.recheckDue()?.();
		expect(steady.calls).toEqual(["recheck", "recheck"]);
		expect(lost.calls).toHaveLength(RECHECK_EVERY_TICKS * 2);
	});

	test("an idle tick starts nothing: no re-check, no work handed back, until the tick where all are due", async () => {
		const a = source();
		const b = source();
		const merged = new MergedSources([a.fake, b.fake], new ManualClock());
		for (let tick = 1; tick < RECHECK_EVERY_TICKS; tick++) expect(merged.recheckDue()).toBeUndefined();
		expect([...a.calls, ...b.calls]).toEqual([]);
		const due = merged.recheckDue();
		// Counted when the tick comes, run when the controller starts it: nothing runs before.
		expect([...a.calls, ...b.calls]).toEqual([]);
		await due?.();
		expect([...a.calls, ...b.calls]).toEqual(["recheck", "recheck"]);
		expect(merged.recheckDue()).toBeUndefined();
	});

	test("one key from two sources is one editor: the copy written last", () => {
		const older = source({ editors: [listed(5, "older.ts")] });
		const newer = source({ editors: [listed(9, "newer.ts")] });
		const merged = new MergedSources([newer.fake, older.fake], new ManualClock());
		expect(merged.editors().map((editor) => editor.state.active_buffer?.name)).toEqual(["newer.ts"]);
	});

	test("a Neovim's server copy counts, with the selection's time its plugin's file took", () => {
		const selection = { start: { line: 2, column: 1 }, end: { line: 4, column: 5 }, text: "b\nc\nd" };
		const copy = (origin: "neovim" | "state-file", selectedAt: number | null, firstSeen: number): ListedEditor => ({
			...listed(origin === "neovim" ? 5 : 9, "main.ts"),
			origin,
			state: editorState({ pid: 7, buffer: { name: "main.ts", selection: { ...selection, selected_at: selectedAt } } }),
			selectionFirstSeenSeconds: firstSeen,
		});
		const server = copy("neovim", null, 100);
		const plugin = copy("state-file", 90, 91);
		const merged = new MergedSources(
			[
				source({ editors: [server], facts: { origin: "neovim", listed: true, alive: true, reading: server } }).fake,
				source({ editors: [plugin], facts: { origin: "state-file", listed: true, alive: true, reading: plugin } }).fake,
			],
			new ManualClock(),
		);
		for (const counted of [merged.editors()[0], merged.facts("pid:7")?.reading]) {
			expect(counted?.origin).toBe("neovim");
			expect(counted?.state.active_buffer?.selection?.selected_at).toBe(90);
			expect(counted?.selectionFirstSeenSeconds).toBe(91);
		}
	});

	test("the unsaved list asked now comes from the source that can ask; none can: undefined", async () => {
		const clock = new ManualClock();
		const asking = new MergedSources([source().fake, source({ unsavedNow: ["/p/a.ts"] }).fake], clock);
		expect(await asking.unsavedNow("pid:7", 150)).toEqual(["/p/a.ts"]);
		expect(await new MergedSources([source().fake], clock).unsavedNow("pid:7", 150)).toBeUndefined();
	});

	test("a pending read is waited for, never past the deadline (the clock moved by hand)", async () => {
		const clock = new ManualClock();
		let flushed = false;
		const slow = source({ pending: true, flush: () => new Promise<void>(() => {}) });
		const merged = new MergedSources([slow.fake], clock);
		const waiting = merged.waitForPendingRead("pid:7", 250).then(() => {
			flushed = true;
		});
		await Promise.resolve();
		clock.advance(249);
		await Promise.resolve();
		expect(flushed).toBe(false);
		clock.advance(1);
		await waiting;
		expect(flushed).toBe(true);
		expect(clock.pendingTimers).toBe(0);
	});

	test("nothing pending: no timer is set at all", async () => {
		const clock = new ManualClock();
		await new MergedSources([source().fake], clock).waitForPendingRead("pid:7", 250);
		expect(clock.pendingTimers).toBe(0);
	});

	test("/ide's look again reaches every source", async () => {
		const a = source();
		const b = source();
		await new MergedSources([a.fake, b.fake], new ManualClock()).lookAgain();
		expect([...a.calls, ...b.calls]).toEqual(["look again", "look again"]);
	});
});
