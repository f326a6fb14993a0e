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

/**
 * pi's run events handed to the asks of the moment: a run's start and its messages (working, the reply), its
 * end (done), compaction (an ask then waits). The run's end is `agent_settled` where pi has it (pi 1.x: an
 * automatic retry or compaction is not "done"), else `agent_end` (pi 0.73). Only pi 1.x's `on` returns a
 * removal, which tells the lines apart before any run.
 */
export function wireAskEvents(pi: ExtensionAPI, asks: () => AskService | undefined): void {
	let lastEnd: { error?: string; aborted: boolean } = { aborted: false };
	const settles =
		typeof (pi.on as (event: string, handler: (event: { aborted?: boolean }) => void) => unknown)(
			"agent_settled",
			(event) => {
				const outcome = { ...lastEnd, aborted: event.aborted === true || lastEnd.aborted };
				void runInBackground("ask run end", () => asks()?.runEnded(outcome));
			},
		) === "function";
	pi.on("agent_start", () => {
		lastEnd = { aborted: false };
		asks()?.setCompacting(false);
		asks()?.agentStarted();
	});
	pi.on("message_start", (event) => asks()?.messageStarted(event.message));
	pi.on("message_update", (event) => asks()?.messageUpdated(event.message, false));
	pi.on("message_end", (event) => asks()?.messageUpdated(event.message, true));
	pi.on("agent_end", (event) => {
		const error = runError(event.messages);
		const last = event.messages.at(-1) as { stopReason?: unknown } | undefined;
		lastEnd = { ...(error !== undefined && { error }), aborted: last?.stopReason === "aborted" };
		const outcome = lastEnd;
		if (!settles) void runInBackground("ask run end", () => asks()?.runEnded(outcome));
	});
	pi.on("session_before_compact", () => asks()?.setCompacting(true));
	pi.on("session_compact", () => asks()?.setCompacting(false));
}
