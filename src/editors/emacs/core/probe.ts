import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { MAX_PID } from "../../core/protocol-state.ts";

/** What core/elisp/probe-elisp.ts `PROBE_ELISP` returns; the arguments it read back are the caller's to compare. */
export const ProbeAnswerSchema = Type.Object({
	pid: Type.Integer({ minimum: 1, maximum: MAX_PID }),
	version: Type.String({ maxLength: 100 }),
	daemon: Type.Boolean(),
	frames: Type.Integer({ minimum: 0, maximum: 100_000 }),
	args: Type.Unknown(),
});
export type ProbeAnswer = Static<typeof ProbeAnswerSchema>;

const probeCheck = Compile(ProbeAnswerSchema);

/** The elisp's own answer when it caught an error (it never lets one reach the server). */
const ElispErrorSchema = Type.Object({ error: Type.String({ maxLength: 10_000 }) });
const elispErrorCheck = Compile(ElispErrorSchema);

export type ProbeResult = { ok: true; probe: ProbeAnswer } | { ok: false; reason: string };

/**
 * The probe's JSON checked: its shape, and the pid that of the process whose fds hold the socket (an
 * answer from another pid means the socket is not that Emacs's). An error the elisp caught is its reason.
 */
export function probeResultOf(value: unknown, expectedPid: number): ProbeResult {
	if (elispErrorCheck.Check(value))
		return { ok: false, reason: `the probe failed in Emacs: ${value.error.slice(0, 300)}` };
	if (!probeCheck.Check(value)) return { ok: false, reason: "the probe's answer has another shape" };
	if (value.pid !== expectedPid) return { ok: false, reason: `answered as pid ${value.pid}, not ${expectedPid}` };
	return { ok: true, probe: value };
}
