/** Where a source stands: looking for the first time, off by a setting, unable to look here, or looking. */
export type SourcePhase = "starting" | "off" | "no-proc" | "watching";

/**
 * Whether a source that finds its editors among the processes may start: not when a setting turned it off, not
 * where there is no `/proc` to look in. Undefined: start (watch its dirs first, then scan).
 */
export function phaseBeforeStart(on: boolean, platform: string): "off" | "no-proc" | undefined {
	if (!on) return "off";
	return platform === "linux" ? undefined : "no-proc";
}
