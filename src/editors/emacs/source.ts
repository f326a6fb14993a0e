import { runInBackground } from "../../shared/background.ts";
import { EMACS_SCAN_DELAYS_MS } from "../../shared/core/timing.ts";
import { pidKey } from "../core/editor-key.ts";
import type { EditorChannel, EmacsDiffChannel } from "../diff-channels.ts";
import type { DirWatchers } from "../dir-watch.ts";
import type { DiskFollowed } from "../editor-asks.ts";
import type { EditorAsked, EditorSource, SourceHooks } from "../editor-source.ts";
import { phaseBeforeStart } from "../kit/core/source-phase.ts";
import { ScanSchedule } from "../kit/scan-schedule.ts";
import { ServerSource } from "../kit/server-source.ts";
import type { SessionTable } from "../kit/session-table.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";
import { EmacsConnections } from "./connections.ts";
import { asksWanted } from "./core/asks.ts";
import { runsInsideEmacs } from "./core/emacs-process.ts";
import { serverSocketDirs } from "./core/server-sockets.ts";
import { type EmacsReport, type EmacsUnread, emacsNoMatchLine, emacsStatusLines } from "./core/status.ts";
import { type EmacsFacts, scanForEmacsen } from "./discovery.ts";
import { PushListener } from "./push/push-listener.ts";
import { serverDirWatchers } from "./server-dirs.ts";
import type { EmacsSession } from "./session.ts";

export interface EmacsSourceOptions {
	/** `"pi-ide": { "emacs": false }` turns the source off, with where that was said. */
	enabled: { on: boolean; source: string };
	uid: number;
	platform: string;
	/** `INSIDE_EMACS` of pi's environment, where server sockets appear, and where pi's own socket goes. */
	env: { INSIDE_EMACS?: string; XDG_RUNTIME_DIR?: string; TMPDIR?: string };
	/** The project's real path, as the controller judges tiers: pushes come only from the best tier's Emacsen. */
	projectDir: () => string;
	/** The connected editor's key: an Emacs picked by hand (`/ide all`) pushes whatever its tier. */
	connectedKey: () => string | undefined;
	/** Test-only (`PI_IDE_TEST_PROC_SCOPE`): only Emacsen started with the same value are seen. */
	testScope?: string;
	/** Test-only: the process whose ancestors hold the enclosing Emacs (pi's own by default). */
	selfPid?: number;
	/** How pi asks the system about processes (`/proc`, or `ps` and `lsof`). */
	facts: EmacsFacts & Pick<ProcessFacts, "ancestors" | "workingDirs" | "launchArgs" | "startOf">;
}

/**
 * Every Emacs of this user, read over the server each one runs: found in `/proc` (at start, on `/ide`, and when
 * an entry appears in a server socket dir), each given pi's elisp, which connects back to pi's own socket;
 * pushing from those that matter. That connection's close is the death signal: nothing here polls. A daemon
 * with no frame a user sees is connected too but offered only while a frame is open: its elisp pushes every
 * frame made or deleted, and each push decides again who pushes.
 */
export class EmacsSource extends ServerSource<EmacsSession, EmacsDiffChannel, EmacsReport> implements EditorSource {
	private readonly connections: EmacsConnections;
	/** What the last scan found that pi does not read: no server, a TCP one. */
	private unread: EmacsUnread[] = [];
	private readonly watchers: DirWatchers;
	private readonly scans: ScanSchedule;
	/** pi's socket the elisp connects back to: opened for the first Emacs pi reads (none while no Emacs runs a server). */
	private listener?: Promise<PushListener | string>;
	/** What opening it gave, once it did (for `/ide status`). */
	private listenerNow?: PushListener | string;
	/** pi's ancestors, when `INSIDE_EMACS` says pi runs in an Emacs: the one among them is the editor meant. */
	private ancestors?: ReadonlySet<number>;
	private phase: EmacsReport["phase"] = "starting";

