/** Modes whose name is not the fence name of their language. */
const LANGUAGE_OF_MODE: Readonly<Record<string, string | null>> = {
	"emacs-lisp": "elisp",
	"lisp-interaction": "elisp",
	"lisp-data": "elisp",
	js: "javascript",
	js2: "javascript",
	js3: "javascript",
	"js-jsx": "javascript",
	rjsx: "javascript",
	javascript: "javascript",
	typescript: "typescript",
	tsx: "typescript",
	"typescript-tsx": "typescript",
	"c++": "cpp",
	sh: "bash",
	bash: "bash",
	"shell-script": "bash",
	cperl: "perl",
	"js-json": "json",
	"conf-toml": "toml",
	mhtml: "html",
	web: "html",
	gfm: "markdown",
	latex: "latex",
	"plain-tex": "tex",
	"makefile-gmake": "makefile",
	"makefile-bsdmake": "makefile",
	"makefile-automake": "makefile",
	tuareg: "ocaml",
	"ess-r": "r",
	"csharp-tree-sitter": "csharp",
	"python-base": "python",
	fundamental: null,
	text: null,
	special: null,
	prog: null,
	dired: null,
	help: null,
	"messages-buffer": null,
	minibuffer: null,
};

/**
 * The fence name of a major mode's language: `python-ts-mode` and `python-mode` are `python`; the few modes
 * named otherwise are mapped; modes of no language (`fundamental-mode`, `text-mode`, `dired-mode`) are null.
 */
export function languageOfMode(mode: string): string | null {
	const name = mode.toLowerCase().replace(/-ts-mode$|-mode$/, "");
	if (name === "") return null;
	return Object.hasOwn(LANGUAGE_OF_MODE, name) ? (LANGUAGE_OF_MODE[name] as string | null) : name;
}
