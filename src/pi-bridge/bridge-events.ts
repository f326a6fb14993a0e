import { homedir } from "node:os";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { onRunEnded } from "../asks/pi-events.ts";
import { resolveToolPath } from "../safety/core/tool-path.ts";
import { FILE_WRITING_TOOLS } from "../safety/core/unsaved-texts.ts";
import type { BridgeOutgoing } from "./core/bridge-messages.ts";
import { endText, startText } from "./core/bridge-texts.ts";

/**
 * Every run, whoever started it, reaches every client of the socket as pi-bridge.ext sends it: `agent_start`
 * with the model at work, `agent_end` with the files the run changed or how it ended (the plugin runs
 * `:checktime` then). `broadcast` is the session of the moment's, or undefined while none serves the socket.
 */
export function wireBridgeEvents(pi: ExtensionAPI, broadcast: () => ((message: BridgeOutgoing) => void) | undefined) {
	// Kept to the run's end: pi 1.x starts the agent again inside one run (a retry, a compaction).
	let files: string[] = [];
	pi.on("agent_start", (_event, ctx) => {
		broadcast()?.({ type: "agent_start", message: startText(ctx.model, pi.getThinkingLevel()) });
	});
	pi.on("tool_result", (event, ctx) => {
		if (!FILE_WRITING_TOOLS.has(event.toolName) || event.isError) return;
		const path = (event.input as { path?: unknown } | undefined)?.path;
		if (typeof path !== "string") return;
		const file = resolveToolPath(path, ctx.cwd, homedir());
		if (!files.includes(file)) files.push(file);
	});
	onRunEnded(pi, (outcome) => {
		const changed = files;
		files = [];
		broadcast()?.({ type: "agent_end", message: endText({ files: changed, ...outcome }) });
	});
}
