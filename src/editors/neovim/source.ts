import { realpath } from "node:fs/promises";
import { runInBackground } from "../../shared/background.ts";
import { FOLLOW_DISK_MS, NEOVIM_SCAN_DELAYS_MS } from "../../shared/core/timing.ts";
import { pidKey } from "../core/editor-key.ts";
import { scoreTier } from "../core/tiers.ts";
import type { EditorChannel, NeovimDiffChannel } from "../diff-channels.ts";
import type { DirWatchers } from "../dir-watch.ts";
import type { DiskFollowed } from "../editor-asks.ts";
import type { EditorAsked, EditorSource, SourceHooks } from "../editor-source.ts";
import { phaseBeforeStart } from "../kit/core/source-phase.ts";
import { ScanSchedule } from "../kit/scan-schedule.ts";
import { ServerSource } from "../kit/server-source.ts";
import { SessionTable } from "../kit/session-table.ts";
import { sameStart } from "../processes/core/backend-choice.ts";
import { enclosingNeovimAddress, neovimRuntimeDirs, type RuntimeDir } from "./core/runtime-dirs.ts";
import { type NeovimReport, neovimNoMatchLine, neovimStatusLines } from "./core/status.ts";
import { type FoundNeovim, type NeovimFacts, scanForNeovims } from "./discovery.ts";
import { neovimUserName, runtimeDirWatchers } from "./runtime-dirs.ts";
import { NeovimSession } from "./session.ts";
import type { NeovimSuggestionOptions } from "./suggestions.ts";

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
	/** How pi asks the system about processes (`/proc`, or `ps` and `lsof`). */
	facts: NeovimFacts;
	/** The name in Neovim's `nvim.<user>` temp dir; this user's password entry's when unset. */
	userName?: string;
	/** Neovim's ghost text (drawn while suggestions are on and pushes are live); none: never drawn. */
	suggestions?: NeovimSuggestionOptions;
}

/** A Neovim pi could not talk to: the socket it tried, and why. */
interface NeovimFailure {
	socket: string;
	reason: string;
}

/**
 * Every Neovim of this user, read over the server each one runs: found in `/proc` (at start, on `/ide`, and
 * when a server or a Neovim's temp dir appears in a runtime dir), kept connected, pushing from those that matter.
 * A closed socket is the death signal: nothing here polls.
 */
export class NeovimSource extends ServerSource<NeovimSession, NeovimDiffChannel, NeovimReport> implements EditorSource {
	protected readonly table: SessionTable<NeovimSession, NeovimFailure>;
	private readonly runtimeDirs: RuntimeDir[];
	private readonly watchers: DirWatchers;
	private readonly scans: ScanSchedule;
	private phase: NeovimReport["phase"] = "starting";
	private enclosing?: { address: string; real?: string };
	private readonly stopListening: () => void;

	constructor(
		private readonly options: NeovimSourceOptions,
		private readonly hooks: SourceHooks,
	) {
		super("neovim", options, { statusLines: neovimStatusLines, noMatchLine: neovimNoMatchLine });
		this.table = new SessionTable("neovim", {
			label: (pid) => `nvim ${pid}`,
			event: hooks.event,
			changed: hooks.changed,
		});
		this.scans = new ScanSchedule(
			"neovim scan",
			(followUp) => this.scanOnce(followUp),
			hooks.clock,
			NEOVIM_SCAN_DELAYS_MS,
		);
		const userName = options.userName ?? neovimUserName(options.uid);
		this.runtimeDirs = neovimRuntimeDirs(options.env, options.platform, userName);
		this.watchers = runtimeDirWatchers(this.runtimeDirs, () => this.scans.soon());
		// `/ide suggestions on|off`: the ghost text started or stopped at once in every Neovim that pushes.
		this.stopListening =
			hooks.requests?.onStandingChange(
				() => void runInBackground("neovim suggestions", () => this.decideSuggestions()),
			) ?? (() => {});
	}

	async start(): Promise<void> {
		const notStarting = phaseBeforeStart(this.options.enabled.on, this.options.platform);
		if (notStarting) {
			this.phase = notStarting;
			return;
		}
		const address = enclosingNeovimAddress(this.options.env);
		if (address !== undefined) this.enclosing = { address, real: await realpath(address).catch(() => undefined) };
		// Watched before the first scan: a Neovim starting during it is seen.
		this.watchers.watch(this.runtimeDirs.map(({ dir }) => dir));
		await this.scans.now(this.lookSoon);
	}

	async close(): Promise<void> {
		this.closing = true;
		this.stopListening();
		this.watchers.close();
		await this.scans.close();
		await this.table.close();
	}

	/**
	 * Every few ticks, a Neovim that was blocking when pi asked is asked again: to describe itself, or to start
	 * the pushes it was meant to. One `nvim_get_mode` while it still blocks; nothing for the others.
	 */
	async recheck(): Promise<void> {
		this.watchers.recheck();
		const undescribed = this.table.openSessions().filter((session) => !session.reading());
		await Promise.all(undescribed.map((session) => session.refresh()));
		await this.decidePushes();
	}

	async lookAgain(): Promise<void> {
		if (this.phase !== "watching") return;
		// Asked by hand: a Neovim pi could not talk to before is tried again.
		this.table.clearFailures();
		await this.scans.now(this.lookSoon);
		await this.readAllAgain();
	}

