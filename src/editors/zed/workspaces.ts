import { readFile, stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import type { EditorReading } from "../core/editor.ts";
import type { ActiveBuffer } from "../core/protocol-state.ts";
import { realFile, realOrNormal } from "../real-paths.ts";
import { type SeenSelection, zedActiveBuffer, zedEditorState } from "./core/buffer.ts";
import {
	unsavedFiles,
	workspaceNotOffered,
	workspaceRoots,
	type ZedSnapshot,
	zedFocus,
	zedKey,
	zedTimestampSeconds,
} from "./core/rows.ts";
import { MAX_UNSAVED_TEXT_BYTES } from "./database.ts";

/** A file larger than this is not read for its positions: as for an unsaved buffer, pi's thread comes first. */
const MAX_BUFFER_FILE_BYTES = MAX_UNSAVED_TEXT_BYTES;

export type ZedReading = EditorReading & { key: string };

interface WorkspaceEntry {
	reading: ZedReading;
	offered: boolean;
	/** The active buffer shown last: focus in Zed's terminal keeps it. */
	buffer: ActiveBuffer | null;
	seen?: SeenSelection;
	/** Why the last read kept the previous editor state (focus in a terminal, selections being rewritten). */
	kept?: string;
}

/**
 * What each workspace of Zed's current session shows, kept between reads: the last editor state stands while
 * focus is elsewhere, and a selection keeps the time pi first saw it.
 */
export class ZedWorkspaces {
	private readonly entries = new Map<string, WorkspaceEntry>();
	private readonly texts = new Map<string, { marks: string; text: string | undefined }>();

	constructor(private readonly nowSeconds: () => number) {}

	readings(databasePath: string): ZedReading[] {
		const prefix = zedKey(databasePath, "");
		return [...this.entries.entries()].flatMap(([key, entry]) =>
			key.startsWith(prefix) && entry.offered ? [entry.reading] : [],
		);
	}

	reading(databasePath: string, workspaceId: string): ZedReading | undefined {
		return this.entries.get(zedKey(databasePath, workspaceId))?.reading;
	}

	byKey(key: string): ZedReading | undefined {
		return this.entries.get(key)?.reading;
	}

	/** Why the latest read kept the state before it, if it did. */
	kept(databasePath: string, workspaceId: string): string | undefined {
		return this.entries.get(zedKey(databasePath, workspaceId))?.kept;
	}

	offered(key: string): boolean {
		return this.entries.get(key)?.offered === true;
	}

	async update(databasePath: string, snapshot: ZedSnapshot, pid: number): Promise<void> {
		const seen = new Set<string>();
		await Promise.all(
			snapshot.workspaces.map(async (row) => {
				const key = zedKey(databasePath, row.id);
				seen.add(key);
				const previous = this.entries.get(key);
				if (workspaceNotOffered(row, snapshot.sessionId)) {
					if (previous) previous.offered = false;
					return;
				}
				const focus = zedFocus(snapshot, row.id, previous?.buffer != null);
				let buffer = previous?.buffer ?? null;
				let selection = previous?.seen;
				if (focus.kind === "none") buffer = null;
				if (focus.kind === "editor") {
					const { path, unsaved, contents, language } = focus.editor;
					const text = unsaved ? (contents ?? undefined) : path ? await this.diskText(path) : undefined;
					const input = {
						file: path,
						text,
						modified: unsaved,
						language: language ?? null,
						selections: focus.selections,
					};
					({ buffer, seen: selection } = zedActiveBuffer(input, previous?.seen, this.nowSeconds()));
				}
				const roots = workspaceRoots(row);
				const writtenAtSeconds = zedTimestampSeconds(row.timestamp) ?? this.nowSeconds();
				const state = zedEditorState({ pid, roots, timestampSeconds: writtenAtSeconds, buffer });
				// Each path resolved once, all at once: the first root is also the cwd.
				const [file, realRoots] = await Promise.all([
					buffer?.file && isAbsolute(buffer.file) ? realFile(buffer.file) : undefined,
					Promise.all(roots.map((root) => realOrNormal(root))),
				]);
				const unsaved = unsavedFiles(snapshot, row.id).filter((path) => path !== buffer?.file);
				const reading: ZedReading = {
					origin: "zed",
					key,
					pid,
					state,
					paths: {
						cwd: realRoots[0] ?? "/",
						...(file && { file, activeFile: file }),
						argvDirs: [],
						roots: realRoots,
					},
					selectionFirstSeenSeconds: selection?.firstSeenSeconds ?? this.nowSeconds(),
					writtenAtSeconds,
					...(unsaved.length > 0 && { unsavedFiles: unsaved }),
				};
				const kept = focus.kind === "keep" ? focus.why : undefined;
				this.entries.set(key, {
					reading,
					offered: true,
					buffer,
					...(selection && { seen: selection }),
					...(kept && { kept }),
				});
			}),
		);
		for (const [key, entry] of this.entries) if (!seen.has(key)) entry.offered = false;
	}

	/** The file's text as Zed's offsets count it (LF line ends), read again only when it changed on disk. */
	private async diskText(path: string): Promise<string | undefined> {
		try {
			const stats = await stat(path);
			if (!stats.isFile() || stats.size > MAX_BUFFER_FILE_BYTES) return undefined;
			const marks = `${stats.size}:${stats.mtimeMs}`;
			const cached = this.texts.get(path);
			if (cached?.marks === marks) return cached.text;
			const text = (await readFile(path, "utf8")).replace(/\r\n/g, "\n");
			this.texts.set(path, { marks, text });
			if (this.texts.size > 64) this.texts.delete(this.texts.keys().next().value as string);
			return text;
		} catch {
			return undefined;
		}
	}
}
