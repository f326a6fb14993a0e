import { describe, expect, test } from "vitest";
import { probeResultOf } from "../../../../src/editors/emacs/core/probe.ts";

const ANSWER = { pid: 42, version: "28.2", daemon: false, frames: 1, args: { a: 1 } };

describe("the probe's answer", () => {
	test("as the elisp gives it", () => expect(probeResultOf(ANSWER, 42)).toEqual({ ok: true, probe: ANSWER }));
	test("a daemon with no frame a user sees", () =>
		expect(probeResultOf({ ...ANSWER, daemon: true, frames: 0 }, 42)).toMatchObject({ ok: true }));

	test.each<[string, unknown, string]>([
		["another pid", ANSWER, "answered as pid 42, not 43"],
		["an error the elisp caught", { error: "Invalid base64 data" }, "the probe failed in Emacs: Invalid base64 data"],
		["no pid", { ...ANSWER, pid: undefined }, "the probe's answer has another shape"],
		["a pid of 0", { ...ANSWER, pid: 0 }, "the probe's answer has another shape"],
		["frames not a number", { ...ANSWER, frames: "1" }, "the probe's answer has another shape"],
		["daemon as json.el's nil", { ...ANSWER, daemon: null }, "the probe's answer has another shape"],
		["a huge version", { ...ANSWER, version: "x".repeat(101) }, "the probe's answer has another shape"],
		["not an object", "ok", "the probe's answer has another shape"],
	])("refused: %s", (_name, value, reason) => {
		const expectedPid = _name === "another pid" ? 43 : 42;
		expect(probeResultOf(value, expectedPid)).toEqual({ ok: false, reason });
	});
});
