import { isUtf8 } from "node:buffer";
import { stat } from "node:fs/promises";
import { isAbsolute, posix } from "node:path";
import { fenceLanguageOf } from "../../shared/core/text-cuts.ts";
import type { EditorReading } from "../core/editor.ts";
import type { ActiveBuffer } from "../core/protocol-state.ts";
import { realFile, realOrNormal } from "../real-paths.ts";
import { type SeenSelection, zedActiveBuffer, zedEditorState } from "./core/buffer.ts";
import { indexBytes, indexZedBuffer, type ZedBufferIndex, zedBufferBytes } from "./core/buffer-index.ts";
import {
	REWRITING,
	unsavedFiles,
	workspaceHidden,
	workspaceNotOffered,
	workspaceRoots,
	type ZedSnapshot,
	zedFocus,
	zedKey,
	zedTimestampSeconds,
} from "./core/rows.ts";
import type { ZedWorkspaceReport } from "./core/status.ts";
import { MAX_UNSAVED_TEXT_BYTES } from "./database.ts";
import { ChangedFiles } from "./file-texts.ts";

/** A file larger than this is not read for its positions: as for an unsaved buffer, pi's thread comes first. */
const MAX_BUFFER_FILE_BYTES = MAX_UNSAVED_TEXT_BYTES;
/**
 * The shown saved files' bytes and line starts kept between reads: sixteen workspaces each showing a 4 MB
 * file fit, and the least recently shown go first beyond it.
 */
export const ZED_SHOWN_FILES_CACHE_BYTES = 80 * 1024 * 1024;

/** Two texts alike, compared natively (an unsaved buffer's bytes, read again at each read). */
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
	a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

export type ZedReading = EditorReading & { key: string };

/** Whether Zed keeps unsaved text for a workspace, from its roots (a `.zed/settings.json` may say). */
export interface WorkspaceSettings {
	restoresUnsaved: (roots: readonly string[]) => Promise<boolean>;
}

const isRegularFile = (path: string) =>
	stat(path).then(
		(stats) => stats.isFile(),
		() => false,
	);

/** A workspace no longer offered: its report stays, the unsaved text it held goes. */
function retire(entry: WorkspaceEntry): void {
	entry.offered = false;
	entry.unsavedText = undefined;
}

/** A hidden workspace's selection is never fresh: it is not what the user looks at now. */
const withoutFreshness = (buffer: ActiveBuffer | null): ActiveBuffer | null =>
	buffer?.selection ? { ...buffer, selection: { ...buffer.selection, selected_at: null } } : buffer;

interface WorkspaceEntry {
	reading: ZedReading;
	offered: boolean;
	/** The active buffer shown last: focus in Zed's terminal keeps it. */
	buffer: ActiveBuffer | null;
	/** The tab it came from: rows with no selection for that same tab keep it, another tab replaces it. */
	itemId?: number;
	seen?: SeenSelection;
	/** Whether the selection of `buffer` covers whole lines of the text Zed holds. */
	wholeLines?: boolean;
	/** The shown unsaved text's index: the same text at the next read is not indexed again. */
	unsavedText?: ZedBufferIndex;
	/** Why the last read kept the previous editor state (focus in a terminal, selections being rewritten). */
	kept?: string;
}

/**
 * What each workspace of Zed's current session shows, kept between reads: the last editor state stands while
 * focus is elsewhere, and a selection keeps the time pi first saw it.
 */
export class ZedWorkspaces {
	private readonly entries = new Map<string, WorkspaceEntry>();
	/** The shown file's text as Zed's offsets count it, read again only when it changed on disk. */
	private readonly texts = new ChangedFiles<ZedBufferIndex>({
		maxFileBytes: MAX_BUFFER_FILE_BYTES,
		cacheBudgetBytes: ZED_SHOWN_FILES_CACHE_BYTES,
		parse: (bytes) => {
			const started = performance.now();
			const index = indexZedBuffer(zedBufferBytes(bytes, isUtf8(bytes)));
			this.computeMs += performance.now() - started;
			return index;
		},
		bytesHeld: indexBytes,
	});
	/** The positions' share of the update running now. */
	private computeMs = 0;

	constructor(private readonly nowSeconds: () => number) {}

	readings(databasePath: string): ZedReading[] {
		const prefix = zedKey(databasePath, "");
		return [...this.entries.entries()].flatMap(([key, entry]) =>
			key.startsWith(prefix) && entry.offered ? [entry.reading] : [],
		);
	}

	byKey(key: string): ZedReading | undefined {
		return this.entries.get(key)?.reading;
	}

	/** Every workspace row of the last read as `/ide status` shows it: its editor, or why it is not offered. */
	reports(databasePath: string | undefined, snapshot: ZedSnapshot | undefined, zedRuns: boolean): ZedWorkspaceReport[] {
		return (snapshot?.workspaces ?? []).map((row) => {
			const notOffered = workspaceNotOffered(row, snapshot?.sessionId);
			const entry = notOffered || !databasePath ? undefined : this.entries.get(zedKey(databasePath, row.id));
			return {
				id: row.id,
				paths: row.paths,
				...(notOffered && { notOffered }),
				...(entry && { editor: { ...entry.reading, alive: zedRuns } }),
				...(entry?.kept && { kept: entry.kept }),
			};
		});
	}

	offered(key: string): boolean {
		return this.entries.get(key)?.offered === true;
	}

