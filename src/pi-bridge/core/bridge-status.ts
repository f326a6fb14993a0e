/** The socket's own standing: not bound yet, serving, standing aside for another owner, or failed (why). */
export type BridgeSocketState =
	| { kind: "idle" }
	| { kind: "serving" }
	| { kind: "aside"; reason: string }
	| { kind: "failed"; reason: string };

/** What `/ide status` says of pi-bridge.nvim's socket: where, whether pi serves it, and what came of it. */
export interface BridgeSocketFacts {
	path: string;
	/** `off`: the settings say so (why). */
	state: BridgeSocketState | { kind: "off"; reason: string };
	clients: number;
	prompts: number;
	/** `on`, or why off (`PI_BRIDGE_EDIT_APPROVAL=0`, the review turned off). */
	approvals: string;
	questions: string;
	lastProblem?: string;
}
