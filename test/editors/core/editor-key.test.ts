import { describe, expect, test } from "vitest";
import { pidKey, pidOfKey } from "../../../src/editors/core/editor-key.ts";
import { classifyFileName, stateFileName } from "../../../src/editors/state-dir/core/parse.ts";

describe("an editor's pid key and back", () => {
	test.each([1, 42, 4_194_304, 2_147_483_647])("pid %i: its key names it, and so does its state file", (pid) => {
		expect(pidOfKey(pidKey(pid))).toBe(pid);
		expect(classifyFileName(stateFileName(pid))).toEqual({ kind: "state", pid });
	});
	test.each(["pid:0", "pid:-1", "pid:1.5", "pid:01", "zed:/db#1", "pid:", "1", "pid:99999999999", " pid:1", "pid:1\n"])(
		"%j names no pid",
		(key) => {
			expect(pidOfKey(key)).toBeUndefined();
		},
	);
});
