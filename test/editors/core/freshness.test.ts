import { expect, test } from "vitest";
import { selectionFreshness } from "../../../src/editors/core/freshness.ts";
import { SELECTION_FRESH_SECONDS } from "../../../src/shared/core/timing.ts";

const NOW = 1_800_000_000;
const made = (selectedAt: number | null | undefined) => ({ selected_at: selectedAt });

test.each([
	["no selection", null, NOW, { kind: "none" }],
	["selected_at missing", made(undefined), NOW, { kind: "unknown" }],
	["selected_at null", made(null), NOW, { kind: "unknown" }],
	["just made", made(NOW), NOW, { kind: "fresh", ageSeconds: 0, staleAtSeconds: NOW + 60 }],
	["exactly 60 s old", made(NOW - 60), NOW, { kind: "fresh", ageSeconds: 60, staleAtSeconds: NOW }],
	["61 s old", made(NOW - 61), NOW, { kind: "stale", ageSeconds: 61 }],
	["60.5 s old", made(NOW - 60.5), NOW, { kind: "stale", ageSeconds: 60.5 }],
	["10 minutes old", made(NOW - 600), NOW, { kind: "stale", ageSeconds: 600 }],
	// First seen now with a clock an hour ahead: fresh for the window from first sight, not for an hour.
	["future, first seen now", made(NOW + 3600), NOW, { kind: "fresh", ageSeconds: 0, staleAtSeconds: NOW + 60 }],
])("%s", (_name, selection, firstSeen, expected) => {
	expect(selectionFreshness(selection, firstSeen, NOW)).toEqual(expected);
});

test("a future selected_at goes stale 60 s after it was first seen", () => {
	const selection = made(NOW + 3600);
	expect(selectionFreshness(selection, NOW, NOW + SELECTION_FRESH_SECONDS).kind).toBe("fresh");
	expect(selectionFreshness(selection, NOW, NOW + SELECTION_FRESH_SECONDS + 1).kind).toBe("stale");
});

test("first sight does not make an old selection fresh", () => {
	expect(selectionFreshness(made(NOW - 300), NOW, NOW).kind).toBe("stale");
});
