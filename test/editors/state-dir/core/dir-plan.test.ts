import { describe, expect, test } from "vitest";
import { type DirEnv, stateDirPlan } from "../../../../src/editors/state-dir/core/dir-plan.ts";

describe("stateDirPlan: every place an editor of this user may write", () => {
	test.each<[string, DirEnv, boolean, string[]]>([
		["no XDG_RUNTIME_DIR: /tmp/pi-ide is the protocol's dir", {}, false, ["protocol /tmp/pi-ide"]],
		[
			"no XDG_RUNTIME_DIR, a /run/user/<uid> exists: read it too",
			{},
			true,
			["protocol /tmp/pi-ide", "side /run/user/1000/pi-ide"],
		],
		[
			"XDG_RUNTIME_DIR is /run/user/<uid>: /tmp/pi-ide is a side dir",
			{ XDG_RUNTIME_DIR: "/run/user/1000" },
			true,
			["protocol /run/user/1000/pi-ide", "side /tmp/pi-ide"],
		],
		[
			"a trailing slash is the same dir",
			{ XDG_RUNTIME_DIR: "/run/user/1000/" },
			true,
			["protocol /run/user/1000/pi-ide", "side /tmp/pi-ide"],
		],
		[
			"XDG_RUNTIME_DIR elsewhere (a tmux server from another login)",
			{ XDG_RUNTIME_DIR: "/run/user/0" },
			true,
			["protocol /run/user/0/pi-ide", "side /run/user/1000/pi-ide", "side /tmp/pi-ide"],
		],
		["an empty XDG_RUNTIME_DIR counts as unset", { XDG_RUNTIME_DIR: "" }, false, ["protocol /tmp/pi-ide"]],
		// A Mac: no XDG_RUNTIME_DIR, no /run/user. `/tmp/pi-ide` as clients write it, never `/private/tmp/pi-ide`
		// (the symlink is the kernel's to follow) and never under `$TMPDIR`.
		["a Mac: /tmp/pi-ide as written", {}, false, ["protocol /tmp/pi-ide"]],
		[
			"PI_IDE_STATE_DIR is the only dir",
			{ XDG_RUNTIME_DIR: "/run/user/1000", PI_IDE_STATE_DIR: "/custom" },
			true,
			["override /custom"],
		],
	])("%s", (_name, env, runUserExists, expected) => {
		expect(stateDirPlan(env, 1000, runUserExists).map((dir) => `${dir.role} ${dir.path}`)).toEqual(expected);
	});

	test("roots stand in for /tmp and /run/user (the tests' own temp dirs)", () => {
		expect(stateDirPlan({}, 7, true, { tmp: "/t/tmp", runUser: "/t/run/user" })).toEqual([
			{ path: "/t/tmp/pi-ide", role: "protocol" },
			{ path: "/t/run/user/7/pi-ide", role: "side" },
		]);
	});
});
