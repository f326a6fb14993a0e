/**
 * The columns pi reads, per table, as Zed's migrations leave them (2026). Newer migration steps are fine while
 * these are there; without them pi does not guess what the rows mean.
 */
export const ZED_COLUMNS_READ = {
	kv_store: ["key", "value"],
	workspaces: ["workspace_id", "paths", "remote_connection_id", "timestamp", "session_id"],
	panes: ["pane_id", "workspace_id", "active"],
	items: ["item_id", "workspace_id", "pane_id", "kind", "position", "active"],
	editors: ["item_id", "workspace_id", "path", "contents"],
	editor_selections: ["editor_id", "workspace_id", "start", "end"],
} as const satisfies Record<string, readonly string[]>;

export type ZedTable = keyof typeof ZED_COLUMNS_READ;

export interface MigrationStep {
	domain: string;
	step: number;
}

/** What newer schemas add, read when present: the roots' order, a buffer's language, the sidebar's state. */
export interface OptionalColumns {
	pathsOrder: boolean;
	language: boolean;
	windowId: boolean;
	/** `workspaces.window_id` and `scoped_kv_store`: which workspace each window shows. */
	multiWorkspace: boolean;
}

export type SchemaVerdict =
	| { ok: true; steps: string; optional: OptionalColumns }
	| { ok: false; reason: string; steps: string };

/** `WorkspaceDb 30, EditorDb 7`: each domain's newest step, for `/ide status`. */
export function stepsText(steps: readonly MigrationStep[]): string {
	const newest = new Map<string, number>();
	for (const { domain, step } of steps) newest.set(domain, Math.max(step, newest.get(domain) ?? -1));
	const text = [...newest].map(([domain, step]) => `${domain} ${step}`).join(", ");
	return text || "no migrations table";
}

/** Can pi read this database? `columns` holds each table's column names (missing table: absent key). */
export function zedSchemaVerdict(
	columns: Readonly<Record<string, readonly string[]>>,
	steps: readonly MigrationStep[],
): SchemaVerdict {
	const text = stepsText(steps);
	const has = (table: string, ...names: string[]) => names.every((name) => columns[table]?.includes(name) === true);
	for (const [table, wanted] of Object.entries(ZED_COLUMNS_READ)) {
		const present = columns[table];
		if (!present) return { ok: false, reason: `no table ${table}: not a Zed schema pi can read`, steps: text };
		const missing = wanted.filter((column) => !present.includes(column));
		if (missing.length > 0) {
			const older = table === "workspaces" && present.includes("local_paths") ? " (an older Zed: update it)" : "";
			return { ok: false, reason: `table ${table} has no ${missing.join(", ")}${older}`, steps: text };
		}
	}
	return {
		ok: true,
		steps: text,
		optional: {
			pathsOrder: has("workspaces", "paths_order"),
			language: has("editors", "language"),
			windowId: has("workspaces", "window_id"),
			multiWorkspace: has("workspaces", "window_id") && has("scoped_kv_store", "namespace", "key", "value"),
		},
	};
}

/**
 * `octet_length` (SQLite 3.43+) tells a text's size in bytes from the record header; `length(CAST(… AS BLOB))`
 * copies the whole text first (a 64 MiB unsaved buffer: ~170 ms on pi's thread). Node's own SQLite has it; a
 * Node built against an older system SQLite gets the copy.
 */
export function hasOctetLength(sqliteVersion: string): boolean {
	const [major = 0, minor = 0] = sqliteVersion.split(".").map(Number);
	return major > 3 || (major === 3 && minor >= 43);
}
