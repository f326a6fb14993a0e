import { isInside, normalizePath } from "../../shared/core/paths.ts";
import type { EditorReading, ListedEditor } from "../core/editor.ts";
import { pidKey } from "../core/editor-key.ts";
import type { EditorState } from "../core/protocol-state.ts";
import type { EditorPaths } from "../core/tiers.ts";
import { isWholeLineSelection, stateOfView } from "./core/editor-state.ts";
import { appOfIdeName } from "./core/ide-apps.ts";
import type { LockEntryReport } from "./core/status.ts";
import type { ReadLock } from "./lockfiles.ts";
import type { IdeServerSession } from "./session.ts";

/** An IDE server's editor is keyed by the pid that holds its listening socket (VS Code: the extension host). */
export const keyOf = (lock: ReadLock) => (lock.holder ? pidKey(lock.holder.pid) : undefined);

/**
 * How well a lockfile's folders match the project, for choosing among one process's lockfiles: 0 a folder is the
 * project, 1 inside it, 2 neither (the tiers' own rules judge the editor itself).
 */
function folderTier(folders: readonly string[], projectDir: string): number {
	if (folders.some((folder) => normalizePath(folder) === normalizePath(projectDir))) return 0;
	return folders.some((folder) => isInside(folder, projectDir)) ? 1 : 2;
}

/**
 * Which server a lockfile describes: its port, pid and token. A rewrite for a workspace change keeps them (the
 * same server, which may have closed pi out); a new activation changes them. Kept in memory only, never shown.
 */
export const serverOf = (lock: ReadLock): string | undefined =>
	lock.lockfile && JSON.stringify([lock.port, lock.lockfile.pid ?? null, lock.lockfile.authToken ?? null]);

/**
 * A usable lockfile as an editor: its folders from the lockfile, its file, cursor, selection and unsaved list from
 * the connection when pi holds one (before that, no file: nothing stale is sent).
 */
export async function listedEditor(
	lock: ReadLock,
	facts: {
		session: IdeServerSession | undefined;
		nowSeconds: number;
		ssePort: number | undefined;
		byHand: boolean;
		pathsOf: (state: EditorState) => Promise<EditorPaths>;
	},
): Promise<ListedEditor> {
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

/**
 * The lockfiles pi may list, one per key: a process serving several (one JetBrains holding a server per
 * project) is one editor, listed by the lockfile that matches pi's project best, else the newest; one of an
 * editor another source reads is not listed.
 */
export function usableLocks(
	locks: readonly ReadLock[],
	claimedElsewhere: (key: string) => string | undefined,
	projectDir: string,
): ReadLock[] {
	const tier = (lock: ReadLock) => folderTier(lock.lockfile?.workspaceFolders ?? [], projectDir);
	const ranksAbove = (lock: ReadLock, known: ReadLock) =>
		tier(lock) !== tier(known)
			? tier(lock) < tier(known)
			: (lock.writtenAtSeconds ?? 0) > (known.writtenAtSeconds ?? 0);
	const byKey = new Map<string, ReadLock>();
	for (const lock of locks) {
		const key = keyOf(lock);
		if (lock.unused !== undefined || key === undefined || claimedElsewhere(key) !== undefined) continue;
		const known = byKey.get(key);
		if (!known || ranksAbove(lock, known)) byKey.set(key, lock);
	}
	return [...byKey.values()];
}

/** One lockfile in `/ide status`: the IDE it names and why it is or is not used; never its token. */
export function lockReport(
	lock: ReadLock,
	facts: {
		connection: { session: IdeServerSession; opening?: Promise<boolean> } | undefined;
		elsewhere: string | undefined;
		/** How a server another source reads is still asked (its requests answered): `AskingConnections`. */
		asked?: string | undefined;
		ended: string | undefined;
		ssePort: number | undefined;
		editor?: EditorReading;
		sameProcessAs?: string;
	},
): LockEntryReport {
	const session = facts.connection?.session;
	const asked = facts.asked === undefined ? "" : `; ${facts.asked}`;
	const unused =
		lock.unused ?? (facts.elsewhere === undefined ? undefined : `the same editor as ${facts.elsewhere}${asked}`);
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
