import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { SourceHooks } from "../../../src/editors/editor-source.ts";
import { ZedSource } from "../../../src/editors/zed/source.ts";
import { backgroundFailures, forgetBackgroundFailures } from "../../../src/shared/background.ts";
import { LIVENESS_CHECK_MS } from "../../../src/shared/core/timing.ts";
import { ManualClock } from "../../support/clocks.ts";
import { testProcessFacts } from "../../support/process-facts.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

/**
 * A source's scan that throws after the source started: recorded for `/ide status`, never an unhandled
 * rejection (vitest fails a run that has one, as it would end pi), and the source looks again later. The Zed
 * source's `/proc` look is the one a test can make throw: its process list is an option.
 */
describe("a background scan that throws", () => {
	const cleanups: (() => void)[] = [];
	afterEach(() => {
		for (const cleanup of cleanups.splice(0)) cleanup();
		forgetBackgroundFailures();
	});

	test("Zed's look at /proc throws after start: recorded, not fatal, looked again on /ide", async () => {
		const home = tempDir("zed-home");
		cleanups.push(home.cleanup);
		const clock = new ManualClock();
		let looks = 0;
		const hooks: SourceHooks = { clock, changed: () => {}, event: () => {}, notify: () => {}, settled: () => {} };
		const zed = new ZedSource(
			{
				enabled: { on: true, source: "default" },
				env: { XDG_DATA_HOME: join(home.path, "data") },
				home: home.path,
				platform: "linux",
				uid: 0,
				facts: testProcessFacts(),
				processes: async () => {
					looks++;
					if (looks === 1) throw new Error("/proc went away");
					return [];
				},
			},
			hooks,
		);
		await zed.start();
		expect(looks).toBe(0);
		// With no database in the usual places, the first look waits for pi's own start.
		clock.advance(LIVENESS_CHECK_MS);
		await waitFor("the failure recorded", () => backgroundFailures().length > 0);
		expect(backgroundFailures().map(({ task, lastReason }) => [task, lastReason])).toEqual([
			["zed scan", "Error: /proc went away"],
		]);
		await zed.lookAgain();
		expect(looks).toBe(2);
		// The second look went through: the source says what it looked at, as it would without the failure.
		expect(zed.report().phase).toMatchObject({
			kind: "no-database",
			looked: expect.arrayContaining([join(home.path, "data", "zed")]),
		});
		await zed.close();
	});
});
