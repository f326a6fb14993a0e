import { posix } from "node:path";
import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { DiagnosticSchema, type EditorState, MAX_DIAGNOSTICS } from "../../core/protocol-state.ts";
import { neovimOpenedArgs } from "./launch-flags.ts";
import {
	cutOversize,
	MAX_ARGS,
	MAX_LANGUAGE_BYTES,
	MAX_LISTED_FILES,
	MAX_MODE_BYTES,
	MAX_PATH_BYTES,
	SNAPSHOT_SELECTION_CHARS,
} from "./snapshot-caps.ts";

/** Positions, counts and lists as Neovim reports them: bounded, so a broken Neovim cannot flood pi. */
const Count = (minimum: number) => Type.Integer({ minimum, maximum: 2_147_483_647 });
const Position = Type.Object({ line: Count(1), column: Count(1) });

/** What the state Lua returns (core/lua.ts): Neovim's own words, checked before pi uses any of it. */
export const SnapshotSchema = Type.Object({
	cwd: Type.String({ pattern: "^/", maxLength: MAX_PATH_BYTES }),
	argv: Type.Array(Type.String({ maxLength: MAX_PATH_BYTES }), { maxItems: MAX_ARGS }),
	ui: Type.Boolean(),
	mode: Type.String({ maxLength: MAX_MODE_BYTES }),
	unsaved: Type.Array(Type.String({ maxLength: MAX_PATH_BYTES }), { maxItems: MAX_LISTED_FILES }),
	left_visual: Type.Optional(Type.Boolean()),
	buffer: Type.Optional(
		Type.Object({
			file: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_PATH_BYTES })),
			language: Type.String({ maxLength: MAX_LANGUAGE_BYTES }),
			/** Line 0 before the first redraw of a headless start: no cursor yet. */
			cursor: Type.Object({ line: Count(0), column: Count(1) }),
			modified: Type.Boolean(),
			lines_total: Count(0),
			autoread: Type.Boolean(),
			diagnostics: Type.Array(DiagnosticSchema, { maxItems: MAX_DIAGNOSTICS }),
		}),
	),
	selection: Type.Optional(
		Type.Object({
			start: Position,
			end: Position,
			text: Type.String({ maxLength: SNAPSHOT_SELECTION_CHARS }),
			visual: Type.Boolean(),
			/** `V`: whole lines whatever the columns say (an empty line's selection is column 1 to 1). */
			linewise: Type.Boolean(),
		}),
	),
});
export type Snapshot = Static<typeof SnapshotSchema>;

const snapshotCheck = Compile(SnapshotSchema);

/**
 * Neovim's answer or push, checked: a reason instead of a throw when it is not what the Lua returns. An oversize
 * field is cut or left out first, each with why (`cuts`, shown in `/ide status`), and the rest stands.
 */
export function parseSnapshot(
	raw: unknown,
): { ok: true; snapshot: Snapshot; cuts: readonly string[] } | { ok: false; reason: string } {
	if (typeof raw === "object" && raw !== null && "error" in raw) {
		return { ok: false, reason: `Neovim could not describe its state: ${String(raw.error).slice(0, 200)}` };
	}
	const { value, cuts } = cutOversize(raw);
	if (snapshotCheck.Check(value)) return { ok: true, snapshot: value, cuts };
	const first = snapshotCheck.Errors(value)[0];
	return {
		ok: false,
		reason: `unexpected state from Neovim${first ? ` at ${first.instancePath || "/"}: ${first.message}` : ""}`,
	};
}

/** When the last selection was made, as pi's pushes saw it: in which file, at what time (unix seconds). */
export interface SelectionMoment {
	file: string;
	atSeconds: number;
}

/** `v`, `V` and CTRL-V (block) start Neovim's visual modes. */
const VISUAL_MODE_STARTS = new Set(["v", "V", String.fromCharCode(22)]);
const isVisual = (mode: string) => VISUAL_MODE_STARTS.has(mode.charAt(0));

/**
 * The selection's time after this snapshot: now while visual mode is on or was just left, the earlier moment
 * while the marks are the ones pi saw made, nothing for marks older than pi's connection (stale).
 */
export function selectionMoment(
	snapshot: Snapshot,
	previous: SelectionMoment | undefined,
	nowSeconds: number,
): SelectionMoment | undefined {
	const file = snapshot.buffer?.file;
	if (file === undefined || !snapshot.selection) return previous;
	if (isVisual(snapshot.mode) || snapshot.left_visual) return { file, atSeconds: nowSeconds };
	return previous;
}

/**
 * The selection covers whole lines: `V`, or any selection over several lines (the Lua sends those as whole
 * lines, as PROTOCOL.md says clients do). A charwise or block selection inside one line is a fragment.
 */
export function isWholeLineSelection(selection: Snapshot["selection"]): boolean {
	return selection !== undefined && (selection.linewise || selection.start.line !== selection.end.line);
}

/** The protocol state a state file would hold for this Neovim, from its snapshot. */
export function stateFromSnapshot(
	snapshot: Snapshot,
	facts: { pid: number; nowSeconds: number; moment: SelectionMoment | undefined },
): EditorState {
	const { buffer, selection } = snapshot;
	const file = buffer?.file !== undefined && posix.isAbsolute(buffer.file) ? buffer.file : undefined;
	const selectedAt = facts.moment && file !== undefined && facts.moment.file === file ? facts.moment.atSeconds : null;
	return {
		pid: facts.pid,
		cwd: snapshot.cwd,
		timestamp: facts.nowSeconds,
		app: "nvim",
		argv: neovimOpenedArgs(snapshot.argv),
		active_buffer: buffer
			? {
					file: file ?? null,
					name: file === undefined ? "[No Name]" : posix.basename(file),
					language: buffer.language === "" ? null : buffer.language,
					cursor: buffer.cursor.line === 0 ? null : { line: buffer.cursor.line, column: buffer.cursor.column },
					selection:
						selection && file !== undefined
							? { start: selection.start, end: selection.end, text: selection.text, selected_at: selectedAt }
							: null,
					modified: buffer.modified,
					lines_total: buffer.lines_total,
					...(buffer.diagnostics.length > 0 && { diagnostics: buffer.diagnostics }),
				}
			: null,
	};
}
