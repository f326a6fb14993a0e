import { describe, expect, test } from "vitest";
import { emacsOpenedArgs } from "../../../../src/editors/emacs/core/launch-flags.ts";

describe("the files Emacs was launched on", () => {
	test.each([
		[["emacs"], []],
		[
			["emacs", "-nw", "a.txt", "src/"],
			["a.txt", "src/"],
		],
		[
			["emacs", "-Q", "--eval", "(server-start)", "+12", "b.c", "+3:4", "c.c"],
			["b.c", "c.c"],
		],
		[["emacs", "-l", "init.el", "-f", "server-start", "--load=x.el", "d.el"], ["d.el"]],
		[["emacs", "--daemon=work"], []],
		[
			["emacs", "--file", "-odd-name", "--visit", "v.txt"],
			["-odd-name", "v.txt"],
		],
		[
			["emacs", "--chdir", "/tmp", "--", "-x", "y"],
			["-x", "y"],
		],
		[["/usr/bin/emacs-nox", "-nw", "-fn", "mono", "e.txt"], ["e.txt"]],
		[["emacs", "-g", "80x24", "-geometry", "100x40", "--geometry", "90x30", "f.txt"], ["f.txt"]],
	])("%j → %j", (argv, opened) => expect(emacsOpenedArgs(argv)).toEqual(opened));
});
