import { PID_REUSE_TOLERANCE_SECONDS } from "../../../shared/core/timing.ts";
import type { ProcStat } from "./proc-stat.ts";

/**
 * A reused pid is a dead editor. A client killed with -9 leaves its file; another process may later get its
 * pid, and `kill(pid, 0)` then says "alive" forever. A process that started after the file was last written
 * cannot have written it. Linux tells when a process started: field 22 of `/proc/<pid>/stat`, clock ticks
 * since boot, and the boot time `btime` in `/proc/stat`.
 */

/** USER_HZ: what `/proc` counts in on every Linux architecture pi runs on. */
export const PROC_TICKS_PER_SECOND = 100;

/**
 * True only when the start time is known and later than the file's last write by more than the tolerance. An
 * idle editor (file written after its process started, then untouched for hours) is never taken for one.
 */
export function pidReused(processStartSeconds: number | undefined, fileWrittenSeconds: number): boolean {
	return processStartSeconds !== undefined && processStartSeconds > fileWrittenSeconds + PID_REUSE_TOLERANCE_SECONDS;
}

/** `btime` of `/proc/stat`: the boot time in unix seconds. */
export function bootTimeFromProcStat(text: string): number | undefined {
	const match = /^btime (\d+)$/m.exec(text);
	return match ? Number(match[1]) : undefined;
}

/**
 * When a process started, in whole unix seconds, from its `/proc/<pid>/stat` and the boot time: whole as `ps`'s
 * `lstart` prints it (procps divides the same way), so both backends name one process alike.
 */
export function processStart(stat: Pick<ProcStat, "startTicks">, bootTimeSeconds: number): number {
	return bootTimeSeconds + Math.floor(stat.startTicks / PROC_TICKS_PER_SECOND);
}
