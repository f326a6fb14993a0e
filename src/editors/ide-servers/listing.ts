import type { EditorReading, ListedEditor } from "../core/editor.ts";
import { pidKey } from "../core/editor-key.ts";
import type { EditorState } from "../core/protocol-state.ts";
import type { EditorPaths } from "../core/tiers.ts";
import { Generation } from "../kit/core/generation.ts";
import { GoneKeys } from "../kit/core/gone-keys.ts";
import { EditorPathsCache } from "../real-paths.ts";
import { isWholeLineSelection, stateOfView } from "./core/editor-state.ts";
import { appOfIdeName } from "./core/ide-apps.ts";
import type { LockEntryReport } from "./core/status.ts";
import type { ReadLock } from "./lockfiles.ts";
import type { IdeServerSession } from "./session.ts";

/** An IDE server's editor is keyed by the pid that holds its listening socket (VS Code: the extension host). */
export const keyOf = (lock: ReadLock) => (lock.holder ? pidKey(lock.holder.pid) : undefined);

/**
 * Which server a lockfile describes: its port, pid and token. A rewrite for a workspace change keeps them (the
 * same server, which may have closed pi out); a new activation changes them. Kept in memory only, never shown.
 */
export const serverOf = (lock: ReadLock): string | undefined =>
	lock.lockfile && JSON.stringify([lock.port, lock.lockfile.pid ?? null, lock.lockfile.authToken ?? null]);

/** What a lockfile's editor is made with besides the lockfile: its connection's session and the moment. */
export interface ListedFacts {
	session: IdeServerSession | undefined;
	nowSeconds: number;
	ssePort: number | undefined;
	byHand: boolean;
	pathsOf: (state: EditorState) => Promise<EditorPaths>;
}

/**
 * A usable lockfile as an editor: its folders from the lockfile, its file, cursor, selection and unsaved list from
 * the connection when pi holds one (before that, no file: nothing stale is sent).
 */
export async function listedEditor(lock: ReadLock, facts: ListedFacts): Promise<ListedEditor> {
	const holder = lock.holder as NonNullable<ReadLock["holder"]>;
	const lockfile = lock.lockfile as NonNullable<ReadLock["lockfile"]>;
	const session = facts.session?.isOpen ? facts.session : undefined;
	const told = session ? session.state() : { view: {}, diagnostics: [] };
	const state = stateOfView(told.view, {
		pid: holder.pid,
		app: appOfIdeName(lockfile.ideName),
		workspaceFolders: lockfile.workspaceFolders,
		// Before pi connects, the editor was last active when its lockfile was written: the picker sorts by it.
		nowSeconds: session ? facts.nowSeconds : (lock.writtenAtSeconds ?? facts.nowSeconds),
		...(told.linesOnDisk !== undefined && { linesOnDisk: told.linesOnDisk }),
		diagnostics: told.diagnostics,
	});
	const selection = told.view.selection;
	const reading: EditorReading = {
		origin: "ide-server",
		pid: holder.pid,
		state,
		paths: await facts.pathsOf(state),
		selectionFirstSeenSeconds: selection?.atSeconds ?? facts.nowSeconds,
		writtenAtSeconds: lock.writtenAtSeconds ?? facts.nowSeconds,
		...(told.view.dirty && { unsavedFiles: told.view.dirty }),
		...(session && !session.knowsDirty && { unsavedUnknown: "not-told" as const }),
		...(selection && { wholeLineSelection: isWholeLineSelection(selection) }),
		...(lock.port === facts.ssePort && { enclosing: true }),
		...(lockfile.ideName !== undefined && { name: lockfile.ideName }),
		ideServer: { connected: session !== undefined },
		...(facts.byHand && { byHand: true }),
	};
	return { ...reading, key: keyOf(lock) as string, alive: true };
}

