import type { Clock } from "../../shared/core/clock.ts";
import { cancelledIdOf, REQUEST_CANCELLED_NOTIFICATION } from "../core/json-rpc.ts";
import { type BoundRequests, boundRequests, type EditorRequests } from "../editor-source.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";
import { connectAndShakeHands, type SessionTarget, sessionTarget } from "./handshake.ts";
import { keyOf, serverOf } from "./listing.ts";
import type { ReadLock } from "./lockfiles.ts";
import type { McpSocket } from "./mcp-socket.ts";

/**
 * Connections kept only to be asked: a pi-ide.nvim server (its lockfile in `~/.pi/ide`) of a Neovim pi already
 * reads over Neovim's own server is one editor with one state, that Neovim's; its plugin asks for inline
 * suggestions over its own server only, so pi connects to that server too, takes no state and no review from
 * it, and answers what it asks. Kept while suggestions are wanted; a connection that failed is not tried again
 * until its lockfile names another server.
 */
export class AskingConnections {
	private readonly open = new Map<string, { server: string | undefined; session: AskingSession }>();
	private readonly failed = new Map<string, { server: string | undefined; reason: string }>();

	constructor(
		private readonly deps: {
			clock: Clock;
			uid: number;
			facts: Pick<ProcessFacts, "connectionServerUid">;
			requests: EditorRequests | undefined;
		},
	) {}

	/** Connected to exactly the servers of `locks` (each claimed by another source), when requests are wanted. */
	follow(locks: readonly ReadLock[]): void {
		const requests = this.deps.requests;
		const wanted = new Map<string, ReadLock>();
		if (requests?.wanted())
			for (const lock of locks) {
				const key = keyOf(lock);
				if (key !== undefined && lock.lockfile && lock.plan.kind === "pi") wanted.set(key, lock);
			}
		for (const [key, held] of this.open) {
			const lock = wanted.get(key);
			if (lock && serverOf(lock) === held.server) continue;
			held.session.close();
			this.open.delete(key);
		}
		if (!requests) return;
		for (const [key, lock] of wanted) {
			const server = serverOf(lock);
			if (this.open.has(key) || this.failed.get(key)?.server === server) continue;
			const session = new AskingSession(
				sessionTarget(lock, this.deps.uid, this.deps.facts),
				this.deps.clock,
				boundRequests(requests, key),
			);
			this.open.set(key, { server, session });
			void session.open().then((opened) => {
				if (opened || this.open.get(key)?.session !== session) return;
				this.open.delete(key);
				this.failed.set(key, { server, reason: session.problem ?? "could not connect" });
			});
		}
	}

	/** How the server behind `key` is asked, for `/ide status`; undefined when it is not. */
	stateOf(key: string): string | undefined {
		const held = this.open.get(key);
		if (held)
			return held.session.isOpen ? "its requests answered over a connection of their own" : "connecting to be asked";
		const failed = this.failed.get(key);
		return failed && `a connection to be asked failed: ${failed.reason}`;
	}

	close(): void {
		for (const { session } of this.open.values()) session.close();
		this.open.clear();
	}
}

/** One such connection: the handshake, then the server's requests answered and its cancels passed on. */
class AskingSession {
	problem?: string;
	private socket?: McpSocket;
	private closing = false;

	constructor(
		private readonly target: SessionTarget,
		private readonly clock: Clock,
		private readonly requests: BoundRequests,
	) {}

	get isOpen(): boolean {
		return this.socket !== undefined && this.socket.closed === undefined;
	}

	async open(): Promise<boolean> {
		const shaken = await connectAndShakeHands(this.target, {
			clock: this.clock,
			onNotification: (method, params) => {
				const id = method === REQUEST_CANCELLED_NOTIFICATION ? cancelledIdOf(params) : undefined;
				if (id !== undefined) this.requests.cancelled(id);
			},
			onRequest: (id, method, params) => this.requests.answer({ id, method, params }),
			ask: (socket, method, params) => socket.request(method, params),
			closing: () => this.closing,
		});
		if (!shaken.ok) {
			this.problem = shaken.reason;
			shaken.socket?.close();
			return false;
		}
		this.socket = shaken.socket;
		void shaken.socket.whenClosed().then(() => this.requests.gone());
		return true;
	}

	close(): void {
		this.closing = true;
		this.socket?.close();
	}
}
