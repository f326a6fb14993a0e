import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { PROCESS_TOOL_TIMEOUT_MS, runTool } from "../../../src/editors/processes/process-tools.ts";
import { fakeToolDirs } from "./fake-tools.ts";

/**
 * The deadline on the system clock (`process-tools.test.ts` moves a manual one): a `ps` that hangs is given up
 * after 3 s of real time, here, on the clock pi runs on. A file of the end-to-end layer: each case waits 3 s.
 */
describe("a ps or lsof that does not answer, on the real clock", () => {
	let fakes: ReturnType<typeof fakeToolDirs>;
	beforeAll(() => {
		fakes = fakeToolDirs();
	});
	afterEach(() => fakes.restore());
	afterAll(() => fakes.cleanup());

	test.each([
		["a ps that sleeps past the deadline", "ps", "sleep 30"],
		[
			"one that ignores SIGTERM and prints part of an answer first (a ps stuck in the kernel)",
			"ps",
			"trap '' TERM\necho ' 1 0 0 S'\nexec sleep 30",
		],
		[
			"an lsof that would exit 1 once killed (its partial output would read as an answer)",
			"lsof",
			"trap 'exit 1' TERM\nprintf 'p1\\nf3\\nn/tmp/x\\n'\nsleep 30 & wait",
		],
	] as const)("%s: given up at the deadline", async (_case, tool, script) => {
		fakes.use({ [tool]: script });
		const started = performance.now();
		expect(await runTool(tool, [])).toEqual({ ok: false, reason: `${tool} gave no answer within 3000 ms` });
		const tookMs = performance.now() - started;
		expect(tookMs).toBeGreaterThanOrEqual(PROCESS_TOOL_TIMEOUT_MS - 50);
		expect(tookMs).toBeLessThan(PROCESS_TOOL_TIMEOUT_MS + 1500);
	});
});