/** One lockfile in `/ide status`: the IDE it names and why it is or is not used; never its token. */
export function lockReport(
	lock: ReadLock,
	facts: {
		connection: { session: IdeServerSession; opening?: Promise<boolean> } | undefined;
		elsewhere: string | undefined;
		ended: string | undefined;
		ssePort: number | undefined;
		editor?: EditorReading;
		sameProcessAs?: string;
	},
): LockEntryReport {
	const session = facts.connection?.session;
	const unused = lock.unused ?? (facts.elsewhere === undefined ? undefined : `the same editor as ${facts.elsewhere}`);
	return {
		name: `${lock.plan.path}/${lock.name}`,
		port: lock.port,
		...(lock.lockfile?.ideName !== undefined && { ideName: lock.lockfile.ideName }),
		folders: lock.lockfile?.workspaceFolders ?? [],
		...(lock.holder && { holderPid: lock.holder.pid }),
		...(unused !== undefined && { unused }),
		enclosing: lock.port === facts.ssePort,
		// Connecting until the handshake, the first queries and the port's re-check are done.
		...(facts.connection && { connection: facts.connection.opening ? "connecting" : "connected" }),
		...(facts.ended !== undefined && { ended: facts.ended }),
		...(session && { session: session.report() }),
		...(facts.editor && { editor: facts.editor }),
		...(facts.sameProcessAs !== undefined && { sameProcessAs: facts.sameProcessAs }),
		guard: !session?.isOpen
			? "unknown until connected"
			: session.knowsDirty
				? "available"
				: "not available (the server cannot tell unsaved documents)",
	};
}

/**
 * The editors listed now, each with the lockfile it was read from, and the keys gone since: rebuilt whole from
 * the usable lockfiles, a rebuild that finished after a newer one started dropped.
 */
export class LockListing {
	/** Each listed editor with the lockfile it was read from. */
	private readonly listed = new Map<string, { editor: ListedEditor; lock: ReadLock }>();
	/** One per listed editor: a push of one server resolves no path of another's again. */
	private readonly paths = new Map<string, EditorPathsCache>();
	private readonly gone = new GoneKeys();
	private readonly rebuilds = new Generation();

	get size(): number {
		return this.listed.size;
	}

	has(key: string): boolean {
		return this.listed.has(key);
	}

	get(key: string): { editor: ListedEditor; lock: ReadLock } | undefined {
		return this.listed.get(key);
	}

	editors(): ListedEditor[] {
		return [...this.listed.values()].map(({ editor }) => editor);
	}

	/** Listed before, not now. */
	isGone(key: string): boolean {
		return this.gone.has(key);
	}

	/**
	 * Every lockfile of `locks` (one per key) as an editor, made with what `factsOf` says of its key now; false
	 * when a newer rebuild started meanwhile (this one then changes nothing).
	 */
	async rebuild(locks: readonly ReadLock[], factsOf: (key: string) => Omit<ListedFacts, "pathsOf">): Promise<boolean> {
		const rebuild = this.rebuilds.start();
		const built = new Map<string, { editor: ListedEditor; lock: ReadLock }>();
		for (const lock of locks) {
			const key = keyOf(lock) as string;
			const pathsOf = (state: EditorState) => this.pathsCacheOf(key).pathsOf(state);
			const listed = await listedEditor(lock, { ...factsOf(key), pathsOf });
			if (!rebuild.isNewest()) return false;
			built.set(key, { editor: listed, lock });
		}
		for (const key of this.listed.keys()) if (!built.has(key)) this.gone.add(key);
		for (const key of built.keys()) this.gone.delete(key);
		this.listed.clear();
		for (const [key, listed] of built) this.listed.set(key, listed);
		for (const key of this.paths.keys()) if (!built.has(key)) this.paths.delete(key);
		return true;
	}

	private pathsCacheOf(key: string): EditorPathsCache {
		let cache = this.paths.get(key);
		if (!cache) {
			cache = new EditorPathsCache();
			this.paths.set(key, cache);
		}
		return cache;
	}
}
