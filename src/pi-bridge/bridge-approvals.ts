import { randomUUID } from "node:crypto";
import type { ApprovalRequest, Approver, ApproverDecision, TurnApprovals } from "../review/approvals.ts";
import { unifiedDiff } from "../review/core/unified-diff.ts";
import type { BridgeConnection } from "./bridge-socket.ts";
import type { BridgeId, BridgeOutgoing } from "./core/bridge-messages.ts";
import { BRIDGE_LABEL, cappedDiff } from "./core/bridge-texts.ts";

export interface BridgeApprovalParts {
	broadcast: (message: BridgeOutgoing) => void;
	connections: () => readonly BridgeConnection[];
	/** The running run carries an ask of the plugin's. */
	pluginTurn: () => boolean;
	/** Why approvals are off (`PI_BRIDGE_EDIT_APPROVAL=0`), if they are. */
	off: () => string | undefined;
}

interface Pending {
	id: string;
	request: Extract<BridgeOutgoing, { type: "approval_request" }>;
	/** The connections it went to. */
	sentTo: Set<number>;
	settle: (decision: ApproverDecision | undefined) => void;
}

/**
 * The plugin's approvals of the model's writes, for its own turns: the review asks, the plugin's picker answers
 * (`approval_response`), one request at a time (the plugin ignores a second one while its picker is open), each
 * closed by exactly one `approval_resolved` whoever answered.
 */
export class BridgeApprovals implements TurnApprovals {
	private queue: Promise<unknown> = Promise.resolve();
	private pending?: Pending;
	asked = 0;

	constructor(private readonly parts: BridgeApprovalParts) {}

	approver(): Approver | undefined {
		if (this.parts.off() !== undefined || !this.parts.pluginTurn() || this.parts.connections().length === 0)
			return undefined;
		return { name: BRIDGE_LABEL, ask: (request, signal) => this.inTurn(request, signal) };
	}

	/** The plugin's decision on the request it shows now; any other id is ignored. */
	responded(id: BridgeId, decision: ApproverDecision): void {
		if (this.pending?.id === id) this.pending.settle(decision);
	}

	/** The request open now, to a connection that was not there when it went out. */
	resendTo(connection: Pick<BridgeConnection, "id" | "send">): void {
		if (!this.pending || this.pending.sentTo.has(connection.id)) return;
		this.pending.sentTo.add(connection.id);
		connection.send(this.pending.request);
	}

	/** A connection closed: with none left, nobody answers the request open now. */
	connectionClosed(): void {
		if (this.parts.connections().length === 0) this.pending?.settle(undefined);
	}

	/** The session ends: the open request is withdrawn. */
	close(): void {
		this.pending?.settle(undefined);
	}

	private inTurn(request: ApprovalRequest, signal: AbortSignal): Promise<ApproverDecision | undefined> {
		const asked = this.queue.then(() => this.one(request, signal));
		this.queue = asked.catch(() => undefined);
		return asked;
	}

	private one(request: ApprovalRequest, signal: AbortSignal): Promise<ApproverDecision | undefined> {
		if (signal.aborted || this.parts.connections().length === 0) return Promise.resolve(undefined);
		const id = randomUUID();
		const diff = cappedDiff(
			unifiedDiff(request.before ?? "", request.proposed, { from: request.file, to: request.file }),
		);
		this.asked++;
		const message = { type: "approval_request" as const, id, tool: request.tool, path: request.file, diff };
		return new Promise((resolve) => {
			const withdrawn = () => settle(undefined);
			const settle = (decision: ApproverDecision | undefined) => {
				if (this.pending?.id !== id) return;
				this.pending = undefined;
				signal.removeEventListener("abort", withdrawn);
				this.parts.broadcast({ type: "approval_resolved", id });
				resolve(decision);
			};
			const sentTo = new Set(this.parts.connections().map((connection) => connection.id));
			this.pending = { id, request: message, sentTo, settle };
			signal.addEventListener("abort", withdrawn, { once: true });
			this.parts.broadcast(message);
		});
	}
}
