import type { IdeServersMode } from "../../settings/core/settings.ts";
import { runInBackground } from "../../shared/background.ts";
import { PROMPT_FLUSH_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { EditorFacts, ListedEditor } from "../core/editor.ts";
import type { EditorSource, SourceHooks } from "../editor-source.ts";
import { EditorPathsCache } from "../real-paths.ts";
import { authHeaders, type LockDirEnv, lockDirPlan } from "./core/lock-dirs.ts";
import type { IdeServersReport, Mention } from "./core/status.ts";
import { keyOf, listedEditor, lockReport } from "./listing.ts";
import { LockTable } from "./lock-table.ts";
import { LockDirWatchers } from "./lock-watch.ts";
import { holderRunning, type ReadLock, stillHeldBy } from "./lockfiles.ts";
import { IdeServerSession } from "./session.ts";

export interface IdeServerSourceOptions {
	/** `"pi-ide": { "ideServers": … }`, with where it was said. */
	mode: { mode: IdeServersMode; source: string };
	uid: number;
	platform: string;
	/** The home lock dirs are found under: the test's root in tests. */
	home: string;
	env: LockDirEnv & { CLAUDE_CODE_SSE_PORT?: string };
	/** The connected editor's key: only that IDE server is connected to. */
	connectedKey: () => string | undefined;
	/** The same key read another way (a state file, Neovim's own server): that one editor, not two. */
	claimedElsewhere: (key: string) => string | undefined;
	/** The connected editor's "send to agent" (`at_mentioned`). */
	mentioned: (key: string, mention: Mention) => void;
}

/** Keys of servers gone are remembered this many at most: how a connection to them ended. */
const MAX_REMEMBERED_GONE = 64;

/** A connection and the lockfile it was made from. */
interface Connection {
	session: IdeServerSession;
	lock: ReadLock;
	opening?: Promise<boolean>;
}

/** Why pi is not connected to a lockfile's server any more: kept until `/ide` picks it or the lockfile changes. */
interface Ended {
	identity: string | undefined;
	end: "closed-by-editor" | "connect-failed";
	reason: string;
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
	private readonly connections = new Map<string, Connection>();
	private readonly ended = new Map<string, Ended>();
	private readonly gone = new Set<string>();
	private readonly listing = new Map<string, ListedEditor>();
	private readonly paths = new EditorPathsCache();
	private sequence = 0;
	private closed = false;
	readonly lost = false;

	constructor(
		private readonly options: IdeServerSourceOptions,
		private readonly hooks: SourceHooks,
	) {
		this.table = new LockTable(lockDirPlan(options.env, options.home), options.uid);
		this.watchers = new LockDirWatchers((dir) => this.rescan(dir));
	}

	private get ssePort(): number | undefined {
		const port = Number(this.options.env.CLAUDE_CODE_SSE_PORT);
		return Number.isInteger(port) && port > 0 && port <= 65_535 ? port : undefined;
	}

	async start(): Promise<void> {
		if (this.options.mode.mode === "off") {
			this.phase = "off";
			return;
		}
		if (this.options.platform !== "linux") {
			this.phase = "no-proc";
			return;
		}
		// Watched before the first read: a lockfile written during it is seen.
		this.watchers.watch(this.table.plans.map((plan) => plan.path));
		await this.table.readAll();
		this.phase = "watching";
		await this.rebuild();
	}

	async close(): Promise<void> {
		this.closed = true;
		this.watchers.close();
		for (const connection of this.connections.values()) connection.session.close();
		await Promise.all([...this.connections.values()].map((connection) => connection.opening));
		this.connections.clear();
	}

	editors(): ListedEditor[] {
		return [...this.listing.values()];
	}

	facts(key: string): EditorFacts | undefined {
		const ended = this.ended.get(key);
		if (ended && this.options.connectedKey() === key)
			return { origin: "ide-server", listed: true, alive: true, ended: ended.end, rejection: ended.reason };
		const listed = this.listing.get(key);
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

	/** A listed server's process gone (kill -9 leaves its lockfile): its dir is read again. One stat per server. */
	checkLiveness(): boolean {
		let died = false;
		for (const lock of this.table.all())
			if (lock.holder && !holderRunning(lock.holder)) {
				died = true;
				void runInBackground("ide server rescan", () => this.rescan(lock.plan.path));
			}
		return died;
	}

	async recheck(): Promise<void> {
		this.watchers.recheck();
	}

	async lookAgain(): Promise<void> {
		if (this.phase !== "watching") return;
		// Asked by hand: a server that refused pi, or closed pi's connection, may be tried again when picked.
		for (const [key, ended] of this.ended) if (ended.end === "connect-failed") this.ended.delete(key);
		await this.table.readAll();
		this.forgetEnded();
		await this.rebuild();
	}

	isPending(key: string): boolean {
		const connection = this.connections.get(key);
		return connection !== undefined && (connection.opening !== undefined || connection.session.asksBeforePrompt);
	}

	/** A server that pushes nothing on a file switch is asked what it shows (the caller caps the wait). */
	async flush(key: string): Promise<void> {
		const connection = this.connections.get(key);
		if (!connection) return;
		if (connection.opening) await connection.opening;
		else if (connection.session.asksBeforePrompt) await connection.session.refresh(PROMPT_FLUSH_TIMEOUT_MS);
		await this.rebuild();
	}

	async unsavedNow(key: string, deadlineMs: number, target?: string): Promise<readonly string[] | undefined> {
		const connection = this.connections.get(key);
		return connection?.opening === undefined ? connection?.session.unsavedNow(deadlineMs, target) : undefined;
	}

	/** The connected key changed: its server is connected to, every other connection of pi's is closed. */
	follow(): void {
		if (this.phase !== "watching") return;
		const key = this.options.connectedKey();
		for (const [known, connection] of this.connections)
			if (known !== key) {
				this.connections.delete(known);
				connection.session.close();
			}
		const lock = key === undefined ? undefined : this.usableLocks().find((candidate) => keyOf(candidate) === key);
		if (key === undefined || !lock || this.connections.has(key)) return;
		this.ended.delete(key);
		void runInBackground("ide server connect", () => this.connect(key, lock));
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
				return lockReport(lock, {
					connection: key === undefined ? undefined : this.connections.get(key),
					elsewhere: key === undefined ? undefined : this.options.claimedElsewhere(key),
					ended: key === undefined ? undefined : this.ended.get(key)?.reason,
					ssePort: this.ssePort,
				});
			}),
		};
	}

	private usableLocks(): ReadLock[] {
		return this.table
			.all()
			.filter(
				(lock) =>
					lock.unused === undefined &&
					lock.holder &&
					this.options.claimedElsewhere(keyOf(lock) as string) === undefined,
			);
	}

	private async connect(key: string, lock: ReadLock): Promise<void> {
		const lockfile = lock.lockfile;
		const holder = lock.holder;
		if (!lockfile || !holder) return;
		const session = new IdeServerSession(
			{ port: lock.port, headers: authHeaders(lock.plan.kind, lockfile.authToken) },
			{
				clock: this.hooks.clock,
				changed: () => void runInBackground("ide server state", () => this.rebuild()),
				mentioned: (mention) => {
					if (this.options.connectedKey() === key) this.options.mentioned(key, mention);
				},
			},
		);
		const connection: Connection = { session, lock };
		connection.opening = session.open().then(async (open) => {
			// The port is checked again once connected: a listener swapped in between is never kept.
			const swapped = open ? await stillHeldBy(lock.port, holder.pid, this.options.uid) : undefined;
			if (swapped !== undefined) session.close();
			return open && swapped === undefined ? true : this.failed(key, lock, swapped ?? session.report().problem);
		});
		this.connections.set(key, connection);
		await this.rebuild();
		const open = await connection.opening;
		connection.opening = undefined;
		if (this.connections.get(key) !== connection) return session.close();
		if (!open) {
			this.connections.delete(key);
		} else {
			this.hooks.event({
				kind: "app-found",
				label: `IDE server ${lock.port}`,
				detail: session.report().server?.name ?? "",
			});
			void runInBackground("ide server closed", () => session.whenClosed()?.then(() => this.onClosed(key, connection)));
		}
		if (this.closed) session.close();
		await this.rebuild();
	}

	private failed(key: string, lock: ReadLock, reason: string | undefined): false {
		this.ended.set(key, {
			identity: lock.identity,
			end: "connect-failed",
			reason: `could not connect: ${reason ?? "unknown"}`,
		});
		return false;
	}

	/** The server closed pi's connection: gone with its process or lockfile, else it closed pi out (another client). */
	private async onClosed(key: string, connection: Connection): Promise<void> {
		if (this.connections.get(key) !== connection || this.closed) return;
		this.connections.delete(key);
		await this.table.read(connection.lock.plan.path);
		const still = this.usableLocks().some((lock) => keyOf(lock) === key);
		if (still)
			this.ended.set(key, {
				identity: connection.lock.identity,
				end: "closed-by-editor",
				reason: "the editor closed pi's connection; another client may have taken it; /ide reconnects",
			});
		this.hooks.event({ kind: "app-gone", label: `IDE server ${connection.lock.port}` });
		await this.rebuild();
	}

	private async rescan(dir: string): Promise<void> {
		await this.table.read(dir);
		this.forgetEnded();
		await this.rebuild();
	}

	/** A lockfile written anew (a new port or token) is a new server: what ended with the old one is forgotten. */
	private forgetEnded(): void {
		for (const [key, ended] of this.ended) {
			const lock = this.table.all().find((candidate) => keyOf(candidate) === key);
			if (lock && lock.identity !== ended.identity) this.ended.delete(key);
		}
	}

	/** Every usable lockfile as an editor, its state from its connection when there is one. */
	private async rebuild(): Promise<void> {
		const sequence = ++this.sequence;
		const built = new Map<string, ListedEditor>();
		for (const lock of this.usableLocks()) {
			const key = keyOf(lock) as string;
			const listed = await listedEditor(lock, {
				session: this.connections.get(key)?.session,
				nowSeconds: this.hooks.clock.nowSeconds(),
				ssePort: this.ssePort,
				byHand: this.options.mode.mode !== "auto" || this.ended.has(key),
				pathsOf: (state) => this.paths.pathsOf(state),
			});
			if (sequence !== this.sequence) return;
			built.set(key, listed);
		}
		for (const key of this.listing.keys()) if (!built.has(key)) this.gone.add(key);
		for (const key of built.keys()) this.gone.delete(key);
		if (this.gone.size > MAX_REMEMBERED_GONE) this.gone.delete(this.gone.values().next().value as string);
		this.listing.clear();
		for (const [key, listed] of built) this.listing.set(key, listed);
		this.hooks.changed();
	}
}
