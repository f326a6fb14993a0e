import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { isFields } from "../../shared/core/fields.ts";
import { headChars } from "../../shared/core/text-cuts.ts";

/**
 * An editor's `getSuggestions` params (the peer protocol's "Editor-initiated requests"), checked and capped
 * before anything reads them: the editor is another process, and what it sends goes on to a model that bills
 * by the token. A request that is not one is a reason, never a throw.
 */

/** The cursor's context is cut to this many UTF-8 bytes on each side (pi-ide.nvim sends 20 lines and 10). */
export const CURSOR_CONTEXT_MAX_BYTES = 8192;
/** pi-ide.nvim's treesitter outline is capped at this many characters on its side too. */
export const OUTLINE_MAX_CHARS = 12_000;
export const ENCLOSING_SCOPE_MAX_CHARS = 4000;
export const LANGUAGE_MAX_CHARS = 64;
/** A path longer than Linux's PATH_MAX names no file. */
export const FILE_PATH_MAX_CHARS = 4096;
export const MODEL_REF_MAX_CHARS = 200;
/** The protocol's cap on alternatives, and what an editor that names no count gets. */
export const MAX_SUGGESTIONS = 3;

/**
 * The params as they may come. Unknown fields are accepted and dropped (an editor newer than pi may send more).
 * A path, a language or a model over its cap is refused, not cut: a cut path or model ref names another one
 * (`/a/b/.env` cut before `.env` is no longer a secret file's name).
 */
const SuggestionRequestSchema = Type.Object({
	filePath: Type.Optional(Type.String({ maxLength: FILE_PATH_MAX_CHARS })),
	language: Type.Optional(Type.String({ maxLength: LANGUAGE_MAX_CHARS })),
	outline: Type.Optional(Type.String()),
	enclosingScope: Type.Optional(Type.String()),
	cursorBefore: Type.String(),
	cursorAfter: Type.String(),
	/** A cap on alternatives. Any number: the seed accepts any and truncates it. */
	suggestionCount: Type.Optional(Type.Number()),
	/** `provider/id`, the editor's preference (core/model-choice.ts decides whether it counts). */
	model: Type.Optional(Type.String({ maxLength: MODEL_REF_MAX_CHARS })),
	/** pi-ide.nvim's: the cursor is inside a comment, so prose continuing it is asked for. */
	cursorInComment: Type.Optional(Type.Boolean()),
});

/** A checked request: the fields capped, `suggestionCount` always present (0 to `MAX_SUGGESTIONS`). */
export type SuggestionRequest = Omit<Static<typeof SuggestionRequestSchema>, "suggestionCount"> & {
	suggestionCount: number;
};

export type SuggestionRequestParse = { ok: true; request: SuggestionRequest } | { ok: false; reason: string };

const requestCheck = Compile(SuggestionRequestSchema);

const OPTIONAL_FIELDS = [
	"filePath",
	"language",
	"outline",
	"enclosingScope",
	"suggestionCount",
	"model",
	"cursorInComment",
] as const;

/**
 * The params checked and capped. An optional field sent as `null` counts as absent (Lua's `vim.NIL`, a JSON
 * encoder that writes every key). `suggestionCount` is the seed's cap, clamped as the seed clamps it: truncated
 * to 0..3, absent 3; 0 (or less) means the editor wants none, and gets `[]`.
 */
export function parseSuggestionRequest(params: unknown): SuggestionRequestParse {
	if (!isFields(params)) return { ok: false, reason: "getSuggestions params are not an object" };
	const fields = { ...params };
	for (const name of OPTIONAL_FIELDS) if (fields[name] === null) delete fields[name];
	if (!requestCheck.Check(fields)) {
		const first = requestCheck.Errors(fields)[0];
		const where = first?.instancePath ? ` ${first.instancePath.slice(1, 40)}` : "";
		return { ok: false, reason: `not a getSuggestions request:${where} ${first?.message ?? "wrong shape"}` };
	}
	return {
		ok: true,
		request: {
			...(fields.filePath !== undefined && { filePath: fields.filePath }),
			...(fields.language !== undefined && { language: fields.language }),
			...(fields.outline !== undefined && { outline: headChars(fields.outline, OUTLINE_MAX_CHARS) }),
			...(fields.enclosingScope !== undefined && {
				enclosingScope: headChars(fields.enclosingScope, ENCLOSING_SCOPE_MAX_CHARS),
			}),
			// The text nearest the cursor is what matters: before keeps its end, after its start.
			cursorBefore: tailBytes(fields.cursorBefore, CURSOR_CONTEXT_MAX_BYTES),
			cursorAfter: headBytes(fields.cursorAfter, CURSOR_CONTEXT_MAX_BYTES),
			suggestionCount: suggestionCountOf(fields.suggestionCount),
			...(fields.model !== undefined && { model: fields.model }),
			...(fields.cursorInComment !== undefined && { cursorInComment: fields.cursorInComment }),
		},
	};
}

function suggestionCountOf(value: number | undefined): number {
	if (value === undefined || !Number.isFinite(value)) return MAX_SUGGESTIONS;
	return Math.min(MAX_SUGGESTIONS, Math.max(0, Math.trunc(value)));
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** A lone surrogate is written as U+FFFD, 3 bytes, by every UTF-8 encoder. */
const unitBytes = (unit: number) => (unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3);

/**
 * The start of the text in at most `maxBytes` of UTF-8, cut between characters. Counted, not encoded: a
 * 16 MiB field costs what its kept head does.
 */
export function headBytes(text: string, maxBytes: number): string {
	// Every code unit is at most 3 bytes (a pair is 4 for 2), so a short text needs no count.
	if (text.length * 3 <= maxBytes) return text;
	let bytes = 0;
	let end = 0;
	while (end < text.length) {
		const unit = text.charCodeAt(end);
		const pair = isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(end + 1));
		const width = pair ? 4 : unitBytes(unit);
		if (bytes + width > maxBytes) break;
		bytes += width;
		end += pair ? 2 : 1;
	}
	return text.slice(0, end);
}

/** The end of the text in at most `maxBytes` of UTF-8, cut between characters. */
export function tailBytes(text: string, maxBytes: number): string {
	if (text.length * 3 <= maxBytes) return text;
	let bytes = 0;
	let start = text.length;
	while (start > 0) {
		const unit = text.charCodeAt(start - 1);
		const pair = isLowSurrogate(unit) && start >= 2 && isHighSurrogate(text.charCodeAt(start - 2));
		const width = pair ? 4 : unitBytes(unit);
		if (bytes + width > maxBytes) break;
		bytes += width;
		start -= pair ? 2 : 1;
	}
	return text.slice(start);
}
