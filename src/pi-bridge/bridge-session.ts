import type { AskingEditor } from "../editors/editor-asks.ts";
import type { TurnApprovals } from "../review/approvals.ts";
import { runInBackground } from "../shared/background.ts";
import { BridgeApprovals } from "./bridge-approvals.ts";
import { BridgeEditor, type BridgeReplies } from "./bridge-editor.ts";
import type { BridgeConnection, BridgeHandler, BridgeSocket } from "./bridge-socket.ts";
import type { BridgeMessage, BridgePrompt } from "./core/bridge-messages.ts";
import type { BridgeSocketFacts } from "./core/bridge-status.ts";
import { bridgeStatusLines } from "./core/bridge-texts.ts";
import type { FinishedPrompt } from "./core/prompt-text.ts";

/** What one session gives the socket's traffic, each a function. */
export interface BridgeSessionParts {
	socket: Pick<BridgeSocket, "attach" | "detach" | "broadcast" | "connections" | "state" | "path">;
	/** The asks' way in: a prompt composed by `compose`, sent as an ask is (refused with a reason otherwise). */
	prompted: (editor: AskingEditor, compose: () => Promise<FinishedPrompt>) => Promise<void>;
	compose: (prompt: BridgePrompt) => Promise<FinishedPrompt>;
	/** A connection ended: the asks tell it nothing more. */
	gone: (key: string) => void;
	/** The question mirror's way back: an answer, a copy closed, a key, a connection gone. */
	replies: BridgeReplies;
	/** The editors whose asks the running run carries. */
	runEditors: () => readonly AskingEditor[];
	/** Why the plugin's approvals are off (`PI_BRIDGE_EDIT_APPROVAL=0`), if they are. */
	approvalsOff: () => string | undefined;
	/** Why the plugin gets no questions (`PI_BRIDGE_UI_PROMPT_MIRROR=0`, the mirror off), if so. */
	mirrorOff?: string;
}

/**
 * pi-bridge.nvim's socket as one session serves it: the plugin one editor of the asks (a prompt is an ask) and
 * of the question mirror (after `mirror_ready`), whichever of its connections speaks; approvals for its turns. The socket itself
 * outlives the session (bridge-socket.ts); this attaches at `session_start` and detaches at its end.
 */
export class BridgeSession implements BridgeHandler {
	/** The plugin, one editor for all its connections. */
	private readonly editor: BridgeEditor;
	readonly approvals: BridgeApprovals;
	private prompts = 0;
	private lastProblem?: string;

	constructor(private readonly parts: BridgeSessionParts) {
		const connections = () => parts.socket.connections;
		this.editor = new BridgeEditor(
			{
				send: (message, to) => {
					for (const connection of connections()) if (!to || connection.mirrorReady) connection.send(message);
				},
				mirrorReady: () => connections().some((connection) => connection.mirrorReady),
			},
			parts.mirrorOff,
		);
		this.approvals = new BridgeApprovals({
			broadcast: (message) => parts.socket.broadcast(message),
			connections: () => parts.socket.connections,
			pluginTurn: () => parts.runEditors().some((editor) => editor.piBridge === "plugin"),
			off: parts.approvalsOff,
		});
		parts.socket.attach(this);
	}

	/** The review's port (review/approvals.ts). */
	get turnApprovals(): TurnApprovals {
		return this.approvals;
	}

	message(connection: BridgeConnection, message: BridgeMessage): void {
		const editor = this.editor;
		// A connection that came while an approval was open gets it too (the plugin reconnects on its next prompt);
		// one that has it already gets nothing.
		this.approvals.resendTo(connection);
		switch (message.type) {
			case "prompt":
				this.prompts++;
				void runInBackground("pi-bridge prompt", () =>
					this.parts.prompted(editor, () => this.parts.compose(message.prompt)),
				);
				return;
			case "approval_response":
				this.approvals.responded(message.id, message.decision);
				return;
			case "ui_prompt_response": {
				const reply = editor.reply(message.id, message.answer);
				if (reply === undefined) return;
				if ("key" in reply) this.parts.replies.keyed(editor, reply);
				else this.parts.replies.replied(editor, reply);
				return;
			}
			default:
				// `approval_ack` needs no answer; `mirror_ready` is the connection's own flag; other types are ignored.
				return;
		}
	}

	malformed(connection: BridgeConnection, reason: string): void {
		this.lastProblem = `connection ${connection.id}: ${reason}`;
		if (reason.startsWith("a malformed prompt"))
			connection.send({ type: "error", message: `pi: not sent: ${reason}`, code: "send_failed" });
	}

	/** The last connection gone: the plugin's questions and asks state go with it. */
	closed(_connection: BridgeConnection): void {
		this.approvals.connectionClosed();
		if (this.parts.socket.connections.length > 0) return;
		this.parts.gone(this.editor.key);
		this.parts.replies.gone(this.editor.key);
	}

	facts(): BridgeSocketFacts {
		return {
			path: this.parts.socket.path,
			state: this.parts.socket.state,
			clients: this.parts.socket.connections.length,
			prompts: this.prompts,
			approvals: this.parts.approvalsOff() ?? `on (${this.approvals.asked} asked)`,
			questions: this.parts.mirrorOff ?? "on",
			...(this.lastProblem !== undefined && { lastProblem: this.lastProblem }),
		};
	}

	statusLines(): string[] {
		return bridgeStatusLines(this.facts());
	}

	/** The session ends: nothing more reaches it; the socket stays for the next one. */
	close(): void {
		this.approvals.close();
		this.parts.socket.detach(this);
	}
}
