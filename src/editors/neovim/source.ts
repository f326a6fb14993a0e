import { realpath } from "node:fs/promises";
import { runInBackground } from "../../shared/background.ts";
import type { Cancel } from "../../shared/core/clock.ts";
import { NEOVIM_SCAN_DELAYS_MS } from "../../shared/core/timing.ts";
import type { EditorFacts, EditorReading, ListedEditor } from "../core/editor.ts";
import { pidKey, pidOfKey } from "../core/editor-key.ts";
import type { DirWatchers } from "../dir-watch.ts";
import type { EditorSource, SourceHooks } from "../editor-source.ts";
import { pushesWanted } from "../kit/core/push-choice.ts";
import type { NeovimReport } from "./core/status.ts";
import { enclosingNeovimAddress } from "./core/unix-sockets.ts";
import type { NeovimDiffChannel } from "./diff-channel.ts";
import { type FoundNeovim, scanForNeovims } from "./discovery.ts";
import { runtimeDirs, runtimeDirWatchers } from "./runtime-dirs.ts";
import { NeovimSession, type ReloadResult } from "./session.ts";

export interface NeovimSourceOptions {
	/** `"pi-ide": { "neovim": false }` turns the source off, with where that was said. */
	enabled: { on: boolean; source: string };
	uid: number;
	platform: string;
	/** `$NVIM` / `$NVIM_LISTEN_ADDRESS` of pi's own environment, and where new sockets appear. */
	env: { NVIM?: string; NVIM_LISTEN_ADDRESS?: string; XDG_RUNTIME_DIR?: string; TMPDIR?: string };
	/** The project's real path, as the controller judges tiers: pushes come only from the best tier's Neovims. */
	projectDir: () => string;
	/** The connected editor's key: a Neovim picked by hand (`/ide all`) pushes whatever its tier. */
	connectedKey: () => string | undefined;
	/** Test-only (`PI_IDE_TEST_PROC_SCOPE`): only Neovims started with the same value are seen. */
	testScope?: string;
}

/** Closed sessions' keys are remembered this many at most: how a connection to them ended. */
const MAX_REMEMBERED_GONE = 64;

/**
 * Every Neovim of this user, read over the server each one runs: found in `/proc` (at start, on `/ide`, and
 * when something named `nvim*` appears in a runtime dir), kept connected, pushing from those that matter.
 * A closed socket is the death signal: nothing here polls.
 */
export class NeovimSource implements EditorSource {
	private readonly sessions = new Map<number, NeovimSession>();
	private readonly gone = new Set<string>();
	/** Sessions told to the event log as found: only those are told as gone. */
	private readonly announced = new WeakSet<NeovimSession>();
	/** Each session's newest valid reading: a snapshot rejected after it leaves the guard what Neovim last said. */
	private readonly lastValid = new WeakMap<NeovimSession, EditorReading>();
	private readonly failures = new Map<number, { socket: string; reason: string }>();
	private readonly watchers: DirWatchers;
	private phase: NeovimReport["phase"] = "starting";
	private enclosing?: { address: string; real?: string };
	private scanning?: Promise<void>;
	private rescanQueued = false;
	private cancelScan?: Cancel;
	/** Which of `NEOVIM_SCAN_DELAYS_MS` the scan running now followed (0: a first look). */
	private attempt = 0;
	private paused = false;
	private closed = false;
	readonly lost = false;

	constructor(
		private readonly options: NeovimSourceOptions,
		private readonly hooks: SourceHooks,
	) {
		this.watchers = runtimeDirWatchers(() => this.scanSoon(0));
	}

	async start(): Promise<void> {
		if (!this.options.enabled.on) {
			this.phase = "off";
			return;
		}
		if (this.options.platform !== "linux") {
			this.phase = "no-proc";
			return;
		}
		const address = enclosingNeovimAddress(this.options.env);
		if (address !== undefined) this.enclosing = { address, real: await realpath(address).catch(() => undefined) };
		// Watched before the first scan: a Neovim starting during it is seen.
		this.watchers.watch(runtimeDirs(this.options.env));
		await this.scan();
		if (this.phase === "no-proc") this.watchers.close();
	}

	async close(): Promise<void> {
		this.closed = true;
		this.cancelScan?.();
		this.watchers.close();
		await this.scanning;
		await Promise.all([...this.sessions.values()].map((session) => session.close()));
		this.sessions.clear();
	}