	/** A tab page of pi's own over its server, whichever copy counts (a Neovim with the public plugin is one editor). */
	diffChannel(editor: EditorAsked): EditorChannel | undefined {
		const channel = this.sessionChannel(editor.key);
		return channel && { kind: "neovim", channel };
	}

	report(): NeovimReport {
		const sessions = [...this.table.sessions.values()];
		return {
			phase: this.phase,
			source: this.options.enabled.source,
			...(this.enclosing && { enclosing: this.enclosing.address }),
			enclosingFound: sessions.some((session) => this.isEnclosing(session.found.pid)),
			neovims: sessions.map((session) => ({
				...session.report(),
				enclosing: this.isEnclosing(session.found.pid),
				...(session.reading() && { editor: session.reading() }),
			})),
			failures: [...this.table.failures].map(([pid, failure]) => ({ pid, ...failure })),
			watchProblems: this.watchers
				.reports()
				.flatMap(({ dir, problem }) => (problem === undefined ? [] : [{ dir, problem }])),
		};
	}

	protected isEnclosing(pid: number): boolean {
		const socket = this.table.sessions.get(pid)?.found.socket;
		return (
			this.enclosing !== undefined &&
			socket !== undefined &&
			[this.enclosing.address, this.enclosing.real].includes(socket)
		);
	}

	/** Who pushes decided again, then whose ghost text is drawn (it rides on the pushes), then who takes asks. */
	protected override async decidePushes(): Promise<void> {
		// Closing: each session's leave takes all of pi's out of its Neovim, the pushes' group last.
		if (this.closing) return;
		await super.decidePushes();
		await this.decideSuggestions();
		await this.decideAsks();
	}

	/** Asks in every Neovim of the project (its tier, pi in its terminal, or connected), whether it pushes or not. */
	private async decideAsks(): Promise<void> {
		if (!this.hooks.asks) return;
		const projectDir = this.options.projectDir();
		const connected = this.options.connectedKey();
		await Promise.all(
			this.table.openSessions().map((session) => {
				const key = pidKey(session.found.pid);
				const paths = session.reading()?.paths;
				const inProject =
					key === connected ||
					this.isEnclosing(session.found.pid) ||
					(paths !== undefined && scoreTier(paths, projectDir).tier !== undefined);
				return session.decideAsks(inProject && session.hasUi, key === connected);
			}),
		);
	}

	/** A run ended: every Neovim that takes asks follows the disk, within one short budget. */
	async followDisk(): Promise<DiskFollowed[]> {
		const deadlineMs = this.hooks.clock.nowMs() + FOLLOW_DISK_MS;
		const sessions = this.table.openSessions();
		const counts = await Promise.all(sessions.map((session) => session.followDisk(deadlineMs)));
		return sessions.flatMap((session, index) => {
			const notReloaded = counts[index];
			return notReloaded === undefined ? [] : [{ key: pidKey(session.found.pid), notReloaded }];
		});
	}

	private async decideSuggestions(): Promise<void> {
		await Promise.all(this.table.openSessions().map((session) => session.decideSuggestions()));
	}

	/** A scan that finds a Neovim not listening yet (0.7 binds late) looks again after the next delays. */
	private readonly lookSoon = () => this.scans.soon(1);

	private async scanOnce(followUp: (() => void) | undefined): Promise<void> {
		const scan = await scanForNeovims(this.options.uid, this.options.testScope, this.options.facts);
		if (this.phase === "starting") this.phase = "watching";
		// The system could not be asked (the reason is in /ide status's Processes line): the next change asks again.
		if (!scan) return;
		// A Neovim pi could not talk to is remembered while its pid still runs nvim: the records never grow.
		this.table.keepFailuresOf(new Set([...scan.found.map((found) => found.pid), ...scan.withoutSocket]));
		await Promise.all(scan.found.map((found) => this.table.openOnce(found.pid, () => this.connect(found))));
		await this.decidePushes();
		// A Neovim just started may not listen yet (0.7): looked at again after the next delays, then left to `/ide`.
		if (scan.withoutSocket.length > 0) followUp?.();
	}

	private async connect(found: FoundNeovim): Promise<void> {
		const known = this.table.sessions.get(found.pid);
		if (known?.isOpen && sameStart(known.found.startSeconds, found.startSeconds)) return;
		if (this.table.failures.get(found.pid)?.socket === found.socket) return;
		const session = new NeovimSession(found, {
			clock: this.hooks.clock,
			changed: () => this.onSessionChanged(session),
			closed: (closed) => this.table.closedBy(closed),
			...(this.hooks.requests && { requests: this.hooks.requests }),
			...(this.options.suggestions && { suggestions: this.options.suggestions }),
			...(this.hooks.asks && {
				asks: { asks: this.hooks.asks, project: this.options.projectDir, piInside: () => this.isEnclosing(found.pid) },
			}),
		});
		this.table.add(session);
		// Closed already (a socket that spoke nonsense): a failure with its reason, never an editor found.
		if ((await session.open()) && session.isOpen) this.table.opened(session, found.socket);
		else {
			this.table.notOpened(session);
			this.table.fail(found.pid, { socket: found.socket, reason: session.report().problem ?? "unknown" });
		}
		if (this.table.closed) await session.close();
	}

	private onSessionChanged(session: NeovimSession): void {
		this.table.readingChanged(session);
		void runInBackground("neovim pushes", () => this.decidePushes());
		this.hooks.changed();
	}
}