	/**
	 * `rewriting`: a workspace kept its state because Zed was between deleting and writing its selections.
	 * `computeMs`: the time its texts were turned into positions, on pi's thread (the file reads are not).
	 */
	async update(
		databasePath: string,
		snapshot: ZedSnapshot,
		pid: number,
		settings: WorkspaceSettings,
	): Promise<{ rewriting: boolean; computeMs: number }> {
		const seen = new Set<string>();
		let rewriting = false;
		this.computeMs = 0;
		await Promise.all(
			snapshot.workspaces.map(async (row) => {
				const key = zedKey(databasePath, row.id);
				seen.add(key);
				const previous = this.entries.get(key);
				if (workspaceNotOffered(row, snapshot.sessionId)) {
					if (previous) retire(previous);
					return;
				}
				const paths = workspaceRoots(row);
				const [shown, places, restoresUnsaved] = await Promise.all([
					this.shownEditor(row.id, snapshot, previous),
					this.places(paths),
					settings.restoresUnsaved(paths),
				]);
				if (shown.kept === REWRITING) rewriting = true;
				const hidden = workspaceHidden(row, snapshot);
				const buffer = hidden ? withoutFreshness(shown.buffer) : shown.buffer;
				const writtenAtSeconds = zedTimestampSeconds(row.timestamp) ?? this.nowSeconds();
				const state = zedEditorState({ pid, cwd: places.cwd, paths, timestampSeconds: writtenAtSeconds, buffer });
				const file = buffer?.file && isAbsolute(buffer.file) ? await realFile(buffer.file) : undefined;
				const unsaved = unsavedFiles(snapshot, row.id).filter((path) => path !== buffer?.file);
				const reading: ZedReading = {
					origin: "zed",
					key,
					pid,
					state,
					paths: {
						cwd: places.cwd,
						...(file && { file, activeFile: file }),
						argvDirs: [],
						roots: places.realRoots,
						...(places.rootFiles.length > 0 && { rootFiles: places.rootFiles }),
					},
					selectionFirstSeenSeconds: shown.seen?.firstSeenSeconds ?? this.nowSeconds(),
					writtenAtSeconds,
					...(unsaved.length > 0 && { unsavedFiles: unsaved }),
					...(buffer?.selection && { wholeLineSelection: shown.wholeLines === true }),
					...(hidden && { hidden }),
					...(!restoresUnsaved && { unsavedUnknown: "no-unsaved-text" as const }),
				};
				this.entries.set(key, {
					reading,
					offered: true,
					buffer: shown.buffer,
					...(shown.itemId !== undefined && { itemId: shown.itemId }),
					...(shown.seen && { seen: shown.seen }),
					...(shown.wholeLines !== undefined && { wholeLines: shown.wholeLines }),
					...(shown.unsavedText && { unsavedText: shown.unsavedText }),
					...(shown.kept && { kept: shown.kept }),
				});
			}),
		);
		for (const [key, entry] of this.entries) if (!seen.has(key)) retire(entry);
		return { rewriting, computeMs: this.computeMs };
	}

	/** What the workspace's rows say it shows now, or the last state where they say nothing new. */
	private async shownEditor(workspaceId: string, snapshot: ZedSnapshot, previous: WorkspaceEntry | undefined) {
		const focus = zedFocus(snapshot, workspaceId, previous?.itemId);
		if (focus.kind === "keep") {
			const { buffer = null, seen, itemId, wholeLines, unsavedText } = previous ?? {};
			return { buffer, seen, itemId, wholeLines, unsavedText, kept: focus.why };
		}
		if (focus.kind === "none") return { buffer: null };
		const { path, unsaved, contents, language, itemId } = focus.editor;
		const last = previous?.unsavedText;
		const started = performance.now();
		const unsavedText =
			unsaved && contents ? (last && sameBytes(last.bytes, contents) ? last : indexZedBuffer(contents)) : undefined;
		this.computeMs += performance.now() - started;
		const text = unsaved ? unsavedText : path ? await this.texts.read(path) : undefined;
		const input = {
			file: path,
			text,
			modified: unsaved,
			// Zed keeps a saved buffer's language NULL: its file name suggests the fence's tag, as for other editors.
			language: language ?? (path ? (fenceLanguageOf(path) ?? null) : null),
			selections: focus.selections,
		};
		const positionsStarted = performance.now();
		const { buffer, seen, wholeLines } = zedActiveBuffer(input, previous?.seen, this.nowSeconds());
		this.computeMs += performance.now() - positionsStarted;
		return { buffer, seen, itemId, wholeLines, unsavedText };
	}

	/**
	 * The roots as real paths, the first folder as the cwd. A workspace opened on a single file has the file in
	 * its paths: its directory is the cwd and the file is evidence, not a root.
	 */
	private async places(roots: readonly string[]) {
		const resolved = await Promise.all(
			roots.map(async (root) => ({ real: await realOrNormal(root), isFile: await isRegularFile(root) })),
		);
		const realRoots = resolved.flatMap((root) => (root.isFile ? [] : [root.real]));
		const rootFiles = resolved.flatMap((root) => (root.isFile ? [root.real] : []));
		const cwd = realRoots[0] ?? (rootFiles[0] ? posix.dirname(rootFiles[0]) : "/");
		return { realRoots, rootFiles, cwd };
	}
}
