import { describe, expect, test } from "vitest";
import { autoConnectTarget, bestTier } from "../../src/core/connection-rules.ts";
import type { Tier } from "../../src/core/path-match.ts";

const editor = (pid: number, tier: Tier | undefined) => ({ pid, tier: { tier } });

describe("bestTier and autoConnectTarget", () => {
	test.each([
		["nobody", [], undefined, [], undefined],
		["one exact match", [editor(1, 0)], 0, [1], 1],
		["exact match beats weaker matches", [editor(1, 1), editor(2, 0), editor(3, 1)], 0, [2], 2],
		["two exact matches tie: wait for /ide", [editor(1, 0), editor(2, 0), editor(3, 1)], 0, [1, 2], undefined],
		["one tier-1 match", [editor(1, 1), editor(2, undefined)], 1, [1], 1],
		["two tier-1 matches tie", [editor(1, 1), editor(2, 1)], 1, [1, 2], undefined],
		["only unrelated editors", [editor(1, undefined), editor(2, undefined)], undefined, [], undefined],
	])("%s", (_name, editors, tier, pids, target) => {
		const best = bestTier(editors);
		expect(best.tier).toBe(tier);
		expect(best.editors.map((e) => e.pid)).toEqual(pids);
		expect(autoConnectTarget(editors)?.pid).toBe(target);
	});
});
