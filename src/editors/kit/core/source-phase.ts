/** Where a source stands: looking for the first time, off by a setting, unable to look here, or looking. */
export type SourcePhase = "starting" | "off" | "unsupported" | "watching";

/**
 * Whether a source that finds its editors among the processes may start: not when a setting turned it off, not
 * on Windows (pi asks about processes through `/proc` or `ps` and `lsof`; docs/editors.md says what a third way
 * would need). Undefined: start (watch its dirs first, then scan).
 */
export function phaseBeforeStart(on: boolean, platform: string): "off" | "unsupported" | undefined {
	if (!on) return "off";
	return platform === "win32" ? "unsupported" : undefined;
}
