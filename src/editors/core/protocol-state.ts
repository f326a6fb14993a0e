import { type Static, Type } from "typebox";

/** pid_t is a signed 32-bit integer; anything above cannot name a process. */
export const MAX_PID = 2_147_483_647;

/** Large enough for any real line count or column, small enough to reject nonsense like 1e300. */
const MAX_COUNT = 2_147_483_647;

const Count = (minimum: number) => Type.Integer({ minimum, maximum: MAX_COUNT });

/** Keys a client leaves nil are omitted by the real Neovim client, so nullable keys are optional too. */
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
	Type.Optional(Type.Union([schema, Type.Null()]));

const Position = Type.Object({
	line: Count(1),
	column: Count(0),
});

/** Hosts without a cursor concept (Obsidian reading view) write null line/column. */
const CursorSchema = Type.Object({
	line: Nullable(Count(1)),
	column: Nullable(Count(0)),
});

export const SelectionSchema = Type.Object({
	start: Position,
	end: Position,
	text: Type.String(),
	/** When the user made the selection (unix seconds); missing or null means unknown, hence stale. */
	selected_at: Nullable(Type.Number()),
});

/**
 * Optional (Neovim read over its own server, the package's VS Code client): the active file's diagnostics,
 * 1-based line and byte column. A reader that does not know the field ignores it.
 */
export const DiagnosticSchema = Type.Object({
	line: Count(1),
	column: Count(1),
	severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info"), Type.Literal("hint")]),
	message: Type.String({ maxLength: 1024 }),
	source: Type.Optional(Type.String({ maxLength: 200 })),
});

export const MAX_DIAGNOSTICS = 100;

export const MAX_UNSAVED_FILES = 1000;
export const UnsavedFileSchema = Type.String({ pattern: "^/", maxLength: 4096 });
export const UnsavedFilesSchema = Type.Array(UnsavedFileSchema, { maxItems: MAX_UNSAVED_FILES });
export const ClientSchema = Type.String({ minLength: 1, maxLength: 100 });

export const ActiveBufferSchema = Type.Object({
	/** Absolute, or relative to `cwd` (Obsidian vaults); missing or null for unnamed buffers and "no editor". */
	file: Nullable(Type.String({ minLength: 1 })),
	name: Type.String(),
	language: Nullable(Type.String()),
	/** VS Code and Obsidian write `cursor: null` as a whole when no editor is active (`name: "[No File]"`). */
	cursor: Nullable(CursorSchema),
	selection: Nullable(SelectionSchema),
	modified: Type.Boolean(),
	lines_total: Count(0),
	diagnostics: Type.Optional(Type.Array(DiagnosticSchema, { maxItems: MAX_DIAGNOSTICS })),
});

/** One `<pid>.json` as protocol v0.2 defines it; unknown extra keys are allowed. */
export const EditorStateSchema = Type.Object({
	pid: Type.Integer({ minimum: 1, maximum: MAX_PID }),
	cwd: Type.String({ pattern: "^/" }),
	timestamp: Type.Number(),
	app: Type.String(),
	argv: Type.Optional(Type.Array(Type.String())),
	/** An editor with no buffer open at all (VS Code's welcome page) may write null. */
	active_buffer: Nullable(ActiveBufferSchema),
	/** Optional: every file the editor holds with unsaved changes, absolute paths: the unsaved guard covers them. */
	unsaved_files: Type.Optional(UnsavedFilesSchema),
	/** Optional: which client wrote the file and its version (`pi-ide-context-vscode/0.3.0`), for `/ide status`. */
	client: Type.Optional(ClientSchema),
});

export type EditorState = Static<typeof EditorStateSchema>;
export type ActiveBuffer = Static<typeof ActiveBufferSchema>;
export type Selection = Static<typeof SelectionSchema>;
export type Cursor = Static<typeof CursorSchema>;
export type Diagnostic = Static<typeof DiagnosticSchema>;
/** 1-based line, 1-based byte column. */
export type Position = Static<typeof Position>;
