import { type Fields, isFields } from "../../../shared/core/fields.ts";
import { headChars } from "../../../shared/core/text-cuts.ts";
import { MAX_DIAGNOSTICS, MAX_UNSAVED_FILES } from "../../core/protocol-state.ts";

/**
 * How much one Neovim snapshot may carry. The Lua (core/lua.ts) cuts to these in bytes before it sends; pi's
 * schema (core/snapshot.ts) bounds the same fields in characters, never below them (a UTF-8 byte cap is also a
 * character cap); what still comes over a bound, from a Neovim not running pi's Lua, is cut here with a reason.
 */

/**
 * The Lua cuts a selection's text here, inside a line: above pi's own cut (64 KiB, shared/core/text-cuts.ts), so
 * a selection this long is cut again there and gets the block's usual cut note saying which lines were left out.
 */
export const LUA_SELECTION_BYTES = 66_000;
/** pi's schema bound on a selection's text: above the Lua's cut, so a real Neovim's selection always passes. */
export const SNAPSHOT_SELECTION_CHARS = 70_000;
/** Linux's PATH_MAX: a longer cwd, file or argument names nothing a process can open. */
export const MAX_PATH_BYTES = 4096;
export const MAX_ARGS = 64;
export const MAX_LANGUAGE_BYTES = 200;
/** Neovim's modes are a few characters (`no\22`, `niI`). */
export const MAX_MODE_BYTES = 16;
export const MAX_DIAGNOSTIC_MESSAGE_BYTES = 1024;
export const MAX_DIAGNOSTIC_SOURCE_BYTES = 200;
export const MAX_LISTED_FILES = MAX_UNSAVED_FILES;
export { MAX_DIAGNOSTICS };

/**
 * Neovim's answer with every oversize field cut or left out, and why: the rest of the snapshot stays. A value
 * that must be there is cut (cwd, an argument, the mode, a message); a file name is left out, since a cut one
 * names another file (the buffer then counts as unnamed; a longer path cannot be written, so the guard loses
 * nothing). Nothing else is judged here: the schema checks what comes out.
 */
export function cutOversize(raw: unknown): { value: unknown; cuts: string[] } {
	if (!isFields(raw)) return { value: raw, cuts: [] };
	const cuts: string[] = [];
	const cutString = (value: unknown, max: number, what: string): unknown => {
		if (typeof value !== "string" || value.length <= max) return value;
		cuts.push(`${what} cut at ${max} characters (${value.length} sent)`);
		return headChars(value, max);
	};
	const capList = (value: unknown, max: number, what: string): unknown => {
		if (!Array.isArray(value) || value.length <= max) return value;
		cuts.push(`${what}: the first ${max} of ${value.length} kept`);
		return value.slice(0, max);
	};
	const out: Fields = {
		...raw,
		mode: cutString(raw.mode, MAX_MODE_BYTES, "mode"),
		cwd: cutString(raw.cwd, MAX_PATH_BYTES, "cwd"),
	};
	const argv = capList(raw.argv, MAX_ARGS, "argv");
	if (Array.isArray(argv)) out.argv = argv.map((arg) => cutString(arg, MAX_PATH_BYTES, "an argument"));
	const unsaved = capList(raw.unsaved, MAX_LISTED_FILES, "the unsaved list");
	if (Array.isArray(unsaved)) {
		const named = unsaved.filter((name) => typeof name !== "string" || name.length <= MAX_PATH_BYTES);
		if (named.length < unsaved.length) cuts.push(`unsaved file names over ${MAX_PATH_BYTES} characters left out`);
		out.unsaved = named;
	}
	if (isFields(raw.buffer)) out.buffer = cutBuffer(raw.buffer, cuts, cutString, capList);
	if (isFields(raw.selection)) {
		out.selection = {
			...raw.selection,
			text: cutString(raw.selection.text, SNAPSHOT_SELECTION_CHARS, "the selection"),
		};
	}
	return { value: out, cuts };
}

function cutBuffer(
	buffer: Fields,
	cuts: string[],
	cutString: (value: unknown, max: number, what: string) => unknown,
	capList: (value: unknown, max: number, what: string) => unknown,
): Fields {
	const out: Fields = { ...buffer, language: cutString(buffer.language, MAX_LANGUAGE_BYTES, "the language") };
	if (typeof buffer.file === "string" && buffer.file.length > MAX_PATH_BYTES) {
		delete out.file;
		cuts.push(`the file name over ${MAX_PATH_BYTES} characters left out (the buffer counts as unnamed)`);
	}
	const diagnostics = capList(buffer.diagnostics, MAX_DIAGNOSTICS, "the diagnostics");
	if (Array.isArray(diagnostics)) {
		out.diagnostics = diagnostics.map((item) =>
			isFields(item)
				? {
						...item,
						message: cutString(item.message, MAX_DIAGNOSTIC_MESSAGE_BYTES, "a diagnostic's message"),
						...(item.source !== undefined && {
							source: cutString(item.source, MAX_DIAGNOSTIC_SOURCE_BYTES, "a diagnostic's source"),
						}),
					}
				: item,
		);
	}
	return out;
}
