import { describe, expect, test } from "vitest";
import type { EmacsSnapshot } from "../../../src/editors/emacs/core/snapshot.ts";
import { EmacsReadings } from "../../../src/editors/emacs/readings.ts";
import { ManualClock } from "../../support/clocks.ts";

/** A snapshot as the elisp sends it, a region of lines 2-3 from column 1 (paths that exist nowhere: real paths fall back). */
const region = {
	start: { line: 2, column: 1 },
	end: { line: 3, column: 11 },
	text: "second\nthird line",
	active: true,
	selected_at: null,
};
const snapshot = (extra: Partial<EmacsSnapshot["region"] & object>): EmacsSnapshot => ({
	file: "/nonexistent/pi-ide-readings/main.txt",
	name: "main.txt",
	mode: "text-mode",
	cursor: { line: 3, column: 11 },
	modified: false,
	lines_total: 4,
	region: { ...region, ...extra },
	diagnostics: [],
	unsaved: [],
	project_root: null,
	minibuffer: false,
	frames: 1,
});

describe("whether an Emacs selection is whole lines: as the elisp saw the region", () => {
	test.each([
		["whole lines (it ended at a line's start or end)", { whole_lines: true }, true],
		["whole lines, but its text cut in Emacs: read from disk instead", { whole_lines: true, text_cut: true }, false],
		["a fragment (it started or ended inside a line)", { whole_lines: false }, false],
		["not said", {}, false],
		// The text ending in a newline says nothing: the elisp drops the final newline of a region ending at column 1.
		["not said, its text ending in a newline", { text: "second\nthird line\n" }, false],
	])("%s", async (_what, extra, whole) => {
		const readings = new EmacsReadings(new ManualClock());
		const taken = await readings.take(snapshot(extra), { pid: 42, cwd: "/", argv: ["emacs"] });
		expect(taken?.ok && taken.reading.wholeLineSelection).toBe(whole);
	});

	test("no region: no word on it", async () => {
		const readings = new EmacsReadings(new ManualClock());
		const taken = await readings.take({ ...snapshot({}), region: null }, { pid: 42, cwd: "/", argv: ["emacs"] });
		expect(taken?.ok && "wholeLineSelection" in taken.reading).toBe(false);
	});
});
