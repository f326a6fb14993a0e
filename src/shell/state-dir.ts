import { mkdir } from "node:fs/promises";
import type { Editor, KeyFacts, StateFileEntry } from "../core/editor.ts";
import { checkDirTrust, type TrustVerdict } from "../core/file-trust.ts";
import { noticeText } from "../core/notice-texts.ts";
import {
	classifyFileName,
	pidOfStateFileKey as pidOfKey,
	stateFileKey,
	stateFileName,
} from "../core/parse-state-file.ts";
import type { EditorSource } from "./editor-source.ts";
import { lstatFacts } from "./fs-facts.ts";
import { isProcessAlive } from "./liveness.ts";
import { resourceCount } from "./session-memory.ts";
import { StateWatcher } from "./state-watcher.ts";

export type NoticeLevel = "info" | "warning" | "error";

export interface StateDirOptions {
	dir: string;
	uid: number;
	/** Create the dir (0700) when it is missing, so the watcher can start before any editor does. */
	create: boolean;
	nowSeconds: () => number;
	/** Something in the dir changed; called often, so the receiver coalesces. */
	onChange: () => void;
	/** A file's reads are done for now (see `StateWatcher`): the moment a rejection is news. */
	onSettled: (key: string) => void;
	notify: (message: string, level: NoticeLevel) => void;
}

/**
 * One state dir as a source of editors: trusted only while owned by this user, 0700 and a real dir; its
 * watcher, re-checked by inode (replaced, chmod-ed or removed while pi runs); the liveness of its pids.
 */
export class StateDir implements EditorSource {
	private trustVerdict: TrustVerdict = { ok: false, reason: "not started" };
	private watcher?: StateWatcher;
	private watchedIno?: bigint;
	private watcherError?: string;
	private readonly alive = new Map<number, boolean>();
	private checking = false;
	private closed = false;

	constructor(private readonly options: StateDirOptions) {}

	get dir(): string {
		return this.options.dir;
	}

	get trust(): TrustVerdict {
		return this.trustVerdict;
	}

	/** The watcher's last error, kept for `/ide status`. */
	get problem(): string | undefined {
		return this.watcherError;
	}

	get entries(): readonly StateFileEntry[] {
		return [...(this.watcher?.entries.values() ?? [])];
	}

	async start(): Promise<void> {
		await this.open();
		if (!this.trustVerdict.ok) this.options.notify(noticeText.notReading(this.trustVerdict.reason), "warning");
	}

	async close(): Promise<void> {
		this.closed = true;
		await this.closeWatcher();
	}

	editors(): Omit<Editor, "tier">[] {
		const editors: Omit<Editor, "tier">[] = [];
		for (const { reading } of this.watcher?.entries.values() ?? []) {
			if (reading) editors.push({ ...reading, key: stateFileKey(reading.pid), alive: this.isAlive(reading.pid) });
		}
		return editors;
	}

	facts(key: string): KeyFacts | undefined {
		const pid = pidOfKey(key);
		const entry = pid === undefined ? undefined : this.watcher?.entries.get(stateFileName(pid));
		if (!entry || pid === undefined) return undefined;
		return {
			listed: true,
			alive: entry.deadPid === undefined && this.checkAlive(pid),
			...(entry.reading && { reading: entry.reading }),
			...(entry.rejection !== undefined && { rejection: entry.rejection }),
		};
	}

	checkLiveness(): boolean {
		let died = false;
		// Only pids believed alive: a dead editor's file is looked at again when it is written.
		for (const [pid, alive] of this.alive) if (alive && !this.checkAlive(pid)) died = true;
		return died;
	}

	isPending(key: string): boolean {
		const pid = pidOfKey(key);
		return pid !== undefined && this.watcher?.isPending(stateFileName(pid)) === true;
	}

	async flush(key: string): Promise<void> {
		const pid = pidOfKey(key);
		if (pid !== undefined) await this.watcher?.flush(stateFileName(pid));
	}

	/** The dir's own trust (chmod, chown, replacement, removal) and pids no file names any more. */
	async recheck(): Promise<void> {
		this.forgetVanishedPids();
		if (this.checking || this.closed) return;
		this.checking = true;
		try {
			const { facts, ino } = await lstatFacts(this.options.dir);
			const trust = checkDirTrust(this.options.dir, facts, this.options.uid);
			// Trusted and unchanged, or untrusted for the same reason: nothing to redo until something changes.
			const same = trust.ok
				? this.trustVerdict.ok && ino === this.watchedIno && !this.watcher?.lost
				: !this.trustVerdict.ok && trust.reason === this.trustVerdict.reason;
			if (same || this.closed) return;
			await this.closeWatcher();
			if (this.closed) return;
			const wasTrusted = this.trustVerdict.ok;
			await this.open();
			const now = this.trustVerdict;
			if (wasTrusted && !now.ok) this.options.notify(noticeText.stoppedReading(now.reason), "warning");
			this.options.onChange();
		} catch (error) {
			this.trustVerdict = { ok: false, reason: `cannot check ${this.options.dir}: ${String(error)}` };
		} finally {
			this.checking = false;
		}
	}

	/** True when the watcher saw its dir go: the next tick re-checks at once rather than in two seconds. */
	get lost(): boolean {
		return this.watcher?.lost === true;
	}

	/** Never throws: whatever goes wrong becomes an untrusted dir with a reason, and pi carries on. */
	private async open(): Promise<void> {
		const dir = this.options.dir;
		try {
			let { facts, ino } = await lstatFacts(dir);
			if (facts.kind === "missing" && this.options.create) {
				await mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => {});
				({ facts, ino } = await lstatFacts(dir));
			}
			this.trustVerdict = checkDirTrust(dir, facts, this.options.uid);
			if (!this.trustVerdict.ok || this.closed) return;
			const watcher = new StateWatcher({
				dir,
				uid: this.options.uid,
				isAlive: (pid) => this.checkAlive(pid),
				nowSeconds: this.options.nowSeconds,
				onChange: this.options.onChange,
				onSettled: (fileName) => {
					const name = classifyFileName(fileName);
					if (name.kind === "state") this.options.onSettled(stateFileKey(name.pid));
				},
				onError: (message) => this.reportWatcherError(message),
			});
			this.watcher = watcher;
			this.watchedIno = ino;
			resourceCount().watchers++;
			await watcher.start();
		} catch (error) {
			this.trustVerdict = { ok: false, reason: `cannot watch ${dir}: ${String(error)}` };
			await this.closeWatcher();
		}
	}

	/** Shown once per watcher (a vanished dir can make chokidar repeat itself), kept for `/ide status`. */
	private reportWatcherError(message: string): void {
		const first = this.watcherError === undefined;
		this.watcherError = message;
		if (first) this.options.notify(noticeText.watcherProblem(message), "warning");
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

	private isAlive(pid: number): boolean {
		return this.alive.get(pid) ?? this.checkAlive(pid);
	}

	private checkAlive(pid: number): boolean {
		const alive = isProcessAlive(pid);
		this.alive.set(pid, alive);
		return alive;
	}

	private forgetVanishedPids(): void {
		const entries = this.watcher?.entries;
		if (!entries || this.alive.size <= entries.size) return;
		const known = new Set<number>();
		for (const entry of entries.values()) {
			const pid = entry.reading?.pid ?? entry.deadPid;
			if (pid !== undefined) known.add(pid);
		}
		for (const pid of this.alive.keys()) if (!known.has(pid)) this.alive.delete(pid);
	}
}
