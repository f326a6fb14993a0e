import { constants } from "node:fs";
import { type FileHandle, open, realpath } from "node:fs/promises";
import type { ConnectedView } from "../connection/core/rules.ts";
import { absoluteFile } from "../editors/core/active-buffer.ts";
import { type SecretFileMatch, withheldReason } from "../safety/core/secret-files.ts";
import { type findSecrets, redactedText, SCAN_FAILED } from "../safety/secret-scanner.ts";
import { shownPath } from "../shared/core/paths.ts";
import { cutText, fenceLanguageOf } from "../shared/core/text-cuts.ts";
import { type CodeReference, referencePath } from "./core/parse.ts";
import type { ResolvedReference } from "./core/sections.ts";

/** A referenced file larger than this is not read: no reference is worth holding pi up for. */
const MAX_REFERENCED_FILE_BYTES = 16 * 1024 * 1024;
/** Git's test for a binary file: a NUL byte among the first bytes. */
const BINARY_SNIFF_BYTES = 8000;
// O_NONBLOCK: a FIFO named in a prompt must never block pi.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

export interface ReferenceContext {
	cwd: string;
	home: string;
	/** The project, for the transcript's relative names. */
	projectDir: string;
	/** What the connected editor shows now, if anything. */
	view?: ConnectedView;
	secretFile: (paths: readonly (string | undefined)[]) => SecretFileMatch | undefined;
	redactSecrets: boolean;
	/** The credential scanner (tests stand in a failing one). */
	scan?: typeof findSecrets;
}

/** Each reference read and checked: the editor's selection when it spans exactly those lines, else the disk. */
export async function resolveReferences(
	references: readonly CodeReference[],
	context: ReferenceContext,
): Promise<ResolvedReference[]> {
	return Promise.all(references.map((reference) => resolveOne(reference, context)));
}

async function resolveOne(reference: CodeReference, context: ReferenceContext): Promise<ResolvedReference> {
	const file = referencePath(reference.path, context.cwd, context.home);
	const shown = shownPath(file, context.projectDir);
	// Both at once: each is a thread-pool round trip, and the prompt waits for them.
	const [real, opened] = await Promise.all([realpath(file).catch(() => undefined), openRegular(file)]);
	try {
		return await resolveOpened(reference, context, { file, shown, real }, opened);
	} finally {
		// Not awaited: the prompt need not wait for the close's round trip.
		if (typeof opened !== "string") opened.handle.close().catch(() => {});
	}
}

async function resolveOpened(
	reference: CodeReference,
	context: ReferenceContext,
	{ file, shown, real }: { file: string; shown: string; real: string | undefined },
	opened: { handle: FileHandle; size: number } | string,
): Promise<ResolvedReference> {
	const place = { file, shown, startLine: reference.startLine, endLine: reference.endLine };
	// A secret file's text is never read, whatever the editor shows.
	const secret = context.secretFile([file, real]);
	if (secret) return { kind: "withheld", ...place, ...withheldReason(secret) };
	const editor = editorShowing(context.view, file, real);
	const selection = editor?.state.active_buffer?.selection;
	const sameLines = selection?.start.line === reference.startLine && selection?.end.line === reference.endLine;
	// A selection serves a reference only when it is whole lines: one word of line 4 is not "line 4".
	if (selection && sameLines && editor?.wholeLineSelection === true)
		return finishedReference({ ...place, text: selection.text, from: "selection", unsavedInEditor: false }, context);
	const read = typeof opened === "string" ? opened : await readLines(opened);
	if (typeof read === "string") return { kind: "problem", shown: reference.path, problem: read };
	// A one-line selection of unknown extent (a state file's, from column 1) is the line when it is the line.
	const wholeLine = sameLines && editor?.wholeLineSelection === undefined && read[reference.startLine - 1];
	if (selection && wholeLine !== undefined && wholeLine === selection.text)
		return finishedReference({ ...place, text: selection.text, from: "selection", unsavedInEditor: false }, context);
	if (reference.startLine > read.length) {
		return {
			kind: "problem",
			shown: reference.path,
			problem: `line ${reference.startLine} is past the end (${read.length} lines)`,
		};
	}
	const endLine = Math.min(reference.endLine, read.length);
	return finishedReference(
		{
			...place,
			endLine,
			text: read.slice(reference.startLine - 1, endLine).join("\n"),
			from: "disk",
			unsavedInEditor: editor?.state.active_buffer?.modified === true,
			...(endLine < reference.endLine && { clippedFrom: { endLine: reference.endLine, lines: read.length } }),
		},
		context,
	);
}

