import { posix } from "node:path";
import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { type Fields, isFields } from "../../../shared/core/fields.ts";
import { headChars } from "../../../shared/core/text-cuts.ts";
import { type EditorState, MAX_DIAGNOSTICS, MAX_UNSAVED_FILES } from "../../core/protocol-state.ts";
import { emacsOpenedArgs } from "./launch-flags.ts";
import { languageOfMode } from "./mode-language.ts";

/**
 * What pi's elisp may put in one snapshot (sent as the `caps` arg; core/elisp/state-elisp.ts `SNAPSHOT_FORM` cuts to them,
 * a selection in UTF-8 bytes, the rest in Emacs characters). The selection's cut is just above pi's own 64 KiB cut
 * (shared/core/text-cuts.ts), as Neovim's Lua's is: a selection cut in Emacs is cut again there and the block gets
 * its usual note naming the lines left out (a cut at exactly 64 KiB would reach the model with no note). A pushed
 * line stays far below what the unix socket holds (core/elisp/push-elisp.ts `PUSH_WINDOW_BYTES`).
 */
export const EMACS_SNAPSHOT_CAPS = {
	selection_bytes: 66_000,
	diagnostics: MAX_DIAGNOSTICS,
	message_chars: 1024,
	unsaved: MAX_UNSAVED_FILES,
	path_chars: 4096,
} as const;

/** An Emacs character can be two UTF-16 units (an emoji): pi's bounds are twice the elisp's cuts. */
const UNITS_PER_CHAR = 2;
const MAX_PATH_UNITS = EMACS_SNAPSHOT_CAPS.path_chars * UNITS_PER_CHAR;
/** A UTF-8 byte cap is a UTF-16 unit cap too (no character takes more units than bytes). */
const MAX_TEXT_UNITS = EMACS_SNAPSHOT_CAPS.selection_bytes;
/** The protocol's own bounds on a diagnostic (core/protocol-state.ts): a longer one is cut to them here. */
const PROTOCOL_MESSAGE_UNITS = 1024;
const PROTOCOL_SOURCE_UNITS = 200;

const Count = (minimum: number) => Type.Integer({ minimum, maximum: 2_147_483_647 });
const Position = Type.Object({ line: Count(1), column: Count(1) });
const AbsolutePath = Type.String({ pattern: "^/", maxLength: MAX_PATH_UNITS });

const EmacsDiagnosticSchema = Type.Object({
	severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info"), Type.Literal("hint")]),
	line: Count(1),
	column: Count(1),
	end_line: Count(1),
	end_column: Count(1),
	message: Type.String({ maxLength: PROTOCOL_MESSAGE_UNITS }),
	source: Type.Optional(Type.String({ maxLength: PROTOCOL_SOURCE_UNITS })),
});

/** What core/elisp/state-elisp.ts `SNAPSHOT_FORM` returns (STATE_ELISP's value, a push's `state`): Emacs's words, checked before use. */
export const EmacsSnapshotSchema = Type.Object({
	file: Type.Union([AbsolutePath, Type.Null()]),
	/** The buffer's name (`*scratch*`), for a buffer that visits no file. */
	name: Type.Optional(Type.String({ maxLength: 2000 })),
	mode: Type.String({ maxLength: 400 }),
	cursor: Position,
	modified: Type.Boolean(),
	lines_total: Count(0),
	region: Type.Union([
		Type.Object({
			start: Position,
			end: Position,
			text: Type.String({ maxLength: MAX_TEXT_UNITS }),
			active: Type.Boolean(),
			/** Null while active (pi takes now); the moment the elisp saw it end after that, if it did. */
			selected_at: Type.Union([Type.Number(), Type.Null()]),
			/** From a line's start to a line's start (before the final newline is dropped) or to a line's end. */
			whole_lines: Type.Optional(Type.Boolean()),
			/** The text is cut to `selection_bytes` (the region goes on past it). */
			text_cut: Type.Optional(Type.Boolean()),
		}),
		Type.Null(),
	]),
	diagnostics: Type.Array(EmacsDiagnosticSchema, { maxItems: MAX_DIAGNOSTICS }),
	unsaved: Type.Array(AbsolutePath, { maxItems: MAX_UNSAVED_FILES }),
	project_root: Type.Union([AbsolutePath, Type.Null()]),
	minibuffer: Type.Boolean(),
	frames: Count(0),
});
export type EmacsSnapshot = Static<typeof EmacsSnapshotSchema>;

