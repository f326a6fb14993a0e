import { SELECTION_FRESH_SECONDS } from "../../shared/core/timing.ts";

export type Freshness =
	| { kind: "none" }
	| { kind: "unknown" }
	| { kind: "fresh"; ageSeconds: number; staleAtSeconds: number }
	| { kind: "stale"; ageSeconds: number };

/**
 * `firstSeenSeconds` is when pi first saw this `selected_at`: a clock in the future then counts as "made
 * when first seen", so a skewed or hostile timestamp is fresh for at most the window, never forever.
 */
export function selectionFreshness(
	selection: { selected_at?: number | null } | null | undefined,
	firstSeenSeconds: number,
	nowSeconds: number,
): Freshness {
	if (!selection) return { kind: "none" };
	const selectedAt = selection.selected_at;
	if (typeof selectedAt !== "number" || !Number.isFinite(selectedAt)) return { kind: "unknown" };
	const madeAt = Math.min(selectedAt, firstSeenSeconds);
	const ageSeconds = Math.max(0, nowSeconds - madeAt);
	if (nowSeconds - madeAt <= SELECTION_FRESH_SECONDS) {
		return { kind: "fresh", ageSeconds, staleAtSeconds: madeAt + SELECTION_FRESH_SECONDS };
	}
	return { kind: "stale", ageSeconds };
}
