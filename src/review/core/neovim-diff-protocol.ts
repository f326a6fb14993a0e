import { sanitizeForDisplay } from "../../shared/core/display-text.ts";
import {
	type DiffRequest,
	type EditorAnswer,
	MAX_ACCEPTED_TEXT_CHARS,
	MAX_REJECT_REASON_CHARS,
	type RequestOutcome,
	type ShownResult,
} from "./diff-host.ts";

/**
 * The review's exchange with Neovim, both ways. Out: the arguments of core/neovim-diff-lua.ts's chunks, each text
 * split into the lines a buffer holds here rather than in Lua, so a file of a few MB crosses as one array and no
 * chunk of Lua parses it. In: the open chunk's result and the `pi_ide_diff` notifications, checked. Those come
 * from another process (any Lua in that Neovim may call `rpcnotify` on pi's channel): wrong shapes are ignored,
 * oversize text refused, nothing here throws.
 */

/** One side as a buffer holds it: lines without their endings, and what the endings were. */
export interface BufferSide {
	/** Never empty: a buffer always has a line. */
	lines: string[];
	/** The text ended with a line ending (`'eol'`): `:w` sends one back after the last line. */
	eol: boolean;
	/** CRLF, judged as pi's edit tool judges a file (its first line ending): `'fileformat'` dos, sent back so. */
	dos: boolean;
	/** A leading byte order mark, shown as `'bomb'` and not as a character; never sent back (VS Code's way too). */
	bom: boolean;
}

const BOM = "\uFEFF";

/** A name longer than this is cut: a buffer name is read in a tab line. */
const MAX_NAME_CHARS = 300;

/**
 * The text split on "\n", a trailing "\r" dropped from every line it ended (a CRLF file shows without `^M`).
 * undefined (a new file) is one empty line.
 */
export function bufferSide(text: string | undefined): BufferSide {
	if (text === undefined || text === "") return { lines: [""], eol: false, dos: false, bom: false };
	const bom = text.startsWith(BOM);
	const body = bom ? text.slice(1) : text;
	const firstBreak = body.indexOf("\n");
	const lines = body.split("\n");
	const eol = lines.length > 1 && lines[lines.length - 1] === "";
	if (eol) lines.pop();
	// The last line keeps a "\r" no "\n" follows: it ends no line, so it is the file's text.
	const terminated = eol ? lines.length : lines.length - 1;
	for (let index = 0; index < terminated; index++) {
		const line = lines[index] as string;
		if (line.endsWith("\r")) lines[index] = line.slice(0, -1);
	}
	return { lines: lines.length > 0 ? lines : [""], eol, dos: firstBreak > 0 && body[firstBreak - 1] === "\r", bom };
}

/** `pi: src/a.ts (on disk)` (or `(new file)`) and `pi: src/a.ts (proposed)`: one line, no control characters. */
export function bufferNames(displayName: string, isNew: boolean): { left: string; right: string } {
	const name = sanitizeForDisplay(displayName).slice(0, MAX_NAME_CHARS);
	return { left: `pi: ${name} ${isNew ? "(new file)" : "(on disk)"}`, right: `pi: ${name} (proposed)` };
}

/** The group every autocmd of pi's reviews in that Neovim lives in: tied to pi's channel, gone with it. */
export function reviewGroupName(channel: number): string {
	return `pi_ide_review_${channel}`;
}

/**
 * The open chunk's arguments. `deadlineSeconds`: wall-clock unix seconds after which Neovim opens nothing (the
 * request waited behind a prompt and pi stopped waiting); `enter`: the user may be taken to the tab page.
 */
export function openArguments(
	request: DiffRequest,
	options: { channel: number; enter: boolean; deadlineSeconds: number },
): unknown[] {
	return [
		options.channel,
		reviewGroupName(options.channel),
		{
			id: request.id,
			file: request.file,
			deadline: options.deadlineSeconds,
			enter: options.enter,
			names: bufferNames(request.displayName, request.onDisk === undefined),
			left: bufferSide(request.onDisk),
			right: bufferSide(request.proposed),
		},
	];
}

/** The close chunk's arguments. */
export function closeArguments(channel: number, id: string): unknown[] {
	return [channel, reviewGroupName(channel), id];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** The open chunk's result: where the diff is (`tab page 2 of Neovim`), or why it is not shown. */
export function shownFromOpen(outcome: RequestOutcome): ShownResult {
	if (!outcome.ok) return { ok: false, reason: `Neovim did not open the diff: ${outcome.reason}` };
	const value = outcome.value;
	if (!isRecord(value)) return { ok: false, reason: "Neovim's answer to opening the diff was not understood" };
	if (value.ok === true && typeof value.tab === "number" && Number.isInteger(value.tab) && value.tab > 0)
		return { ok: true, where: `tab page ${value.tab} of Neovim` };
	if (value.ok === false && typeof value.reason === "string")
		return { ok: false, reason: `Neovim did not open the diff: ${value.reason.slice(0, 300)}` };
	return { ok: false, reason: "Neovim's answer to opening the diff was not understood" };
}

/**
 * One `pi_ide_diff` notification's params (`[id, kind, text]`) as the answer to review `id`; undefined when it
 * is another review's or not a notification pi sends.
 */
export function answerFromEvent(params: unknown, id: string): EditorAnswer | undefined {
	if (!Array.isArray(params) || params[0] !== id) return undefined;
	const [, kind, text] = params as [unknown, unknown, unknown];
	if (kind === "accepted") {
		if (typeof text !== "string") return undefined;
		if (text.length > MAX_ACCEPTED_TEXT_CHARS)
			return {
				kind: "failed",
				reason: `the text accepted in Neovim is over ${MAX_ACCEPTED_TEXT_CHARS / 1024 / 1024} MiB: decide in pi`,
			};
		return { kind: "accepted", text };
	}
	if (kind === "rejected") {
		const reason = typeof text === "string" ? text.trim().slice(0, MAX_REJECT_REASON_CHARS) : "";
		return reason === "" ? { kind: "rejected" } : { kind: "rejected", reason };
	}
	if (kind === "closed") return { kind: "closed" };
	return undefined;
}