/** The connected editor's view when its active file is this file (by path or real path). */
function editorShowing(view: ConnectedView | undefined, file: string, real: string | undefined) {
	if (view?.kind !== "editor") return undefined;
	const shows = absoluteFile(view.state);
	return shows === file || (real !== undefined && (view.realFile === real || shows === real)) ? view : undefined;
}

/**
 * Cut to the cap first, then credentials redacted in what will be sent; a failing scan withholds the text.
 * Also what an editor's ask attaches (asks/): its placeholders' texts go along as references' do.
 */
export async function finishedReference(
	found: Omit<Extract<ResolvedReference, { kind: "text" }>, "kind" | "redactions" | "cutNote" | "language">,
	context: Pick<ReferenceContext, "redactSecrets" | "scan">,
): Promise<ResolvedReference> {
	const cut = cutText(found.text, { first: found.startLine, last: found.endLine }, "reference");
	const language = fenceLanguageOf(found.file);
	const base = {
		kind: "text" as const,
		...found,
		...(language && { language }),
		...(cut.note && { cutNote: cut.note }),
	};
	if (!context.redactSecrets) return { ...base, text: cut.text, redactions: 0 };
	const redacted = await redactedText(cut.text, context.scan);
	if (redacted) return { ...base, text: redacted.text, redactions: redacted.count };
	const { file, shown, startLine, endLine } = found;
	return { kind: "withheld", file, shown, startLine, endLine, ...SCAN_FAILED };
}

/**
 * The file opened without blocking (a FIFO never holds pi up) when it is a regular file, with its size, or
 * why not. Each step is a thread-pool round trip the prompt waits for, so there are as few as can be.
 */
async function openRegular(file: string): Promise<{ handle: FileHandle; size: number } | string> {
	let handle: FileHandle | undefined;
	try {
		handle = await open(file, OPEN_FLAGS);
		const stats = await handle.stat();
		if (!stats.isFile()) throw Object.assign(new Error("not a regular file"), { code: "EISDIR" });
		if (stats.size > MAX_REFERENCED_FILE_BYTES) {
			await handle.close();
			return `larger than ${MAX_REFERENCED_FILE_BYTES / 1024 / 1024} MiB`;
		}
		return { handle, size: stats.size };
	} catch (error) {
		await handle?.close().catch(() => {});
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return "file not found";
		if (code === "EACCES" || code === "EPERM") return "not readable";
		if (code === "EISDIR") return "not a regular file";
		return `not readable (${code ?? String(error)})`;
	}
}

/**
 * The file's lines (LF, a CR before it dropped), or why it cannot be referenced. One read of the size fstat
 * gave, plus a byte to tell a file that grew since, which alone needs more reads (still capped).
 */
async function readLines({ handle, size }: { handle: FileHandle; size: number }): Promise<string[] | string> {
	let bytes = Buffer.allocUnsafe(size + 1);
	let length = (await handle.read(bytes, 0, bytes.length, 0)).bytesRead;
	while (length === bytes.length) {
		if (length > MAX_REFERENCED_FILE_BYTES) return `larger than ${MAX_REFERENCED_FILE_BYTES / 1024 / 1024} MiB`;
		bytes = Buffer.concat([bytes, Buffer.allocUnsafe(bytes.length)]);
		const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
		if (bytesRead === 0) break;
		length += bytesRead;
	}
	const text = bytes.subarray(0, length);
	if (text.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return "binary";
	const lines = text
		.toString("utf8")
		.split("\n")
		.map((line) => line.replace(/\r$/, ""));
	if (lines.length > 1 && lines.at(-1) === "") lines.pop();
	return lines;
}