const snapshotCheck = Compile(EmacsSnapshotSchema);

/** Diagnostic texts cut to the protocol's bounds (Emacs cuts in characters, the protocol counts UTF-16 units). */
function cutDiagnostics(raw: Fields, cuts: string[]): Fields {
	if (!Array.isArray(raw.diagnostics)) return raw;
	let cut = false;
	const diagnostics = raw.diagnostics.slice(0, MAX_DIAGNOSTICS).map((item: unknown) => {
		if (!isFields(item)) return item;
		const out = { ...item };
		for (const [key, max] of [
			["message", PROTOCOL_MESSAGE_UNITS],
			["source", PROTOCOL_SOURCE_UNITS],
		] as const) {
			const text = out[key];
			if (typeof text === "string" && text.length > max) {
				out[key] = headChars(text, max);
				cut = true;
			}
		}
		return out;
	});
	if (raw.diagnostics.length > MAX_DIAGNOSTICS)
		cuts.push(`the diagnostics: the first ${MAX_DIAGNOSTICS} of ${raw.diagnostics.length} kept`);
	if (cut) cuts.push("diagnostic texts cut to the protocol's length");
	return { ...raw, diagnostics };
}

/**
 * A snapshot from Emacs, checked: a reason instead of a throw when it is not what the elisp returns (the
 * elisp's caught error included). Diagnostic texts over the protocol's bounds are cut first, each with why.
 */
export function parseEmacsSnapshot(
	raw: unknown,
): { ok: true; snapshot: EmacsSnapshot; cuts: readonly string[] } | { ok: false; reason: string } {
	if (isFields(raw) && typeof raw.error === "string") {
		return { ok: false, reason: `Emacs could not describe its state: ${raw.error.slice(0, 200)}` };
	}
	const cuts: string[] = [];
	const value = isFields(raw) ? cutDiagnostics(raw, cuts) : raw;
	if (snapshotCheck.Check(value)) {
		if (value.region?.text_cut === true)
			cuts.push(`the selection's text cut in Emacs at ${EMACS_SNAPSHOT_CAPS.selection_bytes} bytes`);
		return { ok: true, snapshot: value, cuts };
	}
	const first = snapshotCheck.Errors(value)[0];
	return {
		ok: false,
		reason: `unexpected state from Emacs${first ? ` at ${first.instancePath || "/"}: ${first.message}` : ""}`,
	};
}

/**
 * The protocol state a state file would hold for this Emacs. The region is the selection: made now while it
 * is active (`use-region-p`; the elisp sends no time then), else at the moment the elisp saw it end (never later
 * than now), unknown when the elisp did not see it (a read without an install knows only an active one).
 */
export function stateFromEmacsSnapshot(
	snapshot: EmacsSnapshot,
	facts: { pid: number; cwd: string; argv: readonly string[]; nowSeconds: number },
): EditorState {
	const { file, region } = snapshot;
	const selectedAt = !region
		? null
		: region.active
			? facts.nowSeconds
			: region.selected_at === null
				? null
				: Math.min(region.selected_at, facts.nowSeconds);
	return {
		pid: facts.pid,
		cwd: facts.cwd,
		timestamp: facts.nowSeconds,
		app: "emacs",
		argv: emacsOpenedArgs(facts.argv),
		// A daemon whose last frame closed shows nothing: its hidden frame's buffer is no context of the user's.
		active_buffer:
			snapshot.frames === 0
				? null
				: {
						file,
						name: file !== null ? posix.basename(file) : snapshot.name || "[No File]",
						language: languageOfMode(snapshot.mode),
						cursor: snapshot.cursor,
						selection:
							region && file !== null
								? { start: region.start, end: region.end, text: region.text, selected_at: selectedAt }
								: null,
						modified: snapshot.modified,
						lines_total: snapshot.lines_total,
						...(snapshot.diagnostics.length > 0 && {
							diagnostics: snapshot.diagnostics.map(({ severity, line, column, message, source }) => ({
								severity,
								line,
								column,
								message,
								...(source !== undefined && { source }),
							})),
						}),
					},
		unsaved_files: snapshot.unsaved,
	};
}