	constructor(
		private readonly options: EmacsSourceOptions,
		private readonly hooks: SourceHooks,
	) {
		super("emacs", options, { statusLines: emacsStatusLines, noMatchLine: emacsNoMatchLine });
		this.connections = new EmacsConnections({
			clock: hooks.clock,
			event: hooks.event,
			processOf: async (pid, maxArgs) => {
				const [cwds, args] = await Promise.all([
					this.options.facts.workingDirs([pid]),
					this.options.facts.launchArgs([pid], maxArgs),
				]);
				const [cwd, argv] = [cwds.get(pid), args.get(pid)];
				return { ...(cwd !== undefined && { cwd }), ...(argv !== undefined && { argv }) };
			},
			changed: () => {
				void runInBackground("emacs pushes", () => this.decidePushes());
				this.hooks.changed();
			},
			...(hooks.asks && { asks: hooks.asks }),
			projectDir: () => this.options.projectDir(),
		});
		const scan = (followUp: (() => void) | undefined) => this.scanOnce(followUp);
		this.scans = new ScanSchedule("emacs scan", scan, hooks.clock, EMACS_SCAN_DELAYS_MS);
		this.watchers = serverDirWatchers(() => this.scans.soon());
	}

	async start(): Promise<void> {
		const notStarting = phaseBeforeStart(this.options.enabled.on, this.options.platform);
		if (notStarting) {
			this.phase = notStarting;
			return;
		}
		// The variable names no Emacs: the one among pi's ancestors is it (pi in its shell, vterm, eat).
		if (runsInsideEmacs(this.options.env))
			this.ancestors = new Set(await this.options.facts.ancestors(this.options.selfPid ?? process.pid));
		// Watched before the first scan: an Emacs starting its server during it is seen.
		this.watchers.watch(serverSocketDirs(this.options.env, this.options.uid, this.options.platform));
		await this.scans.now();
	}

	protected get table(): SessionTable<EmacsSession, unknown> {
		return this.connections.table;
	}

	async close(): Promise<void> {
		this.closing = true;
		this.watchers.close();
		await this.scans.close();
		await this.table.close();
		const listener = await this.listener;
		if (typeof listener === "object") await listener.close();
	}

	/** Every few ticks: dir watches re-armed; an Emacs busy when found, or not read yet, is asked again. */
	async recheck(): Promise<void> {
		this.watchers.recheck();
		for (const session of this.table.openSessions()) session.asks.retry();
		const unread = this.table.openSessions().filter((session) => !session.reading());
		const busy = this.connections.takeBusyFailures();
		await Promise.all([
			...unread.map((session) => session.refresh()),
			...busy.map((emacs) => this.connections.connect(emacs, this.pushSocket)),
		]);
		await this.decidePushes();
	}

	async lookAgain(): Promise<void> {
		if (this.phase !== "watching") return;
		this.table.clearFailures();
		for (const session of this.table.openSessions()) session.asks.retry();
		// A push socket pi could not make is tried again, asked by hand.
		if (typeof this.listenerNow === "string") {
			this.listener = undefined;
			this.listenerNow = undefined;
		}
		await this.scans.now();
		await this.readAllAgain();
	}

	/** A buffer of pi's own beside the file, over its server. */
	diffChannel(editor: EditorAsked): EditorChannel | undefined {
		const channel = this.sessionChannel(editor.key);
		return channel && { kind: "emacs", channel };
	}

