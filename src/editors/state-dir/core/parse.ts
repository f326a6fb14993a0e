import { Type } from "typebox";
import { Compile } from "typebox/compile";
import { isFields } from "../../../shared/core/fields.ts";
import {
	ClientSchema,
	DiagnosticSchema,
	type EditorState,
	EditorStateSchema,
	MAX_DIAGNOSTICS,
	MAX_PID,
	MAX_UNSAVED_FILES,
	type Selection,
	UnsavedFileSchema,
	UnsavedFilesSchema,
} from "../../core/protocol-state.ts";

export type ParseResult =
	| {
			ok: true;
			pid: number;
			state: EditorState;
			/** Optional fields that were malformed and left out, each with why: the rest of the state stands. */
			dropped?: string[];
			/**
			 * `unsaved_files` was there but no list at all: the editor's earlier list is not replaced by nothing
			 * (the guard keeps it). Bad entries of a list are left out one by one instead.
			 */
			unsavedFilesMalformed?: true;
	  }
	| { ok: false; reason: string };

/**
 * The protocol's optional fields: a client that writes one wrong loses that field, not its whole state (an
 * older reader ignored the key altogether). Each is checked on its own before the state is.
 */
const OPTIONAL_FIELDS: readonly { parent?: "active_buffer"; key: string; check: ReturnType<typeof Compile> }[] = [
	{
		parent: "active_buffer",
		key: "diagnostics",
		check: Compile(Type.Array(DiagnosticSchema, { maxItems: MAX_DIAGNOSTICS })),
	},
	{ key: "unsaved_files", check: Compile(UnsavedFilesSchema) },
	{ key: "client", check: Compile(ClientSchema) },
];

export type FileNameVerdict =
	| { kind: "state"; pid: number }
	| { kind: "rejected"; reason: string }
	| { kind: "ignored" };

const STATE_FILE_NAME = /^(.*)\.json$/;
const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

const validator = Compile(EditorStateSchema);
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Which directory entries are state files. `<pid>.json.tmp` and every other name are ignored; a `*.json`
 * whose stem is no usable pid is rejected (not ignored) so `/ide status` can say why it is not used.
 */
export function classifyFileName(fileName: string): FileNameVerdict {
	const match = STATE_FILE_NAME.exec(fileName);
	if (!match) return { kind: "ignored" };
	const stem = match[1] ?? "";
	if (!POSITIVE_INTEGER.test(stem)) {
		return { kind: "rejected", reason: "file name is not <pid>.json with a positive integer pid" };
	}
	const pid = Number(stem);
	if (pid > MAX_PID) return { kind: "rejected", reason: `pid ${stem} in the file name is out of range` };
	return { kind: "state", pid };
}

/** Decode, parse and validate one state file's bytes. Never throws: bad input yields a reason. */
export function parseStateFile(fileName: string, bytes: Uint8Array): ParseResult {
	const name = classifyFileName(fileName);
	if (name.kind === "ignored") return { ok: false, reason: "not a state file name" };
	if (name.kind === "rejected") return { ok: false, reason: name.reason };
	if (bytes.length === 0) return { ok: false, reason: "empty file (an editor may be mid-write)" };

	let text: string;
	try {
		text = utf8.decode(bytes);
	} catch {
		return { ok: false, reason: "not valid UTF-8" };
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { ok: false, reason: "not valid JSON (truncated or corrupt)" };
	}
	const { state: checked, dropped: droppedOptionals } = withoutMalformedOptionals(withValidUnsavedEntries(value));
	const { state, dropped } = { state: checked, dropped: [...unsavedEntryNotes(value), ...droppedOptionals] };
	if (!validator.Check(state)) return { ok: false, reason: describeSchemaError(state) };
	if (state.pid !== name.pid) {
		return { ok: false, reason: `pid field ${state.pid} does not match the file name ${fileName}` };
	}
	const unsavedFilesMalformed = isFields(value) && "unsaved_files" in value && !Array.isArray(value.unsaved_files);
	return {
		ok: true,
		pid: name.pid,
		state,
		...(dropped.length > 0 && { dropped }),
		...(unsavedFilesMalformed && { unsavedFilesMalformed: true }),
	};
}

