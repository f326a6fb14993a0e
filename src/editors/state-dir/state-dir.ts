import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { noticeText } from "../../shared/core/notice-texts.ts";
import { resourceCount } from "../../shared/process-memory.ts";
import type { EditorFacts, ListedEditor, StateFileEntry } from "../core/editor.ts";
import { pidKey, pidOfKey } from "../core/editor-key.ts";
import { checkDirTrust, type FsFacts } from "../core/path-trust.ts";
import type { EditorChannel } from "../diff-channels.ts";
import type { EditorAsked, EditorSource, SourceHooks } from "../editor-source.ts";
import { lstatFacts, lstatFactsNow } from "../fs-facts.ts";
import type { ProcessFacts } from "../processes/process-facts.ts";
import type { ClientChannelTarget } from "./client-channel.ts";
import { type DirEnv, type DirPlan, type DirRole, type DirVerdict, REAL_ROOTS, stateDirPlan } from "./core/dir-plan.ts";
import { classifyFileName, stateFileName } from "./core/parse.ts";
import { type ClientNotes, type ClientSuggestionOptions, DirClients } from "./dir-clients.ts";
import { PidLiveness } from "./pid-liveness.ts";
import { StateWatcher } from "./watcher.ts";

/** A file of the dir as `/ide status` shows it: the entry, the editor it makes, a reused pid, its client's notes. */
export interface DirFile extends ClientNotes {
	entry: StateFileEntry;
	editor?: ListedEditor;
	/** The pid now belongs to a process started after the file was last written. */
	reusedPid?: number;
	/** When its pid's process started is being asked (`ps`): not offered until then. */
	startAsked?: number;
}

/** Where editors may write, for this environment: `/tmp` and `/run/user` may stand in a test's temp dir. */
export function plannedStateDirs(env: DirEnv & { PI_IDE_TEST_FS_ROOT?: string }, uid: number): DirPlan[] {
	const root = env.PI_IDE_TEST_FS_ROOT;
	const roots = root ? { tmp: join(root, "tmp"), runUser: join(root, "run", "user") } : REAL_ROOTS;
	return stateDirPlan(env, uid, existsSync(join(roots.runUser, String(uid))), roots);
}

/**
 * One state dir as a source of editors: trusted only while owned by this user, 0700 and a real dir; its
 * watcher, re-checked by inode (replaced, chmod-ed or removed while pi runs); the liveness of its pids. The
 * protocol's dir is created when missing; a side dir is only looked for, one lstat per re-check.
 */
export class StateDir implements EditorSource {
	private dirVerdict: DirVerdict = { kind: "untrusted", reason: "not started" };
	private watcher?: StateWatcher;
	private watchedIno?: bigint;
	private watcherError?: string;
	private readonly pids: PidLiveness;
	private readonly clients: DirClients;
	private checking = false;
	private closed = false;

	/**
	 * `suggestions`: what VS Code windows of pi's project are offered (inline completions, asks) and which editor
	 * pi is connected to (none: never offered).
	 */
	constructor(
		private readonly plan: DirPlan,
		private readonly uid: number,
		private readonly hooks: SourceHooks,
		facts: Pick<ProcessFacts, "knownStart" | "learnStarts" | "listeningUnixPaths">,
		suggestions?: ClientSuggestionOptions,
	) {
		// A start asked of `ps` in the background arrived: the listing reads it at once.
		this.pids = new PidLiveness(facts, () => this.hooks.changed());
		this.clients = new DirClients({
			dir: plan.path,
			uid,
			facts,
			editors: () => this.editors(),
			...(suggestions && { suggestions }),
			hooks,
		});
	}

	get dir(): string {
		return this.plan.path;
	}

	get role(): DirRole {
		return this.plan.role;
	}

	/** The dir as `/ide status` shows it: where, its role, its verdict and the watcher's last error. */
	standing(): { path: string; role: DirRole; verdict: DirVerdict; watcherError?: string } {
		return {
			path: this.dir,
			role: this.role,
			verdict: this.dirVerdict,
			...(this.watcherError !== undefined && { watcherError: this.watcherError }),
		};
	}