	report(): EmacsReport {
		const listener = this.listenerNow;
		const sessions = [...this.table.sessions.values()];
		const unread = [...this.unread, ...this.connections.failed()];
		// Among those pi does not read too: the Emacs pi runs in may run no server, or a TCP one.
		const pids = [...sessions.map((session) => session.found.pid), ...unread.map((emacs) => emacs.pid)];
		const enclosingPid = pids.find((pid) => this.isEnclosing(pid));
		return {
			phase: this.phase,
			source: this.options.enabled.source,
			...(runsInsideEmacs(this.options.env) && { insideEmacs: this.options.env.INSIDE_EMACS }),
			...(enclosingPid !== undefined && { enclosingPid }),
			emacsen: sessions.map((session) => ({
				...session.report(),
				enclosing: this.isEnclosing(session.found.pid),
				...(session.reading() && { editor: session.reading() }),
			})),
			unread,
			listener:
				typeof listener === "string" ? { problem: listener } : { ...(listener && { socket: listener.socketPath }) },
			watchProblems: this.watchers
				.reports()
				.flatMap(({ dir, problem }) => (problem === undefined ? [] : [{ dir, problem }])),
		};
	}

	protected isEnclosing(pid: number): boolean {
		return this.ancestors?.has(pid) === true;
	}

	/** A run ended: the buffers of every Emacs with pi's commands follow the disk (asks.ts); what each left. */
	async followDisk(): Promise<DiskFollowed[]> {
		const followed = await Promise.all(
			this.table.openSessions().map(async (session) => {
				const notReloaded = await session.asks.followDisk();
				return notReloaded === undefined ? [] : [{ key: pidKey(session.found.pid), notReloaded }];
			}),
		);
		return followed.flat();
	}

	/** Who has pi's commands, then who pushes: each decision reads the same readings and connection. */
	protected override async decidePushes(): Promise<void> {
		// The commands first: an Emacs that pushes has them (pushes live is when a user's keys count).
		await this.decideAsks();
		await super.decidePushes();
	}

	/** Every Emacs read in the project gets pi's commands (core/asks.ts `asksWanted`), told whether pi is connected to it. */
	private async decideAsks(): Promise<void> {
		if (this.closing) return;
		const on = this.hooks.asks?.on() === true;
		const connectedKey = this.options.connectedKey();
		await Promise.all(
			this.table.openSessions().map((session) => {
				const connected = connectedKey === pidKey(session.found.pid);
				const candidate = {
					on,
					installed: session.asks.installed,
					paths: session.reading()?.paths,
					enclosing: this.isEnclosing(session.found.pid),
					connected,
				};
				if (!on) session.asks.off();
				return asksWanted(candidate, this.options.projectDir())
					? session.asks.want(connected, candidate.enclosing)
					: undefined;
			}),
		);
	}

	/** pi's push socket, opened once (lazily); never after the source closed. */
	private readonly pushSocket = (): Promise<PushListener | string> => {
		if (this.closing) return Promise.resolve("pi-ide is closing");
		this.listener ??= PushListener.open(
			{ XDG_RUNTIME_DIR: this.options.env.XDG_RUNTIME_DIR },
			this.options.uid,
			(pid) => this.options.facts.startOf(pid),
		).then((listener) => {
			this.listenerNow = listener;
			return listener;
		});
		return this.listener;
	};

	private async scanOnce(followUp: (() => void) | undefined): Promise<void> {
		const found = await scanForEmacsen(this.options.uid, this.options.testScope, this.options.facts);
		if (this.phase === "starting") this.phase = "watching";
		// The system could not be asked (the reason is in /ide status's Processes line): the next change asks again.
		if (!found) return;
		this.table.keepFailuresOf(new Set(found.map((emacs) => emacs.pid)));
		const unread: EmacsUnread[] = [];
		await Promise.all(
			found.map(async (emacs) => {
				const why = await this.connections.connect(emacs, this.pushSocket);
				if (why) unread.push({ pid: emacs.pid, daemon: emacs.daemon, why });
			}),
		);
		this.unread = unread.sort((a, b) => a.pid - b.pid);
		await this.decidePushes();
		// After a dir event: a socket just bound may not listen yet, so an Emacs found with none is looked at
		// again after the next delays (at start, one running no server is the common case: not looked at again).
		if (found.some((emacs) => emacs.socket === undefined && !this.table.sessions.has(emacs.pid))) followUp?.();
	}
}
