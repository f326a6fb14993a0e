import { describe, expect, test } from "vitest";
import { exeName, isEmacsName, launchOf, runsInsideEmacs } from "../../../../src/editors/emacs/core/emacs-process.ts";

describe("the names Emacs runs under", () => {
	test.each([
		["emacs", true],
		["emacs-nox", true],
		["emacs-gtk", true],
		["emacs-lucid", true],
		["emacs-29.1", true],
		["emacs-lucid-29.", true],
		["emacsclient", false],
		["emacs-client\n", false],
		["xemacs", false],
		["Emacs", false],
		["emacs ", false],
		["", false],
		// Nix's makeWrapper and Guix's wrap-program rename the real binary `.<name>-wrapped`, `.<name>-real`.
		[".emacs-29.1-wrapped", true],
		[".emacs-wrapped", true],
		[".emacs-29.1-real", true],
		[".emacs-29.1-wra", true],
		[".emacs-29.1-rea", true],
		[".emacs-gtk-29.1", true],
		[".emacs-29.1", false],
		[".emacs", false],
		[".emacs-29.1-wrapped.sh", false],
		["..emacs-wrapped", false],
		[".emacsclient-wrapped", false],
		[".emacsclient-wr", false],
		[".emacsclient-real", false],
		[".vim-wrapped", false],
		[".emacs-29.1-w", false],
	])("%j: %s", (name, expected) => expect(isEmacsName(name)).toBe(expected));
});

describe("the binary's name from /proc/<pid>/exe", () => {
	test.each([
		["/usr/bin/emacs-nox", "emacs-nox"],
		["/usr/bin/emacs-nox (deleted)", "emacs-nox"],
		["/nix/store/abc-emacs-30.1/bin/emacs-30.1", "emacs-30.1"],
		["/nix/store/abc-emacs-29.1/bin/.emacs-29.1-wrapped", ".emacs-29.1-wrapped"],
		["/usr/bin/emacsclient", "emacsclient"],
		["emacs", "emacs"],
	])("%s → %s", (link, name) => expect(exeName(link)).toBe(name));
});

describe("how an Emacs was started", () => {
	test.each([
		["a plain Emacs", ["emacs"], { batch: false, daemon: false }],
		["in a terminal", ["emacs", "-nw", "-Q", "src/main.ts"], { batch: false, daemon: false }],
		[
			"a native-compile worker",
			["/usr/bin/emacs", "-no-comp-spawn", "--batch", "-l", "/tmp/emacs-async-comp-x.el"],
			{ batch: true, daemon: false },
		],
		["-batch", ["emacs", "-batch", "-f", "ert"], { batch: true, daemon: false }],
		["--script", ["emacs", "--script", "x.el"], { batch: true, daemon: false }],
		["a #! script (-x)", ["emacs", "-x", "x.el"], { batch: true, daemon: false }],
		["--daemon", ["emacs", "--daemon"], { batch: false, daemon: true }],
		["--daemon=NAME", ["emacs", "--daemon=work"], { batch: false, daemon: true }],
		["--fg-daemon", ["emacs", "--fg-daemon"], { batch: false, daemon: true }],
		["--bg-daemon=NAME", ["emacs", "--bg-daemon=x"], { batch: false, daemon: true }],
		["a file named --batch after --", ["emacs", "--", "--batch"], { batch: false, daemon: false }],
		["argv[0] is the program, not an option", ["--batch"], { batch: false, daemon: false }],
		["no arguments at all", [], { batch: false, daemon: false }],
		["a file that only looks like an option", ["emacs", "--batchfile.txt"], { batch: false, daemon: false }],
	])("%s", (_name, argv, launch) => expect(launchOf(argv)).toEqual(launch));
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
