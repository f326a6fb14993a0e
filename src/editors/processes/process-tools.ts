import { execFile } from "node:child_process";
import { systemClock } from "../../shared/clock.ts";
import type { Clock } from "../../shared/core/clock.ts";

/**
 * The only place pi runs `ps` and `lsof` (the `ps` backend). Each call has a timeout and an output cap, runs in
 * the C locale with UTC (`lstart` is local time, `%c` locale-shaped), and says what went wrong as a reason
 * `/ide status` can show: a tool that is missing, slow or failing is never a guess.
 */

export type ProcessTool = "ps" | "lsof";

/** A `ps` or `lsof` that takes longer is given up: the machine is in trouble, and pi does not wait on it. */
export const PROCESS_TOOL_TIMEOUT_MS = 3000;

/** What one call may print: a listing of 3,000 processes is ~250 KB. */
const MAX_TOOL_OUTPUT_BYTES = 8 * 1024 * 1024;

/** Its standard output, or why there is none. `lsof` exits 1 when it found nothing: that is an empty answer. */
export type ToolAnswer = { ok: true; text: string; stderr: string } | { ok: false; reason: string };

/**
 * Runs `tool` and answers once: with what it printed, or at the deadline with the timeout. The deadline is
 * pi's own, not `execFile`'s: a `ps` stuck in the kernel (a `/proc` read of a hung process, uninterruptible) or
 * one that ignores SIGTERM outlives its kill, and `execFile` answers only when it exits, then with whatever it
 * printed before its output was cut, as if that were the whole answer.
 */
export function runTool(tool: ProcessTool, args: readonly string[], clock: Clock = systemClock): Promise<ToolAnswer> {
	return new Promise((resolve) => {
		let answered = false;
		const answer = (value: ToolAnswer) => {
			if (answered) return;
			answered = true;
			cancelDeadline();
			resolve(value);
		};
		const child = execFile(
			tool,
			args,
			{
				maxBuffer: MAX_TOOL_OUTPUT_BYTES,
				env: { ...process.env, LC_ALL: "C", LANG: "C", TZ: "UTC0" },
				windowsHide: true,
			},
			(error, stdout, stderr) => {
				if (!error) return answer({ ok: true, text: stdout, stderr });
				const exitCode: unknown = error.code;
				if (exitCode === 1 && stdout.trim() === "") return answer({ ok: true, text: "", stderr });
				// lsof exits 1 also when one of several pids asked about has gone: what it printed still holds.
				if (exitCode === 1 && tool === "lsof") return answer({ ok: true, text: stdout, stderr });
				answer({ ok: false, reason: toolFailure(tool, error, stderr) });
			},
		);
		const cancelDeadline = clock.after(PROCESS_TOOL_TIMEOUT_MS, () => {
			answer({ ok: false, reason: `${tool} gave no answer within ${PROCESS_TOOL_TIMEOUT_MS} ms` });
			// Whatever it prints from now on is no answer; a child that cannot die keeps no pi waiting on it.
			child.stdout?.destroy();
			child.stderr?.destroy();
			child.kill("SIGKILL");
			child.unref();
		});
	});
}

function toolFailure(tool: ProcessTool, error: { code?: unknown; signal?: unknown }, stderr: string): string {
	if (error.code === "ENOENT") return `${tool} is not installed (not on PATH)`;
	if (error.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER")
		return `${tool} printed more than ${MAX_TOOL_OUTPUT_BYTES} bytes`;
	const said = stderr.trim().split("\n")[0]?.slice(0, 120);
	const how = typeof error.signal === "string" ? `killed by ${error.signal}` : `exit ${String(error.code)}`;
	return `${tool} failed (${how})${said ? `: ${said}` : ""}`;
}
