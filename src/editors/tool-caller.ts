/**
 * An editor that answers MCP `tools/call` requests: an IDE server over its WebSocket, the shipped VS Code client
 * over its socket beside the state file. The review (review/) asks either the same way: `openDiff`, `close_tab`.
 */
export type ToolAnswer = { ok: true; result: unknown } | { ok: false; reason: string };

export interface ToolCaller {
	/** `tools/call` of `name`; `timeoutMs` undefined waits for as long as the connection lasts (an `openDiff`). */
	callTool(name: string, args: Record<string, unknown>, timeoutMs: number | undefined): Promise<ToolAnswer>;
	/** Whether the other end listed that tool. */
	offers(name: string): boolean;
	/** Notifications the other end sends (the VS Code client's `pi/diffShown`, `pi/diffClosed`); returns the unsubscribe. */
	onNotification(listener: (method: string, params: unknown) => void): () => void;
	/** Resolves with why, once the connection has ended (at once when it already has). */
	whenClosed(): Promise<string>;
}

/** A caller pi connected for one use (the VS Code client's socket, per review) and closes after it. */
export interface ClosableToolCaller extends ToolCaller {
	/** Ends the connection: pending calls settle `{ok:false}`, `whenClosed` resolves. Idempotent. */
	close(): void;
}

export type ToolCallerOpen = { ok: true; caller: ClosableToolCaller } | { ok: false; reason: string };
