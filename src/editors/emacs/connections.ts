import type { Clock } from "../../shared/core/clock.ts";
import { nextEmacsInstall } from "../../shared/process-memory.ts";
import type { SourceEvent } from "../core/editor.ts";
import { SessionTable } from "../kit/session-table.ts";
import { sameStart } from "../processes/core/backend-choice.ts";
import type { EmacsUnread } from "./core/status.ts";
import type { FoundEmacs } from "./discovery.ts";
import type { PushListener } from "./push/push-listener.ts";
import { EmacsSession, type EmacsSessionHooks, type ServedEmacs } from "./session.ts";

interface Failure {
	emacs: FoundEmacs;
	socket: string;
	reason: string;
	/** It only did not answer in time (busy when found): tried again on the re-check tick, not only on `/ide`. */
	busy: boolean;
}

export interface ConnectionsHooks {
	clock: Clock;
	event: (event: SourceEvent) => void;
	/** A session's reading changed (a push, a read): the pushes are decided again and the controller told. */
	changed: () => void;
	/** Where a session reads its Emacs's cwd and arguments. */
	processOf: EmacsSessionHooks["processOf"];
	/** Where the Emacsen's asks go, and pi's project their registry names this pi by. */
	asks?: EmacsSessionHooks["asks"];
	projectDir?: () => string;
}

/**
 * How pi connects to a found Emacs (the kit's session table keeps them by pid): only one whose server socket pi
 * may speak to, through pi's push socket; a server started again under another name is followed; an Emacs busy
 * when found is tried again on the re-check tick, any other failure on `/ide`.
 */
export class EmacsConnections {
	readonly table: SessionTable<EmacsSession, Failure>;

	constructor(private readonly hooks: ConnectionsHooks) {
		this.table = new SessionTable("emacs", {
			label: (pid) => `emacs ${pid}`,
			event: hooks.event,
			changed: hooks.changed,
		});
	}

	/** The Emacsen that were busy when found, taken off the failures to be tried again. */
	takeBusyFailures(): FoundEmacs[] {
		const busy = [...this.table.failures.values()].filter((failure) => failure.busy);
		for (const failure of busy) this.table.failures.delete(failure.emacs.pid);
		return busy.map((failure) => failure.emacs);
	}

	failed(): EmacsUnread[] {
		return [...this.table.failures.values()].map(({ emacs, socket, reason }) => ({
			pid: emacs.pid,
			daemon: emacs.daemon,
			why: { kind: "failed", socket, reason },
		}));
	}

	/**
	 * A found Emacs connected to when it is new: what pi does not read of it, and why (undefined: read, or tried
	 * before). `listener` gives pi's socket (opened for the first Emacs that needs it), or why there is none.
	 */
	connect(emacs: FoundEmacs, listener: () => Promise<PushListener | string>): Promise<EmacsUnread["why"] | undefined> {
		return this.table.openOnce(emacs.pid, () => this.connectOnce(emacs, listener));
	}

	private async connectOnce(
		emacs: FoundEmacs,
		listener: () => Promise<PushListener | string>,
	): Promise<EmacsUnread["why"] | undefined> {
		const known = this.table.sessions.get(emacs.pid);
		const same = known?.isOpen === true && sameStart(known.found.startSeconds, emacs.startSeconds);
		if (emacs.socket === undefined) {
			// Its server stopped (`server-stop`) while pi's connection stays: still read from its pushes.
			if (same) return undefined;
			const [refused] = emacs.refused;
			if (refused) this.fail(emacs, refused.path, refused.reason);
			else return emacs.tcpPorts ? { kind: "tcp", ports: emacs.tcpPorts } : { kind: "no-server" };
			return undefined;
		}
		if (same) {
			// The server started again under another name: requests go there.
			known?.useSocket(emacs.socket);
			return undefined;
		}
		const failure = this.table.failures.get(emacs.pid);
		if (failure?.socket === emacs.socket && sameStart(failure.emacs.startSeconds, emacs.startSeconds)) return undefined;
		const socket = await listener();
		if (typeof socket === "string") {
			this.fail(emacs, emacs.socket, `pi's push socket: ${socket}`);
			return undefined;
		}
		await this.open(emacs as ServedEmacs, socket);
		return undefined;
	}

	/** Opened and announced, or remembered as a failure. A daemon with no frame opens too: listed, not offered. */
	private async open(emacs: ServedEmacs, listener: PushListener): Promise<void> {
		const session = new EmacsSession(emacs, {
			clock: this.hooks.clock,
			listener,
			prefix: `pi-ide-${process.pid}-${nextEmacsInstall()}-`,
			processOf: this.hooks.processOf,
			...(this.hooks.asks && { asks: this.hooks.asks }),
			...(this.hooks.projectDir && { projectDir: this.hooks.projectDir }),
			changed: () => {
				this.table.readingChanged(session);
				this.hooks.changed();
			},
			closed: (closed) => this.table.closedBy(closed),
		});
		this.table.add(session);
		const opened = await session.open();
		if (opened === "open" && session.isOpen) this.table.opened(session, emacs.socket);
		else this.table.notOpened(session);
		if (this.table.closed) await session.close();
		if (opened === "failed") this.fail(emacs, emacs.socket, session.report().problem ?? "unknown", session.isBlocked);
	}

	private fail(emacs: FoundEmacs, socket: string, reason: string, busy = false): void {
		this.table.fail(emacs.pid, { emacs, socket, reason, busy });
	}
}
