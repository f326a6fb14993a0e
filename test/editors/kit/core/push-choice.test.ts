import { describe, expect, test } from "vitest";
import { type PushCandidate, pushesWanted } from "../../../../src/editors/kit/core/push-choice.ts";

const at = (cwd: string) => ({ cwd, argvDirs: [] });
const candidate = (overrides: Partial<PushCandidate>): PushCandidate => ({
	paths: at("/elsewhere"),
	hasUi: true,
	enclosing: false,
	connected: false,
	...overrides,
});

describe("which editors push (Neovims, Emacsen)", () => {
	test.each([
		[
			"the best tier's push, a worse tier's not",
			[candidate({ paths: at("/p") }), candidate({ paths: at("/p/sub") })],
			false,
			[true, false],
		],
		[
			"two in the best tier both push",
			[candidate({ paths: at("/p") }), candidate({ paths: at("/p") })],
			false,
			[true, true],
		],
		[
			"out of the project: none, unless pi runs in it",
			[candidate({}), candidate({ enclosing: true })],
			false,
			[false, true],
		],
		[
			"the connected one pushes whatever its tier",
			[candidate({ connected: true }), candidate({ paths: at("/p") })],
			false,
			[true, true],
		],
		["no UI: not a tier, so none is best", [candidate({ paths: at("/p"), hasUi: false })], false, [false]],
		[
			"no UI: the one pi runs in and the connected one neither (a daemon's last frame closed)",
			[candidate({ hasUi: false, enclosing: true }), candidate({ hasUi: false, connected: true })],
			false,
			[false, false],
		],
		["undescribed: left as it is", [candidate({ paths: undefined })], false, [undefined]],
		[
			"paused or closing: none, undescribed ones too",
			[candidate({ paths: at("/p") }), candidate({ paths: undefined })],
			true,
			[false, false],
		],
		["nobody in the project: none", [candidate({}), candidate({})], false, [false, false]],
	])("%s", (_name, candidates, stopped, wanted) => {
		expect(pushesWanted(candidates, "/p", stopped)).toEqual(wanted);
	});
});