	editors(): ListedEditor[] {
		const listed: ListedEditor[] = [];
		for (const session of this.sessions.values()) {
			const reading = this.readingOf(session);
			if (reading && session.hasUi && session.isOpen)
				listed.push({ ...reading, key: pidKey(session.found.pid), alive: true });
		}
		return listed;
	}

	facts(key: string): EditorFacts | undefined {
		const session = this.sessionOf(key);
		if (!session) return this.gone.has(key) ? { origin: "neovim", listed: false, alive: false } : undefined;
		const reading = this.readingOf(session);
		const report = session.report();
		return {
			origin: "neovim",
			listed: session.isOpen,
			alive: session.isOpen,
			...(reading && { reading, writtenAtSeconds: reading.writtenAtSeconds }),
			...(!reading && report.problem !== undefined && { rejection: report.problem }),
			...(!reading && this.lastValid.has(session) && { lastValid: this.lastValid.get(session) }),
		};
	}

	/** The socket's close says a Neovim died; nothing to ask. */
	checkLiveness(): boolean {
		return false;
	}

	/**
	 * Every few ticks, a Neovim that was blocking when pi asked is asked again: to describe itself, or to start
	 * the pushes it was meant to. One `nvim_get_mode` while it still blocks; nothing for the others.
	 */
	async recheck(): Promise<void> {
		this.watchers.recheck();
		const undescribed = [...this.sessions.values()].filter((session) => !session.reading() && session.isOpen);
		await Promise.all(undescribed.map((session) => session.refresh()));
		await this.decidePushes();
	}

	async lookAgain(): Promise<void> {
		if (this.phase !== "watching") return;
		// Asked by hand: a Neovim pi could not talk to before is tried again.
		this.failures.clear();
		await this.scan();
		await Promise.all([...this.sessions.values()].map((session) => session.refresh()));
		await this.decidePushes();
	}

	isPending(): boolean {
		return false;
	}

	async flush(): Promise<void> {}

	/** No pushes while pi is disconnected by `/ide off`: nothing of pi stays in any Neovim. */
	async setPaused(paused: boolean): Promise<void> {
		this.paused = paused;
		await this.decidePushes();
	}

	/** The files that Neovim holds unsaved, asked now when it answers in time, else as it last pushed them. */
	async unsavedNow(key: string, deadlineMs: number): Promise<readonly string[] | undefined> {
		return this.sessionOf(key)?.unsavedNow(deadlineMs);
	}

	async reload(key: string, realPath: string): Promise<ReloadResult | undefined> {
		return this.sessionOf(key)?.reload(realPath);
	}

	/** What a review needs of that key's Neovim; undefined when pi holds no open session with it. */
	diffChannel(key: string): NeovimDiffChannel | undefined {
		const session = this.sessionOf(key);
		return session?.diffChannel(this.isEnclosing(session.found));
	}

	report(): NeovimReport {
		return {
			phase: this.phase,
			source: this.options.enabled.source,
			...(this.enclosing && { enclosing: this.enclosing.address }),
			enclosingFound: [...this.sessions.values()].some((session) => this.isEnclosing(session.found)),
			neovims: [...this.sessions.values()].map((session) => ({
				...session.report(),
				enclosing: this.isEnclosing(session.found),
				...(session.reading() && { editor: session.reading() }),
			})),
			failures: [...this.failures].map(([pid, failure]) => ({ pid, ...failure })),
			watchProblems: this.watchers
				.reports()
				.flatMap(({ dir, problem }) => (problem === undefined ? [] : [{ dir, problem }])),
		};
	}

	/** The session's reading with what only the source knows: blocking now, the Neovim pi runs in. */
	private readingOf(session: NeovimSession): EditorReading | undefined {
		const reading = session.reading();
		return (
			reading && {
				...reading,
				...(session.isBlocking && { blocked: true }),
				...(this.isEnclosing(session.found) && { enclosing: true }),
			}
		);
	}

	private sessionOf(key: string): NeovimSession | undefined {
		const pid = pidOfKey(key);
		return pid === undefined ? undefined : this.sessions.get(pid);
	}

	private isEnclosing(found: FoundNeovim): boolean {
		return this.enclosing !== undefined && [this.enclosing.address, this.enclosing.real].includes(found.socket);
	}

