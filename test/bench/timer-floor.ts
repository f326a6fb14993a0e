/**
 * For the idle-CPU measurement only: a pi extension that does nothing but keep one empty timer at the
 * liveness interval. Its CPU time is the floor any extension pays for re-checking pids on a timer.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { LIVENESS_CHECK_MS } from "../../src/shared/core/timing.ts";

export default function timerFloor(pi: ExtensionAPI): void {
	let timer: NodeJS.Timeout | undefined;
	pi.on("session_start", () => {
		timer = setInterval(() => {}, LIVENESS_CHECK_MS);
		timer.unref?.();
	});
	pi.on("session_shutdown", () => clearInterval(timer));
}
