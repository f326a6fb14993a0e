/**
 * How long a test waits for a pi it just started to show its first state. pi starts in 1-2 s on an idle
 * machine; beside the heavy suites on two cores pi by itself (no extension) took up to 13 s.
 */
export const PI_START_TIMEOUT_MS = 40_000;

/** Poll a condition until it holds or the deadline passes; the failure names what was awaited. */
export async function waitFor<T>(
	what: string,
	probe: () => T | undefined | false | Promise<T | undefined | false>,
	timeoutMs = 5000,
	intervalMs = 10,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined && value !== false) return value;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
		}
		await new Promise((done) => setTimeout(done, intervalMs));
	}
}
