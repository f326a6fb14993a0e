import { homedir } from "node:os";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AskService } from "../asks/ask-service.ts";
import type { SessionQuestions } from "../questions/session-questions.ts";
import type { TurnApprovals } from "../review/approvals.ts";
import type { IdeSettings } from "../settings/core/settings.ts";
import { firstTimeInProcess } from "../shared/process-memory.ts";
import { type BridgePromptContext, composeBridgePrompt } from "./bridge-prompt.ts";
import { BridgeSession } from "./bridge-session.ts";
import { bridgeSocketAt } from "./bridge-socket.ts";
import type { BridgeOutgoing } from "./core/bridge-messages.ts";
import { bridgeStatusLines } from "./core/bridge-texts.ts";
import { bridgeSocketPath } from "./core/socket-path.ts";

/** One session's part of pi-bridge.nvim's socket: served, or off with the reason. */
export interface SessionBridge {
	approvals?: TurnApprovals;
	broadcast?: (message: BridgeOutgoing) => void;
	statusLines(): string[];
	/** `quit`: pi ends, the socket goes with it; otherwise it stays for the next session. */
	close(quitting: boolean): Promise<void>;
}

/**
 * The socket for pi's working directory, served while asks are on unless either settings file says
 * `"piBridge": false`. Standing aside for another owner is said once, in pi and in `/ide status`.
 */
export async function sessionBridge(
	ctx: ExtensionContext,
	settings: Pick<IdeSettings, "asks" | "piBridge">,
	parts: {
		asks: AskService;
		mirror: Pick<SessionQuestions, "mirror" | "on">;
		prompt: BridgePromptContext;
		environment: { PI_BRIDGE_EDIT_APPROVAL?: string; PI_BRIDGE_UI_PROMPT_MIRROR?: string };
	},
): Promise<SessionBridge> {
	const socket = bridgeSocketAt(bridgeSocketPath(homedir(), ctx.cwd));
	const off = !settings.asks.on
		? `asks from editors are off (${settings.asks.source} settings)`
		: !settings.piBridge.on
			? `"piBridge": false in the ${settings.piBridge.source} settings`
			: !ctx.hasUI
				? "print mode takes no asks"
				: undefined;
	if (off !== undefined) {
		await socket.close();
		const facts = { path: socket.path, state: { kind: "off" as const, reason: off } };
		return {
			statusLines: () => bridgeStatusLines({ ...facts, clients: 0, prompts: 0, approvals: "off", questions: "off" }),
			close: async () => {},
		};
	}
	const { asks, environment } = parts;
	const mirror = parts.mirror.mirror;
	const asking = asks.forEditors();
	const session = new BridgeSession({
		socket,
		prompted: (editor, compose) => asks.prompted(editor, compose),
		compose: (prompt) => composeBridgePrompt(prompt, parts.prompt),
		gone: (key) => asking.gone(key),
		replies: {
			replied: (editor, reply) => mirror.replied(editor, reply),
			keyed: (editor, reply) => mirror.keyed(editor, reply),
			gone: (key) => mirror.gone(key),
		},
		runEditors: () => asks.runEditors(),
		approvalsOff: () => (environment.PI_BRIDGE_EDIT_APPROVAL === "0" ? "off (PI_BRIDGE_EDIT_APPROVAL=0)" : undefined),
		...(!parts.mirror.on
			? { mirrorOff: "pi's questions in the editor are off" }
			: environment.PI_BRIDGE_UI_PROMPT_MIRROR === "0" && { mirrorOff: "off (PI_BRIDGE_UI_PROMPT_MIRROR=0)" }),
	});
	await socket.serve();
	const state = socket.state;
	if ((state.kind === "aside" || state.kind === "failed") && firstTimeInProcess(`pi-bridge aside ${socket.path}`))
		ctx.ui.notify(`pi-bridge.nvim: ${state.reason}; this pi does not serve ${socket.path}`, "warning");
	return {
		approvals: session.turnApprovals,
		broadcast: (message) => socket.broadcast(message),
		statusLines: () => session.statusLines(),
		close: async (quitting) => {
			session.close();
			if (quitting) await socket.close();
		},
	};
}
