import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { sanitizeForDisplay } from "../../shared/core/display-text.ts";
import {
	type DiffRequest,
	type EditorAnswer,
	MAX_REJECT_REASON_CHARS,
	type RequestOutcome,
	type ShownResult,
} from "./diff-host.ts";
import { unifiedDiff } from "./unified-diff.ts";

/**
 * The review's exchange with Emacs, both ways. Out: the arguments of core/emacs-diff-elisp.ts's chunks, the
 * proposal's text made what the buffer shows (LF, no BOM: the gate puts both back, core/final-text.ts) and the
 * lines it changes. In: the open chunk's value and the `{"kind":"review"}` lines, checked. Those come from another
 * process (any elisp in that Emacs may call pi's `<prefix>send`): wrong shapes are ignored, nothing here throws.
 */

/** A name longer than this is cut: a buffer name is read in a mode line. */
const MAX_NAME_CHARS = 300;
/** The first this many changed spans are highlighted: the highlight is a help, not the diff. */
const MAX_HIGHLIGHTS = 1000;
/** An id is part of a file name in pi's dir: nothing but these characters. */
const SAFE_ID = /^[A-Za-z0-9]{1,32}$/;

/** The buffer's name: `*pi: src/a.ts (proposed)*`, one line, no control characters. */
export function proposalBufferName(displayName: string): string {
	return `*pi: ${sanitizeForDisplay(displayName).slice(0, MAX_NAME_CHARS)} (proposed)*`;
}

/**
 * The header line: how to answer, keys first, so that a window half a terminal wide still shows both (the mode
 * line names the buffer). Fixed text: no name in it, so nothing of the model's is read as a `%` construct.
 */
export const PROPOSAL_HEADER = " pi's proposal: C-c C-c accept, C-c C-k reject, kill it: pi asks";

/**
 * The text as the buffer holds it: the BOM dropped, and the "\r" of every "\r\n" (a CRLF file shows without `^M`);
 * `dos` when the file's first line ending is CRLF (the mode line says so). A lone "\r" is the file's text.
 */
export function proposalText(text: string): { text: string; dos: boolean } {
	const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
	const firstBreak = body.indexOf("\n");
	return { text: body.replaceAll("\r\n", "\n"), dos: firstBreak > 0 && body[firstBreak - 1] === "\r" };
}

/**
 * The proposal's lines the change added or rewrote, as `[first, last]` (1-based, inclusive), from the same line
 * diff the model is told of the user's changes with; none for a new file (every line is new).
 */
export function changedLines(onDisk: string | undefined, proposed: string): [number, number][] {
	if (onDisk === undefined) return [];
	const diff = unifiedDiff(proposalText(onDisk).text, proposalText(proposed).text, { from: "a", to: "b" });
	const ranges: [number, number][] = [];
	let line = 0;
	// The first two rows are the `---`/`+++` headers.
	for (const row of diff.split("\n").slice(2)) {
		const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(row);
		if (hunk) {
			// A hunk that adds to an empty side starts at the line before (`+4,0`).
			line = Number(hunk[1]) + (hunk[2] === "0" ? 1 : 0);
			continue;
		}
		if (line === 0) continue;
		if (row.startsWith("+")) {
			const last = ranges.at(-1);
			if (last && last[1] === line - 1) last[1] = line;
			else ranges.push([line, line]);
			line++;
		} else if (row.startsWith(" ")) line++;
	}
	return ranges.slice(0, MAX_HIGHLIGHTS);
}

/** Where a review's files live in pi's private dir: the proposal pi writes, the text Emacs writes on C-c C-c. */
export function reviewFileNames(id: string): { proposal: string; accepted: string } | undefined {
	if (!SAFE_ID.test(id)) return undefined;
	return { proposal: `review-${id}-proposed`, accepted: `review-${id}-accepted` };
}

/**
 * The open chunk's arguments, the proposal's text aside (pi writes it to `proposalPath`). `deadlineSeconds`:
 * wall-clock unix seconds after which Emacs opens nothing; `enter`: the user may be taken to the proposal.
 */