const unsavedFileCheck = Compile(UnsavedFileSchema);

/**
 * One bad path in `unsaved_files` must not cost the guard the others: each entry is checked on its own, the
 * good ones kept (the first `MAX_UNSAVED_FILES`), the rest named by `unsavedEntryNotes`.
 */
function withValidUnsavedEntries(value: unknown): unknown {
	if (!isFields(value) || !Array.isArray(value.unsaved_files)) return value;
	const kept = value.unsaved_files.filter((file) => unsavedFileCheck.Check(file)).slice(0, MAX_UNSAVED_FILES);
	return kept.length === value.unsaved_files.length ? value : { ...value, unsaved_files: kept };
}

function unsavedEntryNotes(value: unknown): string[] {
	if (!isFields(value) || !Array.isArray(value.unsaved_files)) return [];
	const files: unknown[] = value.unsaved_files;
	const bad = files.flatMap((file, index) => (unsavedFileCheck.Check(file) ? [] : [index]));
	const good = files.length - bad.length;
	const notes: string[] = [];
	if (bad.length > 0) {
		const first = bad[0] as number;
		const why = unsavedFileCheck.Errors(files[first])[0]?.message ?? "is malformed";
		notes.push(`unsaved_files: ${bad.length} of ${files.length} entries left out (unsaved_files.${first} ${why})`);
	}
	if (good > MAX_UNSAVED_FILES)
		notes.push(`unsaved_files: only the first ${MAX_UNSAVED_FILES} of ${good} paths are guarded`);
	return notes;
}

/** The value with each malformed optional field left out (a copy only where one is), and why each went. */
function withoutMalformedOptionals(value: unknown): { state: unknown; dropped: string[] } {
	const dropped: string[] = [];
	let state = value;
	for (const field of OPTIONAL_FIELDS) {
		if (!isFields(state)) break;
		const parent = field.parent === undefined ? state : state[field.parent];
		if (!isFields(parent) || !(field.key in parent) || field.check.Check(parent[field.key])) continue;
		const name = field.parent === undefined ? field.key : `${field.parent}.${field.key}`;
		const first = field.check.Errors(parent[field.key])[0];
		const where = `${name}${first?.instancePath ? first.instancePath.replaceAll("/", ".") : ""}`;
		dropped.push(`${name} left out: ${where} ${first?.message ?? "is malformed"}`);
		const { [field.key]: _, ...kept } = parent;
		state = field.parent === undefined ? kept : { ...state, [field.parent]: kept };
	}
	return { state, dropped };
}

function describeSchemaError(value: unknown): string {
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return `top level is ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}, not an object`;
	}
	for (const error of validator.Errors(value)) {
		// anyOf reports one error per branch; the branch messages are clearer than the summary.
		if (error.keyword === "anyOf") continue;
		const where = error.instancePath === "" ? "top level" : error.instancePath.slice(1).replaceAll("/", ".");
		return `invalid state: ${where} ${error.message}`;
	}
	return "invalid state: does not match protocol v0.2";
}

/** The state file an editor with this pid writes; `classifyFileName` reads the pid back. */
export function stateFileName(pid: number): string {
	return `${pid}.json`;
}

/**
 * Whole lines by the protocol: a multi-line selection is full lines; a one-line selection is exact columns,
 * so it is whole only from column 1 and when it equals the line on disk (the reference reader checks that).
 */
export function stateFileLines(selection: Selection | null | undefined): { wholeLineSelection?: boolean } {
	if (!selection) return {};
	if (selection.end.line > selection.start.line) return { wholeLineSelection: true };
	return selection.start.column <= 1 ? {} : { wholeLineSelection: false };
}
