import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { runInBackground } from "../shared/background.ts";
import type { AskService } from "./ask-service.ts";

/** The last assistant message's error of a run, if it ended in one. */
function runError(messages: readonly unknown[]): string | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as { role?: unknown; stopReason?: unknown; errorMessage?: unknown };
		if (message?.role !== "assistant") continue;
		if (message.stopReason !== "error") return undefined;
		return typeof message.errorMessage === "string" ? message.errorMessage : "the model's request failed";
	}
	return undefined;
}

/** How a run ended: its error, if it ended in one, and whether the user stopped it. */
export interface RunOutcome {
	error?: string;
	aborted: boolean;
}

/**
 * `ended` once a run is over: at `agent_settled` where pi has it (pi 1.x: an automatic retry or compaction is
 * not the end), else at `agent_end` (pi 0.73). Only pi 1.x's `on` returns a removal, which tells the lines
 * apart before any run.
 */
export function onRunEnded(pi: ExtensionAPI, ended: (outcome: RunOutcome) => void): void {
	let lastEnd: RunOutcome = { aborted: false };
	const settles =
		typeof (pi.on as (event: string, handler: (event: { aborted?: boolean }) => void) => unknown)(
			"agent_settled",
			(event) => ended({ ...lastEnd, aborted: event.aborted === true || lastEnd.aborted }),
		) === "function";
	pi.on("agent_start", () => {
		lastEnd = { aborted: false };
	});
	pi.on("agent_end", (event) => {
		const error = runError(event.messages);
		const last = event.messages.at(-1) as { stopReason?: unknown } | undefined;
		lastEnd = { ...(error !== undefined && { error }), aborted: last?.stopReason === "aborted" };
		if (!settles) ended(lastEnd);
	});
}

/**
 * pi's run events handed to the asks of the moment: a run's start and its messages (working, the reply), its
 * end (done), compaction (an ask then waits).
 */
export function wireAskEvents(pi: ExtensionAPI, asks: () => AskService | undefined): void {
	onRunEnded(pi, (outcome) => void runInBackground("ask run end", () => asks()?.runEnded(outcome)));
	pi.on("agent_start", () => {
		asks()?.setCompacting(false);
		asks()?.agentStarted();
	});
	pi.on("message_start", (event) => asks()?.messageStarted(event.message));
	pi.on("message_update", (event) => asks()?.messageUpdated(event.message, false));
	pi.on("message_end", (event) => asks()?.messageUpdated(event.message, true));
	pi.on("session_before_compact", () => asks()?.setCompacting(true));
	pi.on("session_compact", () => asks()?.setCompacting(false));
}