export function openArguments(
	request: DiffRequest,
	options: { prefix: string; proposalPath: string; acceptPath: string; deadlineSeconds: number; enter: boolean },
): Record<string, unknown> {
	const changed = changedLines(request.onDisk, request.proposed);
	return {
		prefix: options.prefix,
		id: request.id,
		file: request.file,
		buffer: proposalBufferName(request.displayName),
		header: PROPOSAL_HEADER,
		proposal: options.proposalPath,
		accept: options.acceptPath,
		deadline: options.deadlineSeconds,
		enter: options.enter,
		dos: proposalText(request.proposed).dos,
		line: changed[0]?.[0] ?? 1,
		changed,
	};
}

/** The close chunk's arguments. */
export function closeArguments(prefix: string, id: string): Record<string, unknown> {
	return { prefix, id };
}

/** The close chunk's value: `{closed: n}` once Emacs ran it (n reviews killed, 0 included); else it is asked again. */
export function closeRan(outcome: RequestOutcome): boolean {
	return outcome.ok && typeof outcome.value === "object" && outcome.value !== null && "closed" in outcome.value;
}

const OpenValueSchema = Type.Union([
	Type.Object({ ok: Type.Literal(true), buffer: Type.String({ maxLength: 1000 }), window: Type.Boolean() }),
	Type.Object({ ok: Type.Literal(false), reason: Type.String({ maxLength: 100_000 }) }),
	Type.Object({ error: Type.String({ maxLength: 100_000 }) }),
]);
const openValueCheck = Compile(OpenValueSchema);

/** The open chunk's value: where the proposal is (`buffer *pi: src/a.ts (proposed)*`), or why it is not shown. */
export function shownFromOpen(outcome: RequestOutcome): ShownResult {
	if (!outcome.ok) return { ok: false, reason: `Emacs did not open the proposal: ${outcome.reason}` };
	const value = outcome.value;
	if (!openValueCheck.Check(value))
		return { ok: false, reason: "Emacs's answer to opening the proposal was not understood" };
	if ("error" in value) return { ok: false, reason: `Emacs did not open the proposal: ${value.error.slice(0, 300)}` };
	if (!value.ok) return { ok: false, reason: `Emacs did not open the proposal: ${value.reason.slice(0, 300)}` };
	const name = sanitizeForDisplay(value.buffer).slice(0, MAX_NAME_CHARS + 20);
	return { ok: true, where: value.window ? `buffer ${name}` : `buffer ${name} (in no window: C-x b to it)` };
}

/** One line Emacs sends of a review. "shown" is in the plan's vocabulary; the open's own value says it here. */
export const EmacsReviewMessageSchema = Type.Object({
	kind: Type.Literal("review"),
	id: Type.String({ maxLength: 64 }),
	event: Type.Union([
		Type.Literal("shown"),
		Type.Literal("accepted"),
		Type.Literal("rejected"),
		Type.Literal("closed"),
	]),
	reason: Type.Optional(Type.String()),
});
export type EmacsReviewMessage = Static<typeof EmacsReviewMessageSchema>;
const reviewMessageCheck = Compile(EmacsReviewMessageSchema);

/** What a line says of review `id`: an accept (its text is in the accept file), a reject, a close; else nothing. */
export type ReviewEvent = { kind: "accepted" } | Extract<EditorAnswer, { kind: "rejected" | "closed" }>;

export function reviewEventOf(message: unknown, id: string): ReviewEvent | undefined {
	if (!reviewMessageCheck.Check(message) || message.id !== id) return undefined;
	switch (message.event) {
		case "accepted":
			return { kind: "accepted" };
		case "rejected": {
			const reason = (message.reason ?? "").trim().slice(0, MAX_REJECT_REASON_CHARS);
			return reason === "" ? { kind: "rejected" } : { kind: "rejected", reason };
		}
		case "closed":
			return { kind: "closed" };
		default:
			return undefined;
	}
}
