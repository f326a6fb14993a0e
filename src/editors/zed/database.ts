import type {
	ZedEditorRow,
	ZedItemRow,
	ZedPaneRow,
	ZedSelectionRow,
	ZedSnapshot,
	ZedWorkspaceRow,
} from "./core/rows.ts";
import { shownWorkspaceOf } from "./core/rows.ts";
import {
	hasOctetLength,
	type MigrationStep,
	type OptionalColumns,
	type SchemaVerdict,
	ZED_COLUMNS_READ,
	zedSchemaVerdict,
} from "./core/schema.ts";
import type { Sqlite, SqliteDatabase } from "./sqlite.ts";

/**
 * One read's result. A failed read says why: Zed's lock met (`busy`), a schema pi cannot read (`schema`: no
 * guess is made), or another SQLite error (`error`: SQLITE_PROTOCOL, an I/O error), after which the last
 * state stands and the read is tried again.
 */
export type ZedRead =
	| { ok: true; snapshot: ZedSnapshot; schema: Extract<SchemaVerdict, { ok: true }>; tookMs: number }
	| { ok: false; reason: string; schema?: SchemaVerdict; failure: "busy" | "schema" | "error"; tookMs: number };

type Row = Record<string, unknown>;

/**
 * An unsaved buffer larger than this is not copied out of the database: its file still counts as unsaved, but
 * pi knows no cursor in it. Turning megabytes of text into positions would hold pi's thread too long.
 */
export const MAX_UNSAVED_TEXT_BYTES = 4 * 1024 * 1024;

/**
 * A tab that is its pane's active one: only its unsaved text can be shown, so only its text is copied out (a
 * session's other dirty buffers count as unsaved by `typeof(contents)`, which SQLite answers from the record's
 * header without reading the text).
 */
const ACTIVE_TAB = `EXISTS (SELECT 1 FROM items WHERE items.item_id = editors.item_id
	AND items.workspace_id = editors.workspace_id AND items.active = 1)`;

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? null : String(value));
const integer = (value: unknown) =>
	typeof value === "number" || typeof value === "bigint" ? Number(value) : Number.NaN;
const flag = (value: unknown) => integer(value) === 1;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** `editors.path` holds the path's raw bytes; a path that is not UTF-8 cannot be named to the model. */
function pathOf(value: unknown): string | null {
	if (typeof value === "string") return value;
	if (!(value instanceof Uint8Array)) return null;
	try {
		return strictUtf8.decode(value);
	} catch {
		return null;
	}
}

/**
 * One read of Zed's database: opened read-only with no busy wait (a locked database is a failed read, never a
 * wait on pi's thread), one read transaction, closed at once (an open connection would keep Zed from
 * checkpointing when it quits). Never writes, never checkpoints. Never throws.
 */
export function readZedDatabase(sqlite: Sqlite, path: string): ZedRead {
	const started = performance.now();
	const took = () => performance.now() - started;
	let db: SqliteDatabase | undefined;
	let schema: SchemaVerdict | undefined;
	try {
		db = new sqlite.DatabaseSync(path, { readOnly: true, timeout: 0 });
		db.exec("BEGIN");
		schema = probeSchema(db);
		if (!schema.ok) return { ok: false, reason: schema.reason, schema, failure: "schema", tookMs: took() };
		const snapshot = readRows(db, schema.optional);
		db.exec("COMMIT");
		return { ok: true, snapshot, schema, tookMs: took() };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const failure = /locked|busy/i.test(message) ? "busy" : "error";
		return { ok: false, reason: message.slice(0, 200), ...(schema && { schema }), failure, tookMs: took() };
	} finally {
		try {
			db?.close();
		} catch {
			// Closing a connection whose open failed: nothing to release.
		}
	}
}

function probeSchema(db: SqliteDatabase): SchemaVerdict {
	const tables = [...Object.keys(ZED_COLUMNS_READ), "migrations", "scoped_kv_store"];
	const columns: Record<string, string[]> = {};
	for (const table of tables) {
		const names = (db.prepare(`PRAGMA table_info(${table})`).all() as Row[]).map((row) => String(row.name));
		if (names.length > 0) columns[table] = names;
	}
	const steps: MigrationStep[] = columns.migrations?.includes("step")
		? (db.prepare("SELECT domain, step FROM migrations").all() as Row[]).map((row) => ({
				domain: String(row.domain),
				step: integer(row.step),
			}))
		: [];
	return zedSchemaVerdict(columns, steps);
}

