/**
 * Test fixture, run on a Node with node:sqlite (the pi 1.x toolchain's): a process that writes a database
 * shaped as Zed's migrations leave it, the way Zed does: one connection kept open, WAL, no autocheckpoint,
 * each statement its own transaction unless the command holds a BEGIN.
 * Reads one JSON command per stdin line ({ sql } or { sql, params }) and answers each with one JSON line.
 */

import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";

const db = new DatabaseSync(process.argv[2]);
// As Zed's sqlez opens it: WAL, NORMAL sync, foreign keys on (so a deleted editor takes its selections along),
// and as Zed runs it here, no autocheckpoint. The tables as Zed's migrations leave them (2026): nullable where
// Zed's are, the cascades, pane groups and the sidebar's scoped key-value store.
db.exec(`
	PRAGMA journal_mode = WAL;
	PRAGMA synchronous = NORMAL;
	PRAGMA foreign_keys = ON;
	PRAGMA wal_autocheckpoint = 0;
	CREATE TABLE IF NOT EXISTS migrations (domain TEXT, step INTEGER, migration TEXT);
	CREATE TABLE IF NOT EXISTS kv_store (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
	CREATE TABLE IF NOT EXISTS scoped_kv_store (
		namespace TEXT NOT NULL,
		key TEXT NOT NULL,
		value TEXT NOT NULL,
		PRIMARY KEY (namespace, key)
	) STRICT;
	CREATE TABLE IF NOT EXISTS remote_connections (
		id INTEGER PRIMARY KEY, kind TEXT NOT NULL, host TEXT, port INTEGER, user TEXT, distro TEXT
	);
	CREATE TABLE IF NOT EXISTS workspaces (
		workspace_id INTEGER PRIMARY KEY,
		paths TEXT,
		paths_order TEXT,
		remote_connection_id INTEGER REFERENCES remote_connections (id),
		timestamp TEXT DEFAULT CURRENT_TIMESTAMP NOT NULL,
		window_state TEXT,
		window_x REAL,
		window_y REAL,
		window_width REAL,
		window_height REAL,
		display BLOB,
		left_dock_visible INTEGER,
		left_dock_active_panel TEXT,
		right_dock_visible INTEGER,
		right_dock_active_panel TEXT,
		bottom_dock_visible INTEGER,
		bottom_dock_active_panel TEXT,
		left_dock_zoom INTEGER,
		right_dock_zoom INTEGER,
		bottom_dock_zoom INTEGER,
		fullscreen INTEGER,
		centered_layout INTEGER,
		session_id TEXT,
		window_id INTEGER,
		identity_paths TEXT,
		identity_paths_order TEXT
	) STRICT;
	CREATE UNIQUE INDEX IF NOT EXISTS ix_workspaces_location ON workspaces (remote_connection_id, paths);
	CREATE TABLE IF NOT EXISTS pane_groups (
		group_id INTEGER PRIMARY KEY,
		workspace_id INTEGER NOT NULL,
		parent_group_id INTEGER,
		position INTEGER,
		axis TEXT NOT NULL,
		flexes TEXT,
		FOREIGN KEY (workspace_id) REFERENCES workspaces (workspace_id) ON DELETE CASCADE ON UPDATE CASCADE,
		FOREIGN KEY (parent_group_id) REFERENCES pane_groups (group_id) ON DELETE CASCADE
	) STRICT;
	CREATE TABLE IF NOT EXISTS panes (
		pane_id INTEGER PRIMARY KEY,
		workspace_id INTEGER NOT NULL,
		active INTEGER NOT NULL,
		pinned_count INTEGER DEFAULT 0,
		kind TEXT NOT NULL DEFAULT "tabs",
		visible INTEGER NOT NULL DEFAULT 1,
		FOREIGN KEY (workspace_id) REFERENCES workspaces (workspace_id) ON DELETE CASCADE ON UPDATE CASCADE
	) STRICT;
	CREATE TABLE IF NOT EXISTS center_panes (
		pane_id INTEGER PRIMARY KEY,
		parent_group_id INTEGER,
		position INTEGER,
		FOREIGN KEY (pane_id) REFERENCES panes (pane_id) ON DELETE CASCADE,
		FOREIGN KEY (parent_group_id) REFERENCES pane_groups (group_id) ON DELETE CASCADE
	) STRICT;
	CREATE TABLE IF NOT EXISTS items (
		item_id INTEGER NOT NULL,
		workspace_id INTEGER NOT NULL,
		pane_id INTEGER NOT NULL,
		kind TEXT NOT NULL,
		position INTEGER NOT NULL,
		active INTEGER NOT NULL,
		preview INTEGER,
		FOREIGN KEY (workspace_id) REFERENCES workspaces (workspace_id) ON DELETE CASCADE ON UPDATE CASCADE,
		FOREIGN KEY (pane_id) REFERENCES panes (pane_id) ON DELETE CASCADE,
		PRIMARY KEY (item_id, workspace_id)
	) STRICT;
	CREATE TABLE IF NOT EXISTS editors (
		item_id INTEGER NOT NULL,
		workspace_id INTEGER NOT NULL,
		path BLOB,
		scroll_top_row INTEGER NOT NULL DEFAULT 0,
		scroll_horizontal_offset REAL NOT NULL DEFAULT 0,
		scroll_vertical_offset REAL NOT NULL DEFAULT 0,
		contents TEXT,
		language TEXT,
		mtime_seconds INTEGER DEFAULT NULL,
		mtime_nanos INTEGER DEFAULT NULL,
		buffer_path TEXT,
		PRIMARY KEY (item_id, workspace_id),
		FOREIGN KEY (workspace_id) REFERENCES workspaces (workspace_id) ON DELETE CASCADE ON UPDATE CASCADE
	) STRICT;
	CREATE TABLE IF NOT EXISTS editor_selections (
		item_id INTEGER NOT NULL,
		editor_id INTEGER NOT NULL,
		workspace_id INTEGER NOT NULL,
		start INTEGER NOT NULL,
		end INTEGER NOT NULL,
		PRIMARY KEY (item_id),
		FOREIGN KEY (editor_id, workspace_id) REFERENCES editors (item_id, workspace_id) ON DELETE CASCADE
	) STRICT;
`);
if (db.prepare("SELECT count(*) AS n FROM migrations").all()[0].n === 0) {
	const insert = db.prepare("INSERT INTO migrations (domain, step, migration) VALUES (?, ?, '')");
	for (let step = 0; step <= 36; step++) insert.run("WorkspaceDb", step);
	for (let step = 0; step <= 8; step++) insert.run("EditorDb", step);
	for (let step = 0; step <= 1; step++) insert.run("KeyValueStore", step);
	db.exec("INSERT OR IGNORE INTO kv_store (key, value) VALUES ('session_id', 'session-1')");
}

const reply = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
reply({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
	try {
		const { sql, params } = JSON.parse(line);
		if (params)
			db.prepare(sql).run(
				...params.map((p) => (p && typeof p === "object" && "bytes" in p ? Buffer.from(p.bytes, "utf8") : p)),
			);
		else db.exec(sql);
		reply({ ok: true });
	} catch (error) {
		reply({ ok: false, error: String(error) });
	}
}
