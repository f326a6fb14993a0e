import { type LaunchFlags, openedArgs } from "../../kit/core/launch-args.ts";

/** Neovim's command line: flags whose next argument is a value; `-x` and `+cmd` open nothing. */
const NEOVIM_LAUNCH_FLAGS: LaunchFlags = {
	withValue: new Set(["-c", "--cmd", "-u", "-i", "-s", "-w", "-W", "-S", "--listen", "--startuptime", "-l"]),
	isOption: (arg) => arg.startsWith("-") || arg.startsWith("+"),
};

/** What Neovim was opened on (tier evidence): its launch args without the binary, the flags and their values. */
export const neovimOpenedArgs = (argv: readonly string[]): string[] => openedArgs(argv, NEOVIM_LAUNCH_FLAGS);
