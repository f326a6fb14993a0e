import { describe, expect, test } from "vitest";
import type { Snapshot } from "../../../src/editors/neovim/core/snapshot.ts";
import { NeovimReadings } from "../../../src/editors/neovim/readings.ts";
import { ManualClock } from "../../support/clocks.ts";

/** A snapshot as pi's Lua returns it (paths that exist nowhere: real paths fall back). */
const snapshot = (over: Partial<Snapshot> = {}): Snapshot => ({
	cwd: "/nonexistent/pi-ide-neovim-readings",
	argv: ["nvim", "main.ts"],
	ui: true,
	mode: "n",
	unsaved: ["/nonexistent/pi-ide-neovim-readings/other.ts"],
	buffer: {
		file: "/nonexistent/pi-ide-neovim-readings/main.ts",
		language: "typescript",
		cursor: { line: 3, column: 2 },
		modified: false,
		lines_total: 6,
		autoread: true,
		diagnostics: [],
	},
	...over,
});

const selection = {
	start: { line: 2, column: 1 },
	end: { line: 4, column: 5 },
	text: "a\nb\nc",
	visual: true,
	linewise: true,
};

describe("a Neovim snapshot into a reading", () => {
	test("the reading: its pid, when it was written, the unsaved files, the paths the tiers read", async () => {
		const clock = new ManualClock(1_000);
		const taken = await new NeovimReadings(clock).take(snapshot(), 42);
		expect(taken).toMatchObject({
			ok: true,
			cuts: [],
			reading: {
				origin: "neovim",
				pid: 42,
				writtenAtSeconds: 1_000,
				unsavedFiles: ["/nonexistent/pi-ide-neovim-readings/other.ts"],
				paths: { cwd: "/nonexistent/pi-ide-neovim-readings" },
			},
		});
	});

	test("a snapshot that breaks the schema: why, and no reading", async () => {
		const taken = await new NeovimReadings(new ManualClock()).take({ ...snapshot(), cwd: "relative" }, 42);
		expect(taken).toMatchObject({ ok: false, reason: expect.stringMatching(/^unexpected state from Neovim at \/cwd/) });
	});

	test("a selection is timed while visual mode is on; once left, its marks keep that moment", async () => {
		const clock = new ManualClock(1_000);
		const readings = new NeovimReadings(clock);
		const making = await readings.take(snapshot({ mode: "V", selection }), 42);
		clock.advance(30_000);
		const later = await readings.take(snapshot({ mode: "n", selection }), 42);
		expect(making?.ok && making.reading.selectionFirstSeenSeconds).toBe(1_000);
		expect(later?.ok && later.reading.selectionFirstSeenSeconds).toBe(1_000);
		expect(later?.ok && later.reading.wholeLineSelection).toBe(true);
	});

	test("an older snapshot whose paths resolve after a newer one came in is dropped", async () => {
		const readings = new NeovimReadings(new ManualClock());
		const older = readings.take(snapshot(), 42);
		const newer = readings.take(snapshot({ mode: "i" }), 42);
		expect(await older).toBeUndefined();
		expect((await newer)?.ok).toBe(true);
	});
});
