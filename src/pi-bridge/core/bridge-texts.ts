import { basename } from "node:path";
import type { NotSent } from "../../editors/core/ask-methods.ts";
import { show } from "../../shared/core/display-text.ts";
import type { BridgeErrorCode } from "./bridge-messages.ts";
import type { BridgeSocketFacts } from "./bridge-status.ts";

/** How pi names the plugin's connections: the transcript's `asked from Neovim (pi-bridge)`. */
export const BRIDGE_LABEL = "Neovim (pi-bridge)";

/** Between two sessions (`/new`, a switch) nothing takes a prompt: the plugin is told to send it again. */
export const NO_SESSION_TEXT = "pi: not sent: pi is between sessions; send it again in a moment";

/** The code the plugin gets for each way an ask is not sent (pi-bridge.ext's three). */
export function errorCodeOf(kind: NotSent | undefined): BridgeErrorCode {
	if (kind === "ending") return "stale_context";
	if (kind === "off" || kind === "noModel") return "no_active_pi";
	return "send_failed";
}

/** `agent_start`'s message: the model at work (the plugin shows it after `𝜋 `). */
export function startText(model: { name?: string; id?: string } | undefined, thinking: string | undefined): string {
	const name = show(model?.name ?? model?.id ?? "the model", 80);
	return thinking && thinking !== "off" ? `${name} is working (thinking: ${show(thinking, 20)})` : `${name} is working`;
}

/** `agent_end`'s message: done, with the files the run changed, or how it ended. */
export function endText(run: { files: readonly string[]; error?: string; aborted: boolean }): string {
	if (run.aborted) return "stopped";
	if (run.error !== undefined) return `error: ${show(run.error, 200)}`;
	if (run.files.length === 0) return "done";
	const names = run.files.slice(0, 3).map((file) => show(basename(file), 60));
	const more = run.files.length > 3 ? ` and ${run.files.length - 3} more` : "";
	return `done, changed ${names.join(", ")}${more}`;
}

/** pi-bridge.ext's caps on the diff an approval carries. */
export const APPROVAL_DIFF_MAX_LINES = 200;
export const APPROVAL_DIFF_MAX_CHARS = 32 * 1024;

/** The diff the plugin shows, cut to its caps with a line that says so. */
export function cappedDiff(diff: string): string {
	const lines = diff.split("\n");
	// A patch ends with a newline: that is no line of its own (200 lines and their newlines are not cut).
	if (lines.at(-1) === "") lines.pop();
	let kept = lines.length > APPROVAL_DIFF_MAX_LINES ? lines.slice(0, APPROVAL_DIFF_MAX_LINES).join("\n") : diff;
	if (kept.length > APPROVAL_DIFF_MAX_CHARS) kept = kept.slice(0, APPROVAL_DIFF_MAX_CHARS);
	if (kept === diff) return diff;
	return `${kept}\n[diff cut at ${APPROVAL_DIFF_MAX_LINES} lines / ${APPROVAL_DIFF_MAX_CHARS / 1024} KB: the whole change is in pi]\n`;
}

/** `/ide status`'s lines for the socket. */
export function bridgeStatusLines(facts: BridgeSocketFacts): string[] {
	const head = `pi-bridge.nvim's socket: ${socketWords(facts)}`;
	const lines = [head];
	if (facts.state.kind === "serving") {
		lines.push(
			`  ${facts.clients} connected, ${facts.prompts} prompts, approvals ${facts.approvals}, questions ${facts.questions}`,
		);
	}
	if (facts.lastProblem) lines.push(`  last problem: ${show(facts.lastProblem, 200)}`);
	return lines;
}

function socketWords(facts: BridgeSocketFacts): string {
	const path = show(facts.path, 160);
	switch (facts.state.kind) {
		case "off":
			return `off (${facts.state.reason})`;
		case "serving":
			return `served at ${path}`;
		case "aside":
			return `not served: ${show(facts.state.reason, 120)} (${path})`;
		case "failed":
			return `not served: ${show(facts.state.reason, 160)}`;
		case "idle":
			return `not bound yet (${path})`;
	}
}
