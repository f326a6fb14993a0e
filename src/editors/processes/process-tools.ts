import { execFile } from "node:child_process";

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

export function runTool(tool: ProcessTool, args: readonly string[]): Promise<ToolAnswer> {
	return new Promise((resolve) => {
		execFile(
			tool,
			args,
			{
				timeout: PROCESS_TOOL_TIMEOUT_MS,
				maxBuffer: MAX_TOOL_OUTPUT_BYTES,
				env: { ...process.env, LC_ALL: "C", LANG: "C", TZ: "UTC0" },
				windowsHide: true,
			},
			(error, stdout, stderr) => {
				if (!error) return resolve({ ok: true, text: stdout, stderr });
				const exitCode: unknown = error.code;
				if (exitCode === 1 && stdout.trim() === "") return resolve({ ok: true, text: "", stderr });
				// lsof exits 1 also when one of several pids asked about has gone: what it printed still holds.
				if (exitCode === 1 && tool === "lsof") return resolve({ ok: true, text: stdout, stderr });
				resolve({ ok: false, reason: toolFailure(tool, error, stderr) });
			},
		);
	});
}

function toolFailure(tool: ProcessTool, error: { code?: unknown; killed?: boolean }, stderr: string): string {
	if (error.code === "ENOENT") return `${tool} is not installed (not on PATH)`;
	if (error.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER")
		return `${tool} printed more than ${MAX_TOOL_OUTPUT_BYTES} bytes`;
	if (error.killed) return `${tool} gave no answer within ${PROCESS_TOOL_TIMEOUT_MS} ms`;
	const said = stderr.trim().split("\n")[0]?.slice(0, 120);
	return `${tool} failed (exit ${String(error.code)})${said ? `: ${said}` : ""}`;
}
