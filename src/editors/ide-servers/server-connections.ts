import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { IDE_CLOSE_SETTLE_MS } from "../../shared/core/timing.ts";
import type { SourceEvent } from "../core/editor.ts";
import { boundRequests, type EditorRequests } from "../editor-source.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";
import type { Mention } from "./core/status.ts";
import { sessionTarget } from "./handshake.ts";
import { keyOf, serverOf } from "./listing.ts";
import type { ReadLock } from "./lockfiles.ts";
import { FRAME_TOO_BIG } from "./mcp-socket.ts";
import { IdeServerSession } from "./session.ts";

/** A connection and the lockfile it was made from. */
export interface Connection {
	session: IdeServerSession;
	lock: ReadLock;
	opening?: Promise<boolean>;
}

/** Why pi is not connected to a server any more: kept until `/ide` picks it or the server is another one. */
export interface Ended {
	/** The server it ended with (port, pid, token: `serverOf`): a new one forgets it, a new folder does not. */
	identity: string | undefined;
	end: "closed-by-editor" | "connect-failed";
	reason: string;
}

export interface ConnectionsDeps {
	clock: Clock;
	uid: number;
	/** The port's owner, asked of the process facts before the token is sent and after the connection opened. */
	facts: Pick<ProcessFacts, "connectionServerUid" | "stillHeldBy">;
	connectedKey: () => string | undefined;
	mentioned: (key: string, mention: Mention) => void;
	event: (event: SourceEvent) => void;
	/** Where the connected editor's own requests go (inline suggestions). */
	requests?: EditorRequests;
	/** What pi knows changed: the source lists its editors again. */
	changed: () => Promise<void>;
	/** Whether the server behind `key` is still there once its dir is read again (its lockfile, its process). */
	stillThere: (key: string, lock: ReadLock) => Promise<boolean>;
}

const CLOSED_OUT = "the editor closed pi's connection; another client may have taken it; /ide reconnects";

/**
 * pi's connections to IDE servers: at most the one of the connected key, opened when it is picked (`follow`),
 * closed when another is; why one ended (refused, or closed by the server while it lives), so that pi never
 * reconnects on its own to a server that closed it out.
 */
export class ServerConnections {
	private readonly connections = new Map<string, Connection>();
	private readonly ended = new Map<string, Ended>();
	/** Servers that just closed pi's connection, while pi looks why: not connected to again on pi's own meanwhile. */
	private readonly settling = new Set<string>();
	private closed = false;

	constructor(private readonly deps: ConnectionsDeps) {}

	of(key: string): Connection | undefined {
		return this.connections.get(key);
	}

	endedOf(key: string): Ended | undefined {
		return this.ended.get(key);
	}

	/**
	 * Connects to `lock`'s server as `key` (the connected key; no lock: the key is not a usable IDE server, say
	 * another source reads that editor now) and closes every other connection of pi's. `picked`: the connection
	 * was just made (by the user or the rules), which overrides what ended before; else (a new session of pi, a
	 * re-check) a server that closed pi out or refused it is left alone.
	 */
	follow(key: string | undefined, lock: ReadLock | undefined, picked: boolean): void {
		for (const [known, connection] of this.connections)
			if (known !== key || !lock) {
				this.connections.delete(known);
				connection.session.close();
			}
		if (key === undefined || !lock || this.connections.has(key)) return;
		if (picked) this.ended.delete(key);
		else if (this.ended.has(key) || this.settling.has(key)) return;
		void runInBackground("ide server connect", () => this.connect(key, lock));
	}

	/** `/ide`: a server that refused pi may be tried again when picked. */
	forgetRefusals(): void {
		for (const [key, ended] of this.ended) if (ended.end === "connect-failed") this.ended.delete(key);
	}

	/**
	 * A new port, pid or token is a new server: what ended with the old one is forgotten once no lockfile of that
	 * key describes the old one any more (a process may hold several: one JetBrains, a server per project).
	 */
	forgetEndedOf(locks: readonly ReadLock[]): void {
		for (const [key, ended] of this.ended)
			if (!locks.some((lock) => keyOf(lock) === key && serverOf(lock) === ended.identity)) this.ended.delete(key);
	}