/** Panes, tabs, buffers and selections are read for the current session's local workspaces only. */
const IN_SESSION = `workspace_id IN (SELECT workspace_id FROM workspaces WHERE remote_connection_id IS NULL
	AND session_id = (SELECT value FROM kv_store WHERE key = 'session_id'))`;

/** The SQL for a column's size in bytes, by what this process's SQLite offers (asked once). */
let bytesOf: ((column: string) => string) | undefined;

function readRows(db: SqliteDatabase, optional: OptionalColumns): ZedSnapshot {
	const all = (sql: string) => db.prepare(sql).all() as Row[];
	bytesOf ??= hasOctetLength(String(all("SELECT sqlite_version() AS version")[0]?.version))
		? (column) => `octet_length(${column})`
		: (column) => `length(CAST(${column} AS BLOB))`;
	const session = all("SELECT value FROM kv_store WHERE key = 'session_id'")[0];
	const workspaces = all(
		`SELECT CAST(workspace_id AS TEXT) AS id, paths, ${optional.pathsOrder ? "paths_order" : "NULL"} AS paths_order,
			remote_connection_id IS NOT NULL AS remote, timestamp, session_id,
			${optional.windowId ? "CAST(window_id AS TEXT)" : "NULL"} AS window_id FROM workspaces`,
	).map(
		(row): ZedWorkspaceRow => ({
			id: String(row.id),
			paths: text(row.paths) ?? "",
			pathsOrder: text(row.paths_order),
			remote: flag(row.remote),
			timestamp: text(row.timestamp),
			sessionId: text(row.session_id),
			windowId: text(row.window_id),
		}),
	);
	const panes = all(
		`SELECT pane_id, CAST(workspace_id AS TEXT) AS workspace_id, active FROM panes WHERE ${IN_SESSION}`,
	).map(
		(row): ZedPaneRow => ({
			paneId: integer(row.pane_id),
			workspaceId: String(row.workspace_id),
			active: flag(row.active),
		}),
	);
	const items = all(
		`SELECT item_id, CAST(workspace_id AS TEXT) AS workspace_id, pane_id, kind, position, active FROM items WHERE ${IN_SESSION}`,
	).map(
		(row): ZedItemRow => ({
			itemId: integer(row.item_id),
			workspaceId: String(row.workspace_id),
			paneId: integer(row.pane_id),
			kind: String(row.kind),
			position: integer(row.position),
			active: flag(row.active),
		}),
	);
	const editors = all(
		`SELECT item_id, CAST(workspace_id AS TEXT) AS workspace_id, path, typeof(contents) <> 'null' AS unsaved,
			CASE WHEN ${ACTIVE_TAB} AND ${bytesOf("contents")} <= ${MAX_UNSAVED_TEXT_BYTES}
				THEN CAST(contents AS BLOB) END AS contents,
			${optional.language ? "language" : "NULL"} AS language FROM editors WHERE ${IN_SESSION}`,
	).map(
		(row): ZedEditorRow => ({
			itemId: integer(row.item_id),
			workspaceId: String(row.workspace_id),
			path: pathOf(row.path),
			unsaved: flag(row.unsaved),
			contents: row.contents instanceof Uint8Array ? row.contents : null,
			language: text(row.language),
		}),
	);
	const selections = all(
		`SELECT editor_id, CAST(workspace_id AS TEXT) AS workspace_id, start, "end" FROM editor_selections WHERE ${IN_SESSION}`,
	).map(
		(row): ZedSelectionRow => ({
			editorId: integer(row.editor_id),
			workspaceId: String(row.workspace_id),
			start: integer(row.start),
			end: integer(row.end),
		}),
	);
	const shownInWindow = new Map<string, string>();
	if (optional.multiWorkspace)
		for (const row of all(
			"SELECT key, value FROM scoped_kv_store WHERE namespace = 'multi_workspace_state' LIMIT 1000",
		)) {
			const shown = shownWorkspaceOf(text(row.value) ?? "");
			if (shown !== undefined) shownInWindow.set(String(row.key), shown);
		}
	return {
		sessionId: text(session?.value) ?? undefined,
		workspaces,
		panes,
		items,
		editors,
		selections,
		...(optional.multiWorkspace && { shownInWindow }),
	};
}
