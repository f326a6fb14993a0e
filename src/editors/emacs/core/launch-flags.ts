import { type LaunchFlags, openedArgs } from "../../kit/core/launch-args.ts";

/** Emacs's options whose next argument is a value, not a file to visit (`--eval=EXPR` carries its own). */
const WITH_VALUE = new Set([
	"-l",
	"--load",
	"-f",
	"--funcall",
	"--eval",
	"--execute",
	"-L",
	"--directory",
	"--insert",
	"-t",
	"--terminal",
	"-d",
	"--display",
	"-u",
	"--user",
	"--name",
	"-T",
	"--title",
	"-fn",
	"--font",
	"-bg",
	"--background-color",
	"-fg",
	"--foreground-color",
	"-bd",
	"--border-color",
	"-bw",
	"--border-width",
	"-cr",
	"--cursor-color",
	"-ms",
	"--mouse-color",
	"-ib",
	"--internal-border",
	"-lsp",
	"--line-spacing",
	"-xrm",
	"--xrm",
	"--parent-id",
	"-g",
	"-geometry",
	"--geometry",
	"--chdir",
	"--dump-file",
	"--init-directory",
	"--smid",
]);
/** Options whose next argument is a file Emacs visits. */
const WITH_FILE = new Set(["--file", "--find-file", "--visit"]);

/** Emacs's command line: options, their values, and `+LINE[:COL]` open nothing. */
const EMACS_LAUNCH_FLAGS: LaunchFlags = {
	withValue: WITH_VALUE,
	withFile: WITH_FILE,
	isOption: (arg) => arg.startsWith("-") || /^\+\d+(?::\d+)?$/.test(arg),
};

/** What Emacs was opened on (tier evidence): its launch args without the binary, the options and `+LINE[:COL]`. */
export const emacsOpenedArgs = (argv: readonly string[]): string[] => openedArgs(argv, EMACS_LAUNCH_FLAGS);