	async close(): Promise<void> {
		this.closed = true;
		for (const connection of this.connections.values()) connection.session.close();
		await Promise.all([...this.connections.values()].map((connection) => connection.opening));
		this.connections.clear();
	}

	private async connect(key: string, lock: ReadLock): Promise<void> {
		const { lockfile, holder } = lock;
		if (!lockfile || !holder) return;
		const session = new IdeServerSession(sessionTarget(lock, this.deps.uid, this.deps.facts), {
			clock: this.deps.clock,
			changed: () => void runInBackground("ide server state", () => this.deps.changed()),
			mentioned: (mention) => {
				// Only the connected editor's, once its connection is proven (the port's owner checked again).
				if (this.deps.connectedKey() === key && this.connections.get(key)?.opening === undefined)
					this.deps.mentioned(key, mention);
			},
			...(this.deps.requests && { requests: boundRequests(this.deps.requests, key) }),
		});
		const connection: Connection = { session, lock };
		connection.opening = session
			.open()
			.catch(() => false)
			.then(async (open) => {
				// The port is checked again once connected: a listener swapped in between is never kept.
				const swapped = open ? await this.deps.facts.stillHeldBy(lock.port, holder.pid, this.deps.uid) : undefined;
				if (swapped !== undefined) session.close();
				if (open && swapped === undefined) return true;
				// pi moved on while it opened (follow): that is no refusal of the server's to remember.
				if (this.connections.get(key) === connection)
					this.end(
						key,
						lock,
						"connect-failed",
						`could not connect: ${swapped ?? session.report().problem ?? "unknown"}`,
					);
				return false;
			});
		this.connections.set(key, connection);
		await this.deps.changed();
		const open = await connection.opening;
		connection.opening = undefined;
		if (this.connections.get(key) !== connection) return session.close();
		if (!open) this.connections.delete(key);
		else {
			const server = session.report().server?.name ?? "";
			this.deps.event({ kind: "app-found", label: `IDE server ${lock.port}`, detail: server });
			void runInBackground("ide server closed", () =>
				session.whenClosed()?.then((why) => this.onClosed(key, connection, why.code)),
			);
		}
		if (this.closed) session.close();
		await this.deps.changed();
	}

	/** The server closed pi's connection: gone with its process or lockfile, else it closed pi out (another client). */
	private async onClosed(key: string, connection: Connection, code: number): Promise<void> {
		if (this.connections.get(key) !== connection || this.closed) return;
		this.connections.delete(key);
		this.settling.add(key);
		try {
			await this.judgeClose(key, connection, code);
		} finally {
			this.settling.delete(key);
		}
		this.deps.event({ kind: "app-gone", label: `IDE server ${connection.lock.port}` });
		await this.deps.changed();
	}

	/** Why the server closed pi's connection: it went (its lockfile, its process), or it closed pi out. */
	private async judgeClose(key: string, connection: Connection, code: number): Promise<void> {
		// What it showed is not known any more: listed without it at once, while pi looks at why it closed.
		await this.deps.changed();
		// An IDE that quits closes its clients first, then its listener and its lockfile: still there at once, it
		// is looked at again a moment later, so that a quit reads as gone, not as pi closed out.
		let still = await this.deps.stillThere(key, connection.lock);
		if (still && code !== FRAME_TOO_BIG.code) {
			await new Promise<void>((done) => this.deps.clock.after(IDE_CLOSE_SETTLE_MS, done));
			still = !this.closed && (await this.deps.stillThere(key, connection.lock));
		}
		if (still) {
			// pi closed it: the server sent more than pi reads in one message (a select-all of a huge file).
			if (code === FRAME_TOO_BIG.code)
				this.end(key, connection.lock, "connect-failed", `the server sent ${FRAME_TOO_BIG.reason}; /ide reconnects`);
			else this.end(key, connection.lock, "closed-by-editor", CLOSED_OUT);
		}
	}

	private end(key: string, lock: ReadLock, end: Ended["end"], reason: string): void {
		this.ended.set(key, { identity: serverOf(lock), end, reason });
	}
}
