import { describe, expect, test } from "vitest";
import { runsInsideEmacs, serverSocketDirs } from "../../../../src/editors/emacs/core/socket-dirs.ts";

describe("the dirs an Emacs's server socket appears in", () => {
	test.each<[string, { XDG_RUNTIME_DIR?: string; TMPDIR?: string }, string[]]>([
		[
			"XDG_RUNTIME_DIR and the /tmp fallback",
			{ XDG_RUNTIME_DIR: "/run/user/1000" },
			["/run/user/1000/emacs", "/tmp/emacs1000"],
		],
		["TMPDIR instead of /tmp", { TMPDIR: "/var/tmp/" }, ["/var/tmp/emacs1000"]],
		["both", { XDG_RUNTIME_DIR: "/run/user/1000/", TMPDIR: "/t" }, ["/run/user/1000/emacs", "/t/emacs1000"]],
		["a relative value is no dir", { XDG_RUNTIME_DIR: "run", TMPDIR: "tmp" }, ["/tmp/emacs1000"]],
		["nothing set", {}, ["/tmp/emacs1000"]],
		["TMPDIR of / alone", { TMPDIR: "/" }, ["/emacs1000"]],
	])("%s", (_name, env, dirs) => expect(serverSocketDirs(env, 1000)).toEqual(dirs));
});

describe("pi in an Emacs's terminal or shell", () => {
	test.each([
		["comint (M-x shell)", "28.2,comint", true],
		["vterm", "vterm", true],
		["eat", "0.9.4,eat", true],
		["empty", "", false],
		["unset", undefined, false],
	])("%s", (_name, value, inside) => expect(runsInsideEmacs({ INSIDE_EMACS: value })).toBe(inside));
});
