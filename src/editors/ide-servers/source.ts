import type { IdeServersMode } from "../../settings/core/settings.ts";
import { runInBackground } from "../../shared/background.ts";
import { PROMPT_FLUSH_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { EditorFacts, ListedEditor } from "../core/editor.ts";
import type { EditorChannel } from "../diff-channels.ts";
import type { EditorAsked, EditorSource, SourceHooks } from "../editor-source.ts";
import { Generation } from "../kit/core/generation.ts";
import { GoneKeys } from "../kit/core/gone-keys.ts";
import { phaseBeforeStart } from "../kit/core/source-phase.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";
import { EditorPathsCache } from "../real-paths.ts";
import { AskingConnections } from "./asking-connections.ts";
import { type LockDirEnv, lockDirPlan } from "./core/lock-dirs.ts";
import { type IdeServersReport, ideServersNoMatchLine, ideServersStatusLines, type Mention } from "./core/status.ts";
import { ideServerDiffChannel } from "./diff-channel.ts";
import { keyOf, listedEditor, lockReport, usableLocks } from "./listing.ts";
import { LockTable } from "./lock-table.ts";
import { LockDirWatchers } from "./lock-watch.ts";
import type { ReadLock } from "./lockfiles.ts";
import { ServerConnections } from "./server-connections.ts";

export interface IdeServerSourceOptions {
	/** `"pi-ide": { "ideServers": … }`, with where it was said. */
	mode: { mode: IdeServersMode; source: string };
	uid: number;
	platform: string;
	/** How pi asks the system about processes (`/proc`, or `ps` and `lsof`). */
	facts: ProcessFacts;
	/** The home lock dirs are found under: the test's root in tests. */
	home: string;
	env: LockDirEnv & { CLAUDE_CODE_SSE_PORT?: string };
	/** The connected editor's key: only that IDE server is connected to. */
	connectedKey: () => string | undefined;
	/** The same key read another way (a state file, Neovim's own server): that one editor, not two. */
	claimedElsewhere: (key: string) => string | undefined;
	/** The connected editor's "send to agent" (`at_mentioned`). */
	mentioned: (key: string, mention: Mention) => void;
	/** The project's real path: which of one process's lockfiles is its editor. */
	projectDir: () => string;
}

/**
 * The IDE servers of this user (JetBrains' Claude Code plugin, Anthropic's VS Code extension, claudecode.nvim, …):
 * found by their lockfiles (watched, never polled), trusted by the port's owner, listed like every editor and
 * connected only to the one the user picked (or, with `"auto"`, the one the rules pick), since a server may keep
 * one client and pi must not cut another agent off.
 */
export class IdeServerSource implements EditorSource {
	private phase: IdeServersReport["phase"] = "starting";
	private readonly table: LockTable;
	private readonly watchers: LockDirWatchers;
	private readonly connections: ServerConnections;
	private readonly asking: AskingConnections;
	private readonly gone = new GoneKeys();
	/** Each listed editor with the lockfile it was read from. */
	private readonly listing = new Map<string, { editor: ListedEditor; lock: ReadLock }>();
	/** One per listed editor: a push of one server resolves no path of another's again. */
	private readonly paths = new Map<string, EditorPathsCache>();
	/** A rebuild that finished after a newer one started is dropped. */
	private readonly rebuilds = new Generation();
	readonly lost = false;

	constructor(
		private readonly options: IdeServerSourceOptions,
		private readonly hooks: SourceHooks,
	) {
		this.table = new LockTable(lockDirPlan(options.env, options.home), options.uid, options.facts);
		this.watchers = new LockDirWatchers((dir) => this.rescan(dir));
		this.asking = new AskingConnections({
			clock: hooks.clock,
			uid: options.uid,
			facts: options.facts,
			requests: hooks.requests,
		});
		this.connections = new ServerConnections({
			clock: hooks.clock,
			uid: options.uid,
			facts: options.facts,
			...(hooks.requests && { requests: hooks.requests }),
			connectedKey: options.connectedKey,
			mentioned: options.mentioned,
			event: hooks.event,
			changed: () => this.rebuild(),
			stillThere: async (key, lock) => {
				await this.table.read(lock.plan.path);
				return this.usableLocks().some((candidate) => keyOf(candidate) === key);
			},
		});
	}

	private get ssePort(): number | undefined {
		const port = Number(this.options.env.CLAUDE_CODE_SSE_PORT);
		return Number.isInteger(port) && port > 0 && port <= 65_535 ? port : undefined;
	}

	async start(): Promise<void> {
		const notStarting = phaseBeforeStart(this.options.mode.mode !== "off", this.options.platform);
		if (notStarting) {
			this.phase = notStarting;
			return;
		}
		// Watched before the first read: a lockfile written during it is seen.
		this.watchers.watch(this.table.plans.map((plan) => plan.path));
		await this.table.readAll();
		this.phase = "watching";
		await this.rebuild();
		// A session of pi before this one (`/new`, `/resume`, `/reload`) left the connection to an IDE server.
		this.follow(false);
	}

	async close(): Promise<void> {
		this.watchers.close();
		this.asking.close();
		await this.connections.close();
	}

	editors(): ListedEditor[] {
		return [...this.listing.values()].map(({ editor }) => editor);
	}

	facts(key: string): EditorFacts | undefined {
		const ended = this.listing.has(key) ? this.connections.endedOf(key) : undefined;
		if (ended && this.options.connectedKey() === key)
			return { origin: "ide-server", listed: true, alive: true, ended: ended.end, rejection: ended.reason };
		const listed = this.listing.get(key)?.editor;
		if (listed)
			return {
				origin: "ide-server",
				listed: true,
				alive: true,
				reading: listed,
				writtenAtSeconds: listed.writtenAtSeconds,
			};
		return this.gone.has(key) ? { origin: "ide-server", listed: false, alive: false } : undefined;
	}

	/**
	 * A listed server's process gone (kill -9 leaves its lockfile): its dir is read again. One read of
	 * `/proc/<pid>/stat` (or `kill(pid, 0)` where `ps` answers) per server pi is not connected to; the one it is connected to is not read every tick: its
	 * process's exit closes the socket (as a Neovim's does), and once closed it is checked here again.
	 */
	checkLiveness(): boolean {
		let died = false;
		for (const lock of this.table.all()) {
			const key = keyOf(lock);
			if (key !== undefined && this.connections.of(key)?.session.isOpen) continue;
			if (lock.holder && !this.options.facts.runsNow(lock.holder.pid, lock.holder.startSeconds)) {
				died = true;
				void runInBackground("ide server rescan", () => this.rescan(lock.plan.path));
			}
		}
		return died;
	}

	/** Also drops the connection when another source now reads that editor (the shipped client's file appeared). */
	async recheck(): Promise<void> {
		this.watchers.recheck();
		const usable = this.usableLocks().map((lock) => keyOf(lock));
		if (usable.length !== this.listing.size || usable.some((key) => !this.listing.has(key as string)))
			await this.rebuild();
		this.follow(false);
	}

	async lookAgain(): Promise<void> {
		if (this.phase !== "watching") return;
		// Asked by hand: a server that refused pi, or closed pi's connection, may be tried again when picked.
		this.connections.forgetRefusals();
		await this.table.readAll();
		this.connections.forgetEndedOf(this.table.all());
		await this.rebuild();
	}

	isPending(key: string): boolean {
		const connection = this.connections.of(key);
		if (!connection) return false;
		const { opening, session } = connection;
		return opening !== undefined || session.asksBeforePrompt || session.counting !== undefined;
	}

	/**
	 * A server that pushes nothing on a file switch is asked what it shows, a file just switched to is counted
	 * on disk (the caller caps the wait).
	 */
	async flush(key: string): Promise<void> {
		const connection = this.connections.of(key);
		if (!connection) return;
		if (connection.opening) await connection.opening;
		else if (connection.session.asksBeforePrompt) await connection.session.refresh(PROMPT_FLUSH_TIMEOUT_MS);
		await connection.session.counting;
		await this.rebuild();
	}

	async unsavedNow(key: string, deadlineMs: number, target?: string): Promise<readonly string[] | undefined> {
		const connection = this.connections.of(key);
		return connection?.opening === undefined ? connection?.session.unsavedNow(deadlineMs, target) : undefined;
	}

	/**
	 * The connected key changed (`picked`), or pi looks whether its connection is the one it should hold (a new
	 * session of pi connected to it already, a re-check): its server is connected to, every other one closed.
	 */
	follow(picked = true): void {
		if (this.phase !== "watching") return;
		const key = this.options.connectedKey();
		const lock = key === undefined ? undefined : this.usableLocks().find((candidate) => keyOf(candidate) === key);
		this.connections.follow(key, lock, picked);
		this.followAsking();
	}

	/** The servers kept only to be asked follow what the lock dirs hold now (read again, or a re-check). */
	private followAsking(): void {
		this.asking.follow(this.table.all().filter((each) => this.isClaimed(each)));
	}

	/** A usable lockfile of an editor another source reads (a pi-ide.nvim server of a Neovim read natively). */
	private isClaimed(lock: ReadLock): boolean {
		const key = keyOf(lock);
		return lock.unused === undefined && key !== undefined && this.options.claimedElsewhere(key) !== undefined;
	}

	diffChannel(editor: EditorAsked): EditorChannel | undefined {
		return editor.origin === "ide-server" ? ideServerDiffChannel(this.connections.of(editor.key)?.session) : undefined;
	}

	/** The connected server is connected to and pi's other connections closed (paused or not: it reads nothing). */
	async connectionChanged(): Promise<void> {
		this.follow();
	}

	statusLines(nowSeconds: number, projectDir: string): string[] {
		return ideServersStatusLines(this.report(), nowSeconds, projectDir);
	}

	noMatchLine(): string | undefined {
		return ideServersNoMatchLine(this.report());
	}

	report(): IdeServersReport {
		return {
			phase: this.phase,
			mode: this.options.mode.mode,
			source: this.options.mode.source,
			...(this.ssePort !== undefined && { ssePort: this.ssePort }),
			dirs: this.table.plans.map((plan) => ({
				...plan,
				verdict: this.table.verdict(plan.path),
				...this.watchers.problemOf(plan.path),
			})),
			locks: this.table.all().map((lock) => {
				const key = keyOf(lock);
				const listed = key === undefined ? undefined : this.listing.get(key);
				return lockReport(lock, {
					connection: key === undefined ? undefined : this.connections.of(key),
					elsewhere: key === undefined ? undefined : this.options.claimedElsewhere(key),
					asked: key === undefined ? undefined : this.asking.stateOf(key),
					ended: key === undefined ? undefined : this.connections.endedOf(key)?.reason,
					ssePort: this.ssePort,
					...(listed?.lock === lock && { editor: listed.editor }),
					...(listed && listed.lock !== lock && { sameProcessAs: listed.lock.name }),
				});
			}),
		};
	}

	private usableLocks(): ReadLock[] {
		return usableLocks(this.table.all(), this.options.claimedElsewhere, this.options.projectDir());
	}

	private async rescan(dir: string): Promise<void> {
		await this.table.read(dir);
		this.connections.forgetEndedOf(this.table.all());
		await this.rebuild();
		this.followAsking();
	}

	private pathsCacheOf(key: string): EditorPathsCache {
		let cache = this.paths.get(key);
		if (!cache) {
			cache = new EditorPathsCache();
			this.paths.set(key, cache);
		}
		return cache;
	}

	/** Every usable lockfile as an editor, its state from its connection when there is one. */
	private async rebuild(): Promise<void> {
		const rebuild = this.rebuilds.start();
		const built = new Map<string, { editor: ListedEditor; lock: ReadLock }>();
		for (const lock of this.usableLocks()) {
			const key = keyOf(lock) as string;
			const connection = this.connections.of(key);
			const listed = await listedEditor(lock, {
				// Nothing the server said counts before its port is proven again and its starting state read.
				session: connection?.opening === undefined ? connection?.session : undefined,
				nowSeconds: this.hooks.clock.nowSeconds(),
				ssePort: this.ssePort,
				byHand: this.options.mode.mode !== "auto" || this.connections.endedOf(key) !== undefined,
				pathsOf: (state) => this.pathsCacheOf(key).pathsOf(state),
			});
			if (!rebuild.isNewest()) return;
			built.set(key, { editor: listed, lock });
		}
		for (const key of this.listing.keys()) if (!built.has(key)) this.gone.add(key);
		for (const key of built.keys()) this.gone.delete(key);
		this.listing.clear();
		for (const [key, listed] of built) this.listing.set(key, listed);
		for (const key of this.paths.keys()) if (!built.has(key)) this.paths.delete(key);
		this.hooks.changed();
	}
}
