import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { createEditToolDefinition, type ExtensionContext } from "@mariozechner/pi-coding-agent";
import { resolveToolPath } from "../safety/core/tool-path.ts";
import type { ReviewedTool } from "./core/diff-host.ts";

/** What a review shows and decides over: the call's file before and after, as pi's own tool would write it. */
export interface Proposal {
	tool: ReviewedTool;
	/** Absolute, resolved as pi's tools resolve the model's path. */
	file: string;
	/** What the left side shows: the file on disk, or what an earlier accepted call of this message leaves. */
	before: string | undefined;
	/** The file on disk as the review began (undefined: absent): read again after the decision. */
	onDisk: string | undefined;
	proposed: string;
}

export type ProposalResult = { ok: true; proposal: Proposal } | { ok: false; reason: string };

/** The file's text, undefined when it does not exist; anything else (a dir, no permission) is pi's tool's to report. */
export async function textOnDisk(file: string): Promise<{ ok: true; text: string | undefined } | { ok: false }> {
	try {
		return { ok: true, text: await readFile(file, "utf8") };
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ENOENT" ? { ok: true, text: undefined } : { ok: false };
	}
}

/**
 * The whole file after the call. `write` writes its content verbatim. `edit` runs pi's own edit tool with
 * operations that read the earlier accepted text (`pending`) or the disk and capture the write: its matching,
 * BOM and line endings exactly. Not ok (nothing to review) when pi's tool would fail on the call itself.
 */
export async function proposalOf(
	tool: ReviewedTool,
	input: Record<string, unknown>,
	cwd: string,
	pending: (file: string) => string | undefined,
): Promise<ProposalResult> {
	if (typeof input.path !== "string" || input.path === "") return { ok: false, reason: "no path" };
	const file = resolveToolPath(input.path, cwd, homedir());
	const disk = await textOnDisk(file);
	if (!disk.ok) return { ok: false, reason: "the file cannot be read" };
	const before = pending(file) ?? disk.text;
	if (tool === "write") {
		if (typeof input.content !== "string") return { ok: false, reason: "no content" };
		// A file pi's write cannot write fails without the user's time spent on it.
		if (disk.text !== undefined && !(await writable(file))) return { ok: false, reason: "the file is not writable" };
		return { ok: true, proposal: { tool, file, before, onDisk: disk.text, proposed: input.content } };
	}
	if (before === undefined) return { ok: false, reason: "the file does not exist" };
	const proposed = await editedText(file, before, input, cwd, disk.text === undefined);
	return typeof proposed === "string"
		? { ok: true, proposal: { tool, file, before, onDisk: disk.text, proposed } }
		: { ok: false, reason: proposed.reason };
}

const writable = (file: string) =>
	access(file, constants.W_OK).then(
		() => true,
		() => false,
	);

/** `pendingOnly`: the file exists only as an earlier accepted call of this message leaves it (not on disk yet). */
async function editedText(
	file: string,
	before: string,
	input: Record<string, unknown>,
	cwd: string,
	pendingOnly: boolean,
): Promise<string | { reason: string }> {
	let written: string | undefined;
	const definition = createEditToolDefinition(cwd, {
		operations: {
			// The file itself is read from `before`; pi's tool may still not write it (read-only): asked as pi asks.
			access: async (path) => {
				if (path !== file || !pendingOnly) await access(path, constants.R_OK | constants.W_OK);
			},
			readFile: async (path) => (path === file ? Buffer.from(before, "utf8") : readFile(path)),
			writeFile: async (path, content) => {
				if (path === file) written = content;
			},
		},
	});
	try {
		// A copy: pi 1.x has already prepared the arguments, 0.73's legacy shape is prepared here; the call's own input stays.
		const copy = structuredClone(input);
		const prepared = definition.prepareArguments ? definition.prepareArguments(copy) : copy;
		await definition.execute(
			"pi-ide-review",
			prepared as never,
			undefined,
			undefined,
			undefined as unknown as ExtensionContext,
		);
	} catch (error) {
		return { reason: error instanceof Error ? error.message : String(error) };
	}
	return written ?? { reason: "pi's edit wrote nothing" };
}
