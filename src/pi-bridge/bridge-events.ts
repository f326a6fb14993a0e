import { resolve } from "node:path";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { onRunEnded } from "../asks/pi-events.ts";
import type { BridgeOutgoing } from "./core/bridge-messages.ts";
import { endText, startText } from "./core/bridge-texts.ts";

const WRITING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/**
 * Every run, whoever started it, reaches every client of the socket as pi-bridge.ext sends it: `agent_start`
 * with the model at work, `agent_end` with the files the run changed or how it ended (the plugin runs
 * `:checktime` then). `broadcast` is the session of the moment's, or undefined while none serves the socket.
 */
export function wireBridgeEvents(pi: ExtensionAPI, broadcast: () => ((message: BridgeOutgoing) => void) | undefined) {
	let files: string[] = [];
	pi.on("agent_start", (_event, ctx) => {
		files = [];
		broadcast()?.({ type: "agent_start", message: startText(ctx.model, pi.getThinkingLevel()) });
	});
	pi.on("tool_result", (event, ctx) => {
		const path = (event.input as { path?: unknown }).path;
		if (!WRITING_TOOLS.has(event.toolName) || event.isError || typeof path !== "string") return;
		const file = resolve(ctx.cwd, path);
		if (!files.includes(file)) files.push(file);
	});
	onRunEnded(pi, (outcome) => broadcast()?.({ type: "agent_end", message: endText({ files, ...outcome }) }));
}
