import { describe, expect, test } from "vitest";
import {
	exeName,
	isEmacsExecutable,
	isEmacsName,
	launchOf,
	runsInsideEmacs,
} from "../../../../src/editors/emacs/core/emacs-process.ts";

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
		// A Mac's Emacs.app: `Emacs`, or the arch-and-OS binary beside the launcher of Emacs for Mac OS X, whose
		// kernel name macOS cuts at 16 bytes (`Emacs-x86_64-10_14` reads `Emacs-x86_64-10_`).
		["Emacs", true],
		["Emacs-arm64-11", true],
		["Emacs-arm64-12", true],
		["Emacs-x86_64-10_14", true],
		["Emacs-x86_64-10_", true],
		["EMACS", false],
		["Emacsclient", false],
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

describe("whether the binary a process runs is an Emacs", () => {
	test.each([
		["/usr/bin/emacs-nox", true],
		["/usr/bin/emacs-gtk (deleted)", true],
		["/nix/store/abc-emacs-29.1/bin/.emacs-29.1-wrapped", true],
		["/usr/bin/emacsclient", false],
		// A Mac: emacs-plus, emacs-mac, a source build (`nextstep/Emacs.app`) run `Emacs.app/Contents/MacOS/Emacs`.
		["/Applications/Emacs.app/Contents/MacOS/Emacs", true],
		["/opt/homebrew/Cellar/emacs-plus@30/30.1/Emacs.app/Contents/MacOS/Emacs", true],
		["/Users/andy/src/emacs/nextstep/Emacs.app/Contents/MacOS/Emacs", true],
		// Emacs for Mac OS X: its launcher `Emacs` starts the binary of the Mac's arch and OS beside it.
		["/Applications/Emacs.app/Contents/MacOS/Emacs-arm64-11", true],
		["/Applications/Emacs.app/Contents/MacOS/Emacs-x86_64-10_14", true],
		// A build that named its binary otherwise, right in the bundle: the bundle says it is Emacs.
		["/Applications/Emacs.app/Contents/MacOS/emacs-30.1-native", true],
		["/Applications/Emacs.app/Contents/MacOS/Emacs-custom", true],
		// Its clients are not: below the dir, or named so.
		["/Applications/Emacs.app/Contents/MacOS/bin/emacsclient", false],
		["/Applications/Emacs.app/Contents/MacOS/bin-arm64-11/emacsclient", false],
		["/Applications/Emacs.app/Contents/MacOS/libexec/movemail", false],
		["/Applications/Emacs.app/Contents/MacOS/EmacsClient", false],
		// Another app's binary is not Emacs, however it is named elsewhere.
		["/Applications/Aquamacs.app/Contents/MacOS/Aquamacs", false],
		["/Applications/NotEmacs.app/Contents/MacOS/Tool", false],
		["/usr/bin/ruby", false],
	])("%s: %s", (path, expected) => expect(isEmacsExecutable(path)).toBe(expected));
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
