import { describe, expect, test } from "vitest";
import { languageOfMode } from "../../../../src/editors/emacs/core/mode-language.ts";

describe("a major mode's language", () => {
	test.each([
		["python-mode", "python"],
		["python-ts-mode", "python"],
		["emacs-lisp-mode", "elisp"],
		["lisp-interaction-mode", "elisp"],
		["js-mode", "javascript"],
		["js2-mode", "javascript"],
		["js-jsx-mode", "javascript"],
		["typescript-mode", "typescript"],
		["typescript-ts-mode", "typescript"],
		["tsx-ts-mode", "typescript"],
		["c++-mode", "cpp"],
		["c++-ts-mode", "cpp"],
		["c-mode", "c"],
		["sh-mode", "bash"],
		["bash-ts-mode", "bash"],
		["rust-mode", "rust"],
		["rust-ts-mode", "rust"],
		["go-mode", "go"],
		["LaTeX-mode", "latex"],
		["gfm-mode", "markdown"],
		["markdown-mode", "markdown"],
		["fundamental-mode", null],
		["text-mode", null],
		["dired-mode", null],
		["", null],
		["constructor-mode", "constructor"],
		["toString", "tostring"],
	])("%s → %s", (mode, language) => expect(languageOfMode(mode)).toBe(language));
});
