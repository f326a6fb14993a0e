/** How one editor's command line reads: which options take the next argument as a value, or as a file. */
export interface LaunchFlags {
	/** Options whose next argument is a value, not a file or directory to open. */
	withValue: ReadonlySet<string>;
	/** Options whose next argument is a file the editor opens. */
	withFile?: ReadonlySet<string>;
	/** An argument that opens nothing: an option, a `+cmd` or `+LINE`. */
	isOption: (arg: string) => boolean;
}

/**
 * An editor's launch args without the binary, its options and their values: the files and dirs it was opened
 * on (tier evidence). Everything after `--` is a file; an empty argument names none.
 */
export function openedArgs(argv: readonly string[], flags: LaunchFlags): string[] {
	const opened: string[] = [];
	for (let index = 1; index < argv.length; index++) {
		const arg = argv[index] as string;
		if (arg === "--") {
			opened.push(...argv.slice(index + 1).filter((rest) => rest !== ""));
			break;
		}
		if (flags.withFile?.has(arg)) {
			const file = argv[++index];
			if (file) opened.push(file);
		} else if (flags.withValue.has(arg)) index++;
		else if (arg !== "" && !flags.isOption(arg)) opened.push(arg);
	}
	return opened;
}
