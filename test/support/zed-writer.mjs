/**
 * Test fixture, run on a Node with node:sqlite (the pi 1.x toolchain's): a process that writes a database
 * shaped as Zed's migrations leave it, the way Zed does: one connection kept open, WAL, no autocheckpoint.
 * Reads one JSON command per stdin line ({ sql } or { sql, params }) and answers each with one JSON line.
 */

import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";

const db = new DatabaseSync(process.argv[2]);
db.exec(`
	PRAGMA journal_mode = WAL;
	PRAGMA synchronous = NORMAL;
	PRAGMA wal_autocheckpoint = 0;
	CREATE TABLE IF NOT EXISTS migrations (domain TEXT, step INTEGER, migration TEXT);
	CREATE TABLE IF NOT EXISTS kv_store (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
	CREATE TABLE IF NOT EXISTS workspaces (
		workspace_id INTEGER PRIMARY KEY,
		paths TEXT,
		paths_order TEXT,
		remote_connection_id INTEGER,
		timestamp TEXT DEFAULT CURRENT_TIMESTAMP NOT NULL,
		window_state TEXT,
		display BLOB,
		centered_layout INTEGER,
		session_id TEXT,
		window_id INTEGER
	) STRICT;
	CREATE TABLE IF NOT EXISTS panes (
		pane_id INTEGER PRIMARY KEY,
		workspace_id INTEGER NOT NULL,
		active INTEGER NOT NULL,
		pinned_count INTEGER NOT NULL DEFAULT 0
	) STRICT;
	CREATE TABLE IF NOT EXISTS items (
		item_id INTEGER NOT NULL,
		workspace_id INTEGER NOT NULL,
		pane_id INTEGER NOT NULL,
		kind TEXT NOT NULL,
		position INTEGER NOT NULL,
		active INTEGER NOT NULL,
		preview INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (item_id, workspace_id)
	) STRICT;
	CREATE TABLE IF NOT EXISTS editors (
		item_id INTEGER NOT NULL,
		workspace_id INTEGER NOT NULL,
		path BLOB,
		buffer_path TEXT,
		contents TEXT,
		language TEXT,
		mtime_seconds INTEGER DEFAULT NULL,
		mtime_nanos INTEGER DEFAULT NULL,
		scroll_top_row INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (item_id, workspace_id)
	) STRICT;
	CREATE TABLE IF NOT EXISTS editor_selections (
		item_id INTEGER PRIMARY KEY AUTOINCREMENT,
		editor_id INTEGER NOT NULL,
		workspace_id INTEGER NOT NULL,
		start INTEGER NOT NULL,
		end INTEGER NOT NULL
	) STRICT;
`);
if (db.prepare("SELECT count(*) AS n FROM migrations").all()[0].n === 0) {
	const insert = db.prepare("INSERT INTO migrations (domain, step, migration) VALUES (?, ?, '')");
	for (let step = 0; step <= 30; step++) insert.run("WorkspaceDb", step);
	for (let step = 0; step <= 7; step++) insert.run("EditorDb", step);
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
