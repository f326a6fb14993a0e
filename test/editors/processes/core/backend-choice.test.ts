import { describe, expect, test } from "vitest";
import { type BackendChoice, chooseBackend, sameStart } from "../../../../src/editors/processes/core/backend-choice.ts";

const PLATFORMS = ["linux", "darwin", "freebsd", "win32"] as const;

describe("which backend asks about processes", () => {
	test.each<[string, string, boolean, BackendChoice]>([
		["Linux, /proc readable", "linux", true, { backend: "proc", why: "Linux" }],
		["Linux, /proc not readable", "linux", false, { backend: "ps", why: "/proc cannot be read" }],
		["macOS", "darwin", false, { backend: "ps", why: "no /proc on darwin" }],
		["macOS, whatever a check of /proc said", "darwin", true, { backend: "ps", why: "no /proc on darwin" }],
		["FreeBSD (its /proc is not Linux's)", "freebsd", true, { backend: "ps", why: "no /proc on freebsd" }],
		["Windows", "win32", false, { backend: "ps", why: "no /proc on win32" }],
	])("unset: %s", (_case, platform, procReadable, choice) => {
		expect(chooseBackend(undefined, platform, procReadable)).toEqual(choice);
		expect(chooseBackend("", platform, procReadable)).toEqual(choice);
		expect(chooseBackend("   ", platform, procReadable)).toEqual(choice);
	});

	describe.each(PLATFORMS)("forced on %s", (platform) => {
		test.each([true, false])("/proc readable: %s", (procReadable) => {
			expect(chooseBackend("ps", platform, procReadable)).toEqual({ backend: "ps", why: "PI_IDE_PROCESS_FACTS=ps" });
			expect(chooseBackend("proc", platform, procReadable)).toEqual({
				backend: "proc",
				why: "PI_IDE_PROCESS_FACTS=proc",
			});
		});
	});

	test.each([
		["upper case", "PS", "ps"],
		["mixed case", "Proc", "proc"],
		["spaces around", "  ps\n", "ps"],
	])("the value read loosely: %s", (_case, value, backend) => {
		expect(chooseBackend(value, "linux", true)).toEqual({ backend, why: `PI_IDE_PROCESS_FACTS=${backend}` });
	});

	test.each<[string, string, string, boolean, BackendChoice]>([
		[
			"a word it does not know, on Linux",
			"lsof",
			"linux",
			true,
			{ backend: "proc", why: "Linux", ignored: "PI_IDE_PROCESS_FACTS=lsof is neither proc nor ps: ignored" },
		],
		[
			"on macOS",
			"procfs",
			"darwin",
			false,
			{
				backend: "ps",
				why: "no /proc on darwin",
				ignored: "PI_IDE_PROCESS_FACTS=procfs is neither proc nor ps: ignored",
			},
		],
		[
			"said as it was set (status lines make it safe)",
			" \u001b[31mps+lsof ",
			"linux",
			false,
			{
				backend: "ps",
				why: "/proc cannot be read",
				ignored: "PI_IDE_PROCESS_FACTS= \u001b[31mps+lsof  is neither proc nor ps: ignored",
			},
		],
	])("ignored: %s", (_case, value, platform, procReadable, choice) => {
		expect(chooseBackend(value, platform, procReadable)).toEqual(choice);
	});
});

describe("two starts of one process", () => {
	test.each([
		["equal", 1_759_741_331, 1_759_741_331, true],
		["a second apart (ticks rounded one way, ps's whole seconds the other)", 1_759_741_331, 1_759_741_332, true],
		["a second apart, the other way", 1_759_741_332, 1_759_741_331, true],
		["fractions within a second", 1_759_741_331.6, 1_759_741_332.5, true],
		["two seconds apart: another process", 1_759_741_331, 1_759_741_333, false],
		["a day apart", 1_759_741_331, 1_759_827_731, false],
	])("%s", (_case, a, b, same) => {
		expect(sameStart(a, b)).toBe(same);
	});
});