	/** One scan at a time; a request during one runs once more after it (a second Neovim just started). */
	private scan(): Promise<void> {
		if (this.scanning) {
			this.rescanQueued = true;
			return this.scanning;
		}
		// Never rejects: a scan that throws is recorded for /ide status, and the source goes on with what it has.
		this.scanning = runInBackground("neovim scan", () => this.scanOnce()).finally(() => {
			this.scanning = undefined;
			if (this.rescanQueued && !this.closed) {
				this.rescanQueued = false;
				void this.scan();
			}
		});
		return this.scanning;
	}

	private async scanOnce(): Promise<void> {
		const scan = await scanForNeovims(this.options.uid, this.options.testScope);
		if (!scan) {
			this.phase = "no-proc";
			return;
		}
		if (this.phase === "starting") this.phase = "watching";
		// A Neovim pi could not talk to is remembered while its pid still runs nvim: the records never grow.
		const running = new Set([...scan.found.map((found) => found.pid), ...scan.withoutSocket]);
		for (const pid of this.failures.keys()) if (!running.has(pid)) this.failures.delete(pid);
		await Promise.all(scan.found.map((found) => this.connect(found)));
		await this.decidePushes();
		// A Neovim just started may not listen yet (0.7): looked at again after the next delays, then left to `/ide`.
		if (scan.withoutSocket.length > 0 && this.attempt < NEOVIM_SCAN_DELAYS_MS.length - 1)
			this.scanSoon(this.attempt + 1);
		else this.attempt = 0;
	}

	private async connect(found: FoundNeovim): Promise<void> {
		const known = this.sessions.get(found.pid);
		if (known?.isOpen && known.found.startTicks === found.startTicks) return;
		if (this.failures.get(found.pid)?.socket === found.socket) return;
		const session = new NeovimSession(found, {
			clock: this.hooks.clock,
			changed: () => this.onSessionChanged(session),
			closed: (closed) => this.onClosed(closed),
		});
		this.sessions.set(found.pid, session);
		// Closed already (a socket that spoke nonsense): a failure with its reason, never an editor found.
		if ((await session.open()) && session.isOpen) {
			this.announced.add(session);
			this.failures.delete(found.pid);
			this.hooks.event({ kind: "app-found", label: `nvim ${found.pid}`, detail: found.socket });
			this.gone.delete(pidKey(found.pid));
		} else {
			if (this.sessions.get(found.pid) === session) this.sessions.delete(found.pid);
			this.failures.set(found.pid, { socket: found.socket, reason: session.report().problem ?? "unknown" });
		}
		if (this.closed) await session.close();
	}

	private scanSoon(attempt: number): void {
		if (this.closed || this.cancelScan) return;
		this.cancelScan = this.hooks.clock.after(NEOVIM_SCAN_DELAYS_MS[attempt] ?? 0, () => {
			this.cancelScan = undefined;
			this.attempt = attempt;
			void this.scan();
		});
	}

	private onSessionChanged(session: NeovimSession): void {
		const reading = session.reading();
		if (reading) this.lastValid.set(session, reading);
		void runInBackground("neovim pushes", () => this.decidePushes());
		this.hooks.changed();
	}

	private onClosed(session: NeovimSession): void {
		if (this.sessions.get(session.found.pid) !== session || !this.announced.has(session)) return;
		this.sessions.delete(session.found.pid);
		this.gone.add(pidKey(session.found.pid));
		if (this.gone.size > MAX_REMEMBERED_GONE) this.gone.delete(this.gone.values().next().value as string);
		this.hooks.event({ kind: "app-gone", label: `nvim ${session.found.pid}` });
		this.hooks.changed();
	}

	/** Pushes from the Neovims that matter (editors/core/push-choice.ts); the others are read again on `/ide`. */
	private async decidePushes(): Promise<void> {
		const sessions = [...this.sessions.values()].filter((session) => session.isOpen);
		const candidates = sessions.map((session) => ({
			paths: session.reading()?.paths,
			hasUi: session.hasUi,
			enclosing: this.isEnclosing(session.found),
			connected: this.options.connectedKey() === pidKey(session.found.pid),
		}));
		const wanted = pushesWanted(candidates, this.options.projectDir(), this.paused || this.closed);
		await Promise.all(
			sessions.map((session, index) => {
				const on = wanted[index];
				return on === undefined ? undefined : session.setPushing(on);
			}),
		);
	}
}
