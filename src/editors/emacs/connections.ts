import type { Clock } from "../../shared/core/clock.ts";
import { nextEmacsInstall } from "../../shared/process-memory.ts";
import type { EditorFacts, EditorReading, SourceEvent } from "../core/editor.ts";
import { pidKey, pidOfKey } from "../core/editor-key.ts";
import type { EmacsUnread } from "./core/status.ts";
import type { FoundEmacs } from "./discovery.ts";
import type { PushListener } from "./push-listener.ts";
import { EmacsSession, type ServedEmacs } from "./session.ts";

/** Closed sessions' keys are remembered this many at most: how a connection to them ended. */
const MAX_REMEMBERED_GONE = 64;

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
}

/**
 * The Emacsen pi holds a connection with, by pid, and those it could not talk to: a failure is remembered with
 * its reason while that pid still runs Emacs, and not tried again until `/ide`; a closed connection leaves its
 * key as gone, so the connection rules say how it ended.
 */
export class EmacsConnections {
	readonly sessions = new Map<number, EmacsSession>();
	private readonly gone = new Set<string>();
	/** Sessions told to the event log as found: only those are told as gone. */
	private readonly announced = new WeakSet<EmacsSession>();
	/** Each session's newest valid reading: a snapshot rejected after it leaves the guard what Emacs last said. */
	private readonly lastValid = new WeakMap<EmacsSession, EditorReading>();
	private readonly failures = new Map<number, Failure>();
	/**
	 * The connects under way, by pid: a session being probed is not open yet, so a scan or a re-check meanwhile
	 * would open a second one for the same Emacs (and the first, dropped from `sessions`, never be closed).
	 */
	private readonly opening = new Map<number, Promise<EmacsUnread["why"] | undefined>>();
	private closed = false;

	constructor(private readonly hooks: ConnectionsHooks) {}

	sessionOf(key: string): EmacsSession | undefined {
		const pid = pidOfKey(key);
		return pid === undefined ? undefined : this.sessions.get(pid);
	}

	openSessions(): EmacsSession[] {
		return [...this.sessions.values()].filter((session) => session.isOpen);
	}

	/** `reading`: the session's reading with what only the source knows (busy, enclosing). */
	facts(key: string, readingOf: (session: EmacsSession) => EditorReading | undefined): EditorFacts | undefined {
		const session = this.sessionOf(key);
		// One still being opened is not there yet: its probe's moment says nothing of its liveness.
		if (!session || !this.announced.has(session))
			return this.gone.has(key) ? { origin: "emacs", listed: false, alive: false } : undefined;
		const reading = readingOf(session);
		const problem = session.report().problem;
		return {
			origin: "emacs",
			listed: session.isOpen,
			alive: session.isOpen,
			...(reading && { reading, writtenAtSeconds: reading.writtenAtSeconds }),
			...(!reading && problem !== undefined && { rejection: problem }),
			...(!reading && this.lastValid.has(session) && { lastValid: this.lastValid.get(session) }),
		};
	}

	/** After a scan: the failures of pids that no longer run Emacs are forgotten (the records never grow). */
	keepFailuresOf(running: ReadonlySet<number>): void {
		for (const pid of this.failures.keys()) if (!running.has(pid)) this.failures.delete(pid);
	}

	/** Asked by hand (`/ide`): every Emacs pi could not talk to is tried again. */
	clearFailures(): void {
		this.failures.clear();
	}

	/** The Emacsen that were busy when found, taken off the failures to be tried again. */
	takeBusyFailures(): FoundEmacs[] {
		const busy = [...this.failures.values()].filter((failure) => failure.busy);
		for (const failure of busy) this.failures.delete(failure.emacs.pid);
		return busy.map((failure) => failure.emacs);
	}

	failed(): EmacsUnread[] {
		return [...this.failures.values()].map(({ emacs, socket, reason }) => ({
			pid: emacs.pid,
			daemon: emacs.daemon,
			why: { kind: "failed", socket, reason },
		}));
	}

	/**
	 * A found Emacs connected to when it is new: what pi does not read of it, and why (undefined: read, or tried
	 * before). `listener` gives pi's socket (opened for the first Emacs that needs it), or why there is none.
	 * One connect per pid at a time: another asked meanwhile (a scan during a re-check) gets its answer.
	 */
	async connect(
		emacs: FoundEmacs,
		listener: () => Promise<PushListener | string>,
	): Promise<EmacsUnread["why"] | undefined> {
		const pending = this.opening.get(emacs.pid);
		if (pending) return pending;
		const connecting = this.connectOnce(emacs, listener);
		this.opening.set(emacs.pid, connecting);
		try {
			return await connecting;
		} finally {
			this.opening.delete(emacs.pid);
		}
	}

	async close(): Promise<void> {
		this.closed = true;
		await Promise.all([...this.sessions.values()].map((session) => session.close()));
		this.sessions.clear();
	}

	private async connectOnce(
		emacs: FoundEmacs,
		listener: () => Promise<PushListener | string>,
	): Promise<EmacsUnread["why"] | undefined> {
		const known = this.sessions.get(emacs.pid);
		const same = known?.isOpen === true && known.found.startTicks === emacs.startTicks;
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
		const failure = this.failures.get(emacs.pid);
		if (failure?.socket === emacs.socket && failure.emacs.startTicks === emacs.startTicks) return undefined;
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
			changed: () => {
				const reading = session.reading();
				if (reading) this.lastValid.set(session, reading);
				this.hooks.changed();
			},
			closed: (closed) => this.onClosed(closed),
		});
		this.sessions.set(emacs.pid, session);
		const opened = await session.open();
		if (opened === "open" && session.isOpen) {
			this.announced.add(session);
			this.failures.delete(emacs.pid);
			this.hooks.event({ kind: "app-found", label: `emacs ${emacs.pid}`, detail: emacs.socket });
			this.gone.delete(pidKey(emacs.pid));
		} else if (this.sessions.get(emacs.pid) === session) this.sessions.delete(emacs.pid);
		if (this.closed) await session.close();
		if (opened === "failed") this.fail(emacs, emacs.socket, session.report().problem ?? "unknown", session.isBusy);
	}

	private fail(emacs: FoundEmacs, socket: string, reason: string, busy = false): void {
		if (!this.closed) this.failures.set(emacs.pid, { emacs, socket, reason, busy });
	}

	private onClosed(session: EmacsSession): void {
		if (this.closed || this.sessions.get(session.found.pid) !== session || !this.announced.has(session)) return;
		this.sessions.delete(session.found.pid);
		this.gone.add(pidKey(session.found.pid));
		if (this.gone.size > MAX_REMEMBERED_GONE) this.gone.delete(this.gone.values().next().value as string);
		this.hooks.event({ kind: "app-gone", label: `emacs ${session.found.pid}` });
		this.hooks.changed();
	}
}
