import type { EditorFacts, EditorOrigin, EditorReading, SourceEvent } from "../core/editor.ts";
import { pidKey, pidOfKey } from "../core/editor-key.ts";
import { GoneKeys } from "./core/gone-keys.ts";

/** What the table asks of one connection to an editor's own server (a Neovim's, an Emacs's). */
export interface TableSession {
	readonly found: { readonly pid: number };
	readonly isOpen: boolean;
	reading(): EditorReading | undefined;
	report(): { problem?: string };
	close(): Promise<void>;
}

export interface SessionTableHooks {
	/** How the event log names one of them: `nvim 1234`. */
	label: (pid: number) => string;
	event: (event: SourceEvent) => void;
	changed: () => void;
}

/**
 * The editors a source holds a connection with, by pid, and those it could not talk to. A session counts once
 * it is open and announced: one still opening gives no facts (its probe's moment says nothing of its
 * liveness). A closed one leaves its key as gone, so the connection rules say how it ended; a failure is
 * remembered with its reason while that pid still runs the editor, and not tried again until `/ide`. One open
 * per pid at a time: a scan during a re-check gets the answer of the open under way instead of a second session.
 */
export class SessionTable<S extends TableSession, F> {
	readonly sessions = new Map<number, S>();
	readonly failures = new Map<number, F>();
	private readonly gone = new GoneKeys();
	private readonly announced = new WeakSet<S>();
	/** Each session's newest valid reading: a state rejected after it leaves the guard what the editor last said. */
	private readonly lastValid = new WeakMap<S, EditorReading>();
	private readonly opening = new Map<number, Promise<unknown>>();
	private closedNow = false;

	constructor(
		private readonly origin: EditorOrigin,
		private readonly hooks: SessionTableHooks,
	) {}

	get closed(): boolean {
		return this.closedNow;
	}

	sessionOf(key: string): S | undefined {
		const pid = pidOfKey(key);
		return pid === undefined ? undefined : this.sessions.get(pid);
	}

	openSessions(): S[] {
		return [...this.sessions.values()].filter((session) => session.isOpen);
	}

	/** `readingOf`: the session's reading with what only the source knows (blocked, enclosing). */
	facts(key: string, readingOf: (session: S) => EditorReading | undefined): EditorFacts | undefined {
		const session = this.sessionOf(key);
		if (!session || !this.announced.has(session))
			return this.gone.has(key) ? { origin: this.origin, listed: false, alive: false } : undefined;
		const reading = readingOf(session);
		const problem = session.report().problem;
		const lastValid = this.lastValid.get(session);
		return {
			origin: this.origin,
			listed: session.isOpen,
			alive: session.isOpen,
			...(reading && { reading, writtenAtSeconds: reading.writtenAtSeconds }),
			...(!reading && problem !== undefined && { rejection: problem }),
			...(!reading && lastValid && { lastValid }),
		};
	}

	/** The open under way for that pid, or `open` started now; the same answer for every caller meanwhile. */
	async openOnce<T>(pid: number, open: () => Promise<T>): Promise<T> {
		const pending = this.opening.get(pid) as Promise<T> | undefined;
		if (pending) return pending;
		const opening = open();
		this.opening.set(pid, opening);
		try {
			return await opening;
		} finally {
			this.opening.delete(pid);
		}
	}

	/** A session being opened: kept under its pid, not yet counted. */
	add(session: S): void {
		this.sessions.set(session.found.pid, session);
	}

	/** It opened and described itself: counted, told to the event log, no longer a failure nor gone. */
	opened(session: S, detail: string): void {
		const pid = session.found.pid;
		this.announced.add(session);
		this.failures.delete(pid);
		this.gone.delete(pidKey(pid));
		this.hooks.event({ kind: "app-found", label: this.hooks.label(pid), detail });
	}

	/** It did not open: dropped unless a newer session of that pid took its place meanwhile. */
	notOpened(session: S): void {
		if (this.sessions.get(session.found.pid) === session) this.sessions.delete(session.found.pid);
	}

	/** A new reading of a session (a push, a read): the newest valid one is kept for the guard. */
	readingChanged(session: S): void {
		const reading = session.reading();
		if (reading) this.lastValid.set(session, reading);
	}

	/** Its connection closed (the editor quit, was killed): gone, told once, and only for one that was counted. */
	closedBy(session: S): void {
		const pid = session.found.pid;
		if (this.closedNow || this.sessions.get(pid) !== session || !this.announced.has(session)) return;
		this.sessions.delete(pid);
		this.gone.add(pidKey(pid));
		this.hooks.event({ kind: "app-gone", label: this.hooks.label(pid) });
		this.hooks.changed();
	}

	fail(pid: number, failure: F): void {
		if (!this.closedNow) this.failures.set(pid, failure);
	}

	/** After a scan: the failures of pids that no longer run the editor are forgotten (the records never grow). */
	keepFailuresOf(running: ReadonlySet<number>): void {
		for (const pid of this.failures.keys()) if (!running.has(pid)) this.failures.delete(pid);
	}

	/** Asked by hand (`/ide`): every editor pi could not talk to is tried again. */
	clearFailures(): void {
		this.failures.clear();
	}

	async close(): Promise<void> {
		this.closedNow = true;
		await Promise.all([...this.sessions.values()].map((session) => session.close()));
		this.sessions.clear();
	}
}