	/** True when the watcher saw its dir go: the next tick re-checks at once. */
	get lost(): boolean {
		return this.watcher?.lost === true;
	}

	/** For `/ide status`: every file, with one lstat per live VS Code client for its channel, and its links. */
	files(): DirFile[] {
		return this.listing().map((file) =>
			file.editor?.alive ? { ...file, ...this.clients.notesOf(file.editor) } : file,
		);
	}

	/**
	 * Where the review reaches a connected editor of this package's VS Code client (one with the channel): its
	 * socket, pid and dir, for `connectClientChannel`. Undefined for other editors, dead ones and older clients.
	 */
	clientChannelOf(key: string): (ClientChannelTarget & { socket: string }) | undefined {
		return this.clients.channelOf(this.facts(key));
	}

	diffChannel(editor: EditorAsked): EditorChannel | undefined {
		return this.clients.diffChannel(editor, this.facts(editor.key));
	}

	private listing(): DirFile[] {
		return [...(this.watcher?.entries.values() ?? [])].map((entry) => {
			const reading = entry.reading;
			if (!reading) return { entry };
			const reused = this.pids.isReused(reading.pid, reading.writtenAtSeconds);
			const alive = this.pids.isAlive(reading.pid) && reused === false;
			const editor = { ...reading, key: pidKey(reading.pid), alive };
			return {
				entry,
				editor,
				...(reused === true && { reusedPid: reading.pid }),
				...(reused === "asking" && { startAsked: reading.pid }),
			};
		});
	}

	async start(): Promise<void> {
		await this.open();
		const verdict = this.dirVerdict;
		if (verdict.kind === "untrusted" && this.role !== "side") {
			this.hooks.notify(noticeText.notReading(verdict.reason), "warning");
		}
		if (verdict.kind === "untrusted")
			this.hooks.event({ kind: "dir-untrusted", dir: this.dir, reason: verdict.reason });
	}

	async close(): Promise<void> {
		this.closed = true;
		await Promise.all([this.clients.close(), this.closeWatcher()]);
	}

	editors(): ListedEditor[] {
		return this.listing().flatMap((file) => (file.editor ? [file.editor] : []));
	}

	facts(key: string): EditorFacts | undefined {
		const pid = pidOfKey(key);
		const entry = pid === undefined ? undefined : this.watcher?.entries.get(stateFileName(pid));
		if (!entry || pid === undefined) return undefined;
		const reused = entry.reading === undefined ? false : this.pids.isReused(pid, entry.reading.writtenAtSeconds);
		return {
			origin: "state-file",
			listed: true,
			alive: entry.deadPid === undefined && this.pids.checkAlive(pid) && reused === false,
			...(entry.reading && { reading: entry.reading }),
			...(entry.rejection !== undefined && { rejection: entry.rejection }),
			...(entry.lastValid && { lastValid: entry.lastValid }),
			...(entry.writtenAtSeconds !== undefined && { writtenAtSeconds: entry.writtenAtSeconds }),
		};
	}

	checkLiveness(): boolean {
		return this.pids.checkBelievedAlive();
	}

	isPending(key: string): boolean {
		const pid = pidOfKey(key);
		return pid !== undefined && this.watcher?.isPending(stateFileName(pid)) === true;
	}

	async flush(key: string): Promise<void> {
		const pid = pidOfKey(key);
		if (pid !== undefined) await this.watcher?.flush(stateFileName(pid));
	}

	/** A state file cannot be asked: the guard goes by what it last said. */
	async unsavedNow(): Promise<undefined> {
		return undefined;
	}

	/** pi connected to another editor, or `/ide off`: each window's offer says again whether pi is connected to it. */
	async connectionChanged(): Promise<void> {
		this.clients.update();
	}

	/** `/ide` looks again: the dir's standing now, not at the next re-check. */
	lookAgain(): Promise<void> {
		return this.recheck();
	}

