import { lineAnchor } from "../../references/core/parse.ts";
import { MAX_REFERENCED_BYTES_PER_PROMPT } from "../../references/core/sections.ts";
import { escapeForPrompt, withoutControlCharactersKeepingLines } from "../../shared/core/display-text.ts";
import { shownPath } from "../../shared/core/paths.ts";
import { cutText } from "../../shared/core/text-cuts.ts";
import type { BridgePrompt, BufferState } from "./bridge-messages.ts";
import type { PromptPart } from "./prompt-parts.ts";

/** What the safety rules said of one inlined part: withheld (why), or its text with credentials redacted. */
export type PartVerdict = { withheld: string } | { redacted: string };

export type FinishedPrompt = { ok: true; text: string; withheld: number; cut: number } | { ok: false; reason: string };

/**
 * The prompt as pi sends it: the lead (a link to the file or a hint), then the user's words as typed (control
 * characters dropped) with each inlined part as the safety rules left it: withheld with a note, credentials
 * redacted, a block cut at the references' 64 KiB, all blocks at their 256 KiB a prompt. `verdicts` has one
 * entry per part (none for words). A block pi cannot tell the file of, while the buffer's file is a secret
 * file, refuses the whole prompt: it might be that file's text.
 */
export function finishedPrompt(input: {
	lead?: string;
	parts: readonly PromptPart[];
	verdicts: readonly (PartVerdict | undefined)[];
	/** Why the buffer the prompt was sent from is a secret file, when it is. */
	bufferSecret?: string;
}): FinishedPrompt {
	const { parts, verdicts, bufferSecret } = input;
	if (bufferSecret !== undefined && parts.some((part) => part.kind === "block" && part.origin.from === "unknown"))
		return {
			ok: false,
			reason: `the prompt holds a code block pi cannot tell the file of, and the buffer's file is secret (${bufferSecret}): nothing sent`,
		};
	let inlinedBytes = 0;
	let withheld = 0;
	let cut = 0;
	const pieces = parts.map((part, index): string => {
		if (part.kind === "words") return withoutControlCharactersKeepingLines(part.text);
		const verdict = verdicts[index] ?? { withheld: "not checked" };
		if ("withheld" in verdict) {
			withheld++;
			if (part.kind === "mark") return `${escapeForPrompt(part.head, false)} [withheld: ${verdict.withheld}]`;
			return `[${part.kind === "block" ? "code block" : "diagnostics"} withheld: ${verdict.withheld}]`;
		}
		if (part.kind === "mark") return escapeForPrompt(`${part.head}${verdict.redacted}`, false);
		if (part.kind === "diagnostics") return escapeForPrompt(verdict.redacted, false);
		const lines = verdict.redacted.split("\n").length;
		const kept = cutText(verdict.redacted, { first: 1, last: lines }, "code block");
		const bytes = Buffer.byteLength(kept.text, "utf8");
		if (inlinedBytes + bytes > MAX_REFERENCED_BYTES_PER_PROMPT) {
			cut++;
			return `[code block left out: ${MAX_REFERENCED_BYTES_PER_PROMPT / 1024} KiB of inlined code per prompt reached]`;
		}
		inlinedBytes += bytes;
		if (kept.note) cut++;
		const close = part.close ?? part.open.replace(/[^`].*$/, "");
		return [escapeForPrompt(part.open, false), kept.text, close, ...(kept.note ? [kept.note] : [])].join("\n");
	});
	const text = pieces.join("");
	return { ok: true, text: input.lead ? `${input.lead}\n\n${text}` : text, withheld, cut };
}

/**
 * What the model is told of the buffer first, by its state: a link to a saved file (with the lines the prompt's
 * code came from), else a hint of what the disk holds of it. `exists`: asked of the disk only for an older
 * plugin that sends no state.
 */
export function promptLead(context: BridgePrompt["context"], facts: { projectDir: string; exists?: boolean }) {
	const { file } = context;
	// A nameless buffer's file is always "" (nvim_buf_get_name): its hint needs no path.
	if (context.buffer_state === "nameless") return UNSAVED_HINT;
	if (!file.startsWith("/")) return undefined;
	const name = pathText(shownPath(file, facts.projectDir));
	const state: BufferState | "missing" = context.buffer_state ?? (facts.exists ? "saved" : "missing");
	switch (state) {
		case "saved":
			return `File: ${withRange(name, context.range)}`;
		case "modified":
			return `[Hint: ${name} has unsaved changes in Neovim: the file on disk may differ. Ask the user, or for its current text, before editing it.]`;
		case "scratch":
			return `[Hint: the code is from a scratch buffer in Neovim, a copy that does not last (${name}): do not edit that file; ask the user for the real one.]`;
		case "missing":
			return `[Hint: ${name} does not exist on disk (a buffer Neovim has not saved?): do not search for it; ask the user where it is.]`;
		default:
			return UNSAVED_HINT;
	}
}

const UNSAVED_HINT =
	"[Hint: the code is from a Neovim buffer not saved to a file: do not search the disk for it; ask the user where it belongs.]";

/** `@src/a.ts#L12-20`; several ranges: `@src/a.ts (lines 25, 40-45)`. */
function withRange(name: string, range: string | undefined): string {
	if (range === undefined) return name;
	const spans = range.split(",");
	if (spans.length > 1) return `${name} (lines ${spans.join(", ")})`;
	const [start, end] = (spans[0] ?? "").split("-").map(Number);
	return start === undefined || Number.isNaN(start) ? name : `${name}${lineAnchor(start, end ?? start)}`;
}

const pathText = (path: string) => {
	const escaped = escapeForPrompt(path, false);
	return /\s/.test(escaped) ? `@"${escaped}"` : `@${escaped}`;
};
