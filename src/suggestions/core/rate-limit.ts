/**
 * At most N requests a minute per editor: an editor asking on every keystroke must not run up a bill. A sliding
 * window over the times of the requests admitted in it (a refused one does not count, so a burst is not
 * punished beyond its minute); the caller keeps the returned list for the next request.
 */

export const SUGGESTIONS_PER_MINUTE_DEFAULT = 30;

export const RATE_WINDOW_MS = 60_000;

/**
 * Whether a request arriving at `nowMs` is admitted, and the admitted times still in the window (now among
 * them when admitted). A time after `nowMs` (a clock that stepped back) is dropped, so no window lasts longer
 * than a minute. `perMinute` of 0 or less admits nothing.
 */
export function admitRequest(
	recentMs: readonly number[],
	nowMs: number,
	perMinute: number,
): { admitted: boolean; recentMs: number[] } {
	const inWindow = recentMs.filter((atMs) => atMs <= nowMs && nowMs - atMs < RATE_WINDOW_MS);
	const admitted = inWindow.length < Math.floor(perMinute);
	return { admitted, recentMs: admitted ? [...inWindow, nowMs] : inWindow };
}