	/** The dir's own standing (created, removed, chmod-ed, replaced) and pids no file names any more. */
	async recheck(): Promise<void> {
		this.forgetVanishedPids();
		this.clients.update();
		if (this.checking || this.closed) return;
		this.checking = true;
		try {
			const { facts, ino } = lstatFactsNow(this.dir);
			const next = this.judge(facts);
			const before = this.dirVerdict;
			// Trusted and unchanged, or not read for the same reason: nothing to redo until something changes.
			const same =
				next.kind === "trusted"
					? before.kind === "trusted" && ino === this.watchedIno && !this.watcher?.lost
					: next.kind === before.kind && (next.kind !== "untrusted" || next.reason === verdictReason(before));
			if (same || this.closed) return;
			await this.closeWatcher();
			if (this.closed) return;
			await this.open();
			this.tellChange(before, this.dirVerdict);
			this.hooks.changed();
		} catch (error) {
			this.dirVerdict = { kind: "untrusted", reason: `cannot check ${this.dir}: ${String(error)}` };
		} finally {
			this.checking = false;
		}
	}

	private tellChange(before: DirVerdict, now: DirVerdict): void {
		if (now.kind !== "untrusted") {
			this.hooks.event({ kind: now.kind === "trusted" ? "dir-appeared" : "dir-gone", dir: this.dir });
			return;
		}
		this.hooks.event({ kind: "dir-untrusted", dir: this.dir, reason: now.reason });
		// Someone else's /tmp/pi-ide is no news to pop up; losing the dir pi reads by default is.
		if (before.kind === "trusted" && this.role !== "side") {
			this.hooks.notify(noticeText.stoppedReading(now.reason), "warning");
		}
	}

	private judge(facts: FsFacts): DirVerdict {
		if (facts.kind === "missing" && this.role === "side") return { kind: "missing" };
		const trust = checkDirTrust(this.dir, facts, this.uid);
		return trust.ok ? { kind: "trusted" } : { kind: "untrusted", reason: trust.reason };
	}

	/** Never throws: whatever goes wrong becomes a dir not read, with a reason, and pi carries on. */
	private async open(): Promise<void> {
		const dir = this.dir;
		try {
			let { facts, ino } = await lstatFacts(dir);
			if (facts.kind === "missing" && this.role !== "side") {
				await mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => {});
				({ facts, ino } = await lstatFacts(dir));
			}
			this.dirVerdict = this.judge(facts);
			if (this.dirVerdict.kind !== "trusted" || this.closed) return;
			const watcher = new StateWatcher({
				dir,
				uid: this.uid,
				isAlive: (pid) => this.pids.checkAlive(pid),
				clock: this.hooks.clock,
				onChange: () => {
					this.hooks.changed();
					this.clients.update();
				},
				onSettled: (fileName) => {
					const name = classifyFileName(fileName);
					if (name.kind === "state") this.hooks.settled(pidKey(name.pid));
				},
				onError: (message) => this.reportWatcherError(message),
			});
			this.watcher = watcher;
			this.watchedIno = ino;
			resourceCount().watchers++;
			await watcher.start();
			await this.pids.learnStarts(
				[...watcher.entries.values()].flatMap((entry) => (entry.reading ? [entry.reading.pid] : [])),
			);
			this.clients.update();
		} catch (error) {
			this.dirVerdict = { kind: "untrusted", reason: `cannot watch ${dir}: ${String(error)}` };
			await this.closeWatcher();
		}
	}

	/** Shown once per watcher (a vanished dir can make chokidar repeat itself), kept for `/ide status`. */
	private reportWatcherError(message: string): void {
		const first = this.watcherError === undefined;
		this.watcherError = message;
		if (first && this.role !== "side") this.hooks.notify(noticeText.watcherProblem(message), "warning");
	}

	private async closeWatcher(): Promise<void> {
		const watcher = this.watcher;
		this.watcher = undefined;
		this.watchedIno = undefined;
		this.watcherError = undefined;
		if (!watcher) return;
		resourceCount().watchers--;
		await watcher.close();
	}

	private forgetVanishedPids(): void {
		const entries = this.watcher?.entries;
		if (!entries) return;
		this.pids.forgetOthers(entries.size, () => {
			const named = new Set<number>();
			for (const entry of entries.values()) {
				const pid = entry.reading?.pid ?? entry.deadPid;
				if (pid !== undefined) named.add(pid);
			}
			return named;
		});
	}
}

const verdictReason = (verdict: DirVerdict) => (verdict.kind === "untrusted" ? verdict.reason : undefined);
