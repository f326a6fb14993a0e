import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseProcStat } from "../../src/editors/processes/core/proc-stat.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "./wait-for.ts";

const WRITER = join(import.meta.dirname, "zed-writer.mjs");

const readProc = (pid: number, file: string) => {
	try {
		return readFileSync(`/proc/${pid}/${file}`, "utf8");
	} catch {
		return undefined;
	}
};

export interface ShownEditor {
	workspaceId: number;
	/** The editor's tab (`items.item_id`, `editor_selections.editor_id`). */
	itemId: number;
	path: string;
	/** Unsaved text, as Zed stores a dirty buffer. */
	contents?: string;
	/** UTF-8 byte offsets, as Zed stores them. */
	selections: [number, number][];
	language?: string;
}

/**
 * Zed, as far as pi can see it: a state database under `<XDG_DATA_HOME>/zed/db/0-stable/` written by a
 * process that keeps its connection open (WAL, no autocheckpoint), and a process named `zed-editor` (a copy
 * of `sleep`) with Zed's environment, which is what "Zed is running" means to pi.
 */
export class FakeZed {
	readonly dataHome: string;
	readonly dbPath: string;
	private readonly apps: ChildProcess[] = [];
	private readonly replies: Record<string, unknown>[] = [];
	private readonly unreapingParents: ChildProcess[] = [];
	private locked = false;

	private constructor(
		private readonly root: string,
		private readonly writer: ChildProcess,
		dbPath: string,
	) {
		this.dataHome = join(root, "data");
		this.dbPath = dbPath;
		createInterface({ input: writer.stdout as NodeJS.ReadableStream }).on("line", (line) =>
			this.replies.push(JSON.parse(line) as Record<string, unknown>),
		);
	}

	/**
	 * `node`: a Node with node:sqlite (22.13+). The database goes in `<dataDir>/db/0-<channel>/` (by default
	 * Zed's data dir under the fixture's XDG_DATA_HOME, stable channel).
	 */
	static async create(
		root: string,
		node: string,
		where: { dataDir?: string; channel?: string } = {},
	): Promise<FakeZed> {
		const dbDir = join(where.dataDir ?? join(root, "data", "zed"), "db", `0-${where.channel ?? "stable"}`);
		mkdirSync(dbDir, { recursive: true });
		const dbPath = join(dbDir, "db.sqlite");
		const writer = spawn(node, ["--no-warnings", WRITER, dbPath], { stdio: ["pipe", "pipe", "inherit"] });
		const zed = new FakeZed(root, writer, dbPath);
		await waitFor("the Zed database writer", () => zed.replies.length > 0, PI_START_TIMEOUT_MS);
		return zed;
	}

	/** Where this Zed reads its user settings: `~/.config/zed` of its own home. */
	get configDir(): string {
		return join(this.root, ".config", "zed");
	}

	/** The user's `settings.json`, as Zed's settings editor leaves it (comments and trailing commas allowed). */
	writeSettings(text: string): void {
		mkdirSync(this.configDir, { recursive: true });
		writeFileSync(join(this.configDir, "settings.json"), text);
	}

	/**
	 * What pi needs to find this database: Zed's data dir under XDG_DATA_HOME, a home of the test's own, and the
	 * scope that keeps pi to this fixture's Zeds (tests run side by side, each with its own).
	 */
	environment(home: string): Record<string, string> {
		return { XDG_DATA_HOME: this.dataHome, HOME: home, PI_IDE_TEST_PROC_SCOPE: this.scope };
	}

	/** `PI_IDE_TEST_PROC_SCOPE` of this fixture's Zeds. */
	get scope(): string {
		return `fake-zed:${this.root}`;
	}

	/**
	 * Starts "Zed": a `zed-editor` process of this user with the database's data dir in its environment.
	 * `args` (`--user-data-dir …`) make it a shell script named `zed-editor` that waits on its stdin; `sourceBuild`
	 * runs it as `zed` from a cargo `target/debug` dir; `env` adds to its environment (`ZED_STATELESS`).
	 */
	start(options: { args?: string[]; sourceBuild?: boolean; env?: Record<string, string>; cwd?: string } = {}): number {
		const env = { ...this.appEnvironment(), ...options.env };
		const app = options.args
			? spawn(this.script(), options.args, { stdio: ["pipe", "ignore", "ignore"], env, cwd: options.cwd })
			: spawn(options.sourceBuild ? this.sourceBuild() : this.binary(), ["3600"], { stdio: "ignore", env });
		this.apps.push(app);
		return app.pid as number;
	}

	/**
	 * Starts Zed under a parent that never reaps it (a `sleep`; `close` ends both): once killed, it stays a
	 * zombie named `zed-editor` whose environment and binary can no longer be read. Resolves with its pid.
	 */
	async startUnreaped(): Promise<number> {
		const parent = spawn("/bin/sh", ["-c", `"${this.binary()}" 3600 & echo $!; exec sleep 3600`], {
			stdio: ["ignore", "pipe", "inherit"],
			env: this.appEnvironment(),
		});
		this.unreapingParents.push(parent);
		const pid = await new Promise<number>((done) =>
			createInterface({ input: parent.stdout as NodeJS.ReadableStream }).once("line", (line) => done(Number(line))),
		);
		// Ready only once the shell has become `sleep`: a shell still running could reap its child.
		await waitFor(
			"the app to start, its parent to be sleep",
			() => readProc(pid, "comm") === "zed-editor\n" && readProc(parent.pid ?? 0, "comm") === "sleep\n",
		);
		return pid;
	}

	/** Kills a Zed from `startUnreaped`: it becomes a zombie. */
	async killUnreaped(pid: number): Promise<void> {
		process.kill(pid, "SIGKILL");
		await waitFor("the zombie", () => parseProcStat(readProc(pid, "stat") ?? "")?.state === "Z");
	}

	/** A Zed that was killed and not yet reaped by its parent. */
	async zombie(): Promise<number> {
		const pid = await this.startUnreaped();
		await this.killUnreaped(pid);
		return pid;
	}

	/** Zed's own environment: the data dir it writes. */
	private appEnvironment(): NodeJS.ProcessEnv {
		return {
			PATH: process.env.PATH,
			HOME: this.root,
			XDG_DATA_HOME: this.dataHome,
			PI_IDE_TEST_PROC_SCOPE: this.scope,
		};
	}

	/** A `zed-editor` that takes any arguments: a script (its process is named after it) blocked on stdin. */
	private script(): string {
		const dir = join(this.root, "script-bin");
		mkdirSync(dir, { recursive: true });
		const app = join(dir, "zed-editor");
		if (!existsSync(app)) writeFileSync(app, "#!/bin/sh\nread -r _\n", { mode: 0o755 });
		return app;
	}

	/** Zed built from source: `zed` in a cargo `target/debug` dir. */
	private sourceBuild(): string {
		const dir = join(this.root, "src", "zed", "target", "debug");
		mkdirSync(dir, { recursive: true });
		const app = join(dir, "zed");
		if (!existsSync(app)) copyFileSync("/bin/sleep", app);
		return app;
	}

	private binary(): string {
		const bin = join(this.root, "bin");
		mkdirSync(bin, { recursive: true });
		const app = join(bin, "zed-editor");
		if (!existsSync(app)) copyFileSync("/bin/sleep", app);
		return app;
	}

	/** Zed quits (or is killed): its rows stay, as Zed leaves them. */
	quit(): void {
		for (const app of this.apps.splice(0)) app.kill("SIGKILL");
	}

	/** One of several running Zeds quits. */
	quitOne(pid: number): void {
		const index = this.apps.findIndex((app) => app.pid === pid);
		if (index < 0) throw new Error(`no Zed ${pid} started by start()`);
		this.apps.splice(index, 1)[0]?.kill("SIGKILL");
	}

	async close(): Promise<void> {
		this.quit();
		for (const parent of this.unreapingParents.splice(0)) parent.kill("SIGKILL");
		this.writer.stdin?.end();
		this.writer.kill();
	}

	/** One statement, or a script; resolves once the writer committed it. */
	async sql(sql: string, params?: unknown[]): Promise<void> {
		const before = this.replies.length;
		this.writer.stdin?.write(`${JSON.stringify({ sql, ...(params && { params }) })}\n`);
		const reply = await waitFor("the writer's reply", () => this.replies[before], 10_000);
		if (reply.ok !== true) throw new Error(`zed-writer: ${String(reply.error)} (${sql})`);
	}

	/** A workspace row, as Zed saves one: an upsert (a REPLACE would cascade away its panes, tabs and editors). */
	async workspace(options: {
		id: number;
		roots: string[];
		session?: string | null;
		remote?: boolean;
		timestamp?: string;
		/** The window that holds it (`window_id`); Zed's sidebar keeps several workspaces in one window. */
		windowId?: number;
	}): Promise<void> {
		const sorted = [...options.roots].sort();
		if (options.remote)
			await this.sql("INSERT OR IGNORE INTO remote_connections (id, kind, host) VALUES (1, 'ssh', 'example')");
		await this.sql(
			`INSERT INTO workspaces (workspace_id, paths, paths_order, remote_connection_id, timestamp, session_id, window_id)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (workspace_id) DO UPDATE SET paths = excluded.paths, paths_order = excluded.paths_order,
				remote_connection_id = excluded.remote_connection_id, timestamp = excluded.timestamp,
				session_id = excluded.session_id, window_id = excluded.window_id`,
			[
				options.id,
				sorted.join("\n"),
				sorted.map((root) => options.roots.indexOf(root)).join(","),
				options.remote ? 1 : null,
				options.timestamp ?? new Date().toISOString().slice(0, 19).replace("T", " "),
				options.session === undefined ? "session-1" : options.session,
				options.windowId ?? null,
			],
		);
	}

	/** The window shows this workspace of its sidebar (`scoped_kv_store`, namespace `multi_workspace_state`). */
	async showInWindow(windowId: number, workspaceId: number): Promise<void> {
		await this.sql(
			`INSERT INTO scoped_kv_store (namespace, key, value) VALUES ('multi_workspace_state', ?, ?)
			ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value`,
			[String(windowId), JSON.stringify({ active_workspace_id: workspaceId, sidebar_open: true })],
		);
	}

	/**
	 * The workspace shows this editor in one focused pane, as Zed saves it: panes and tabs rewritten in one
	 * transaction, the editor row upserted, then the selections (`[]`: a tab whose cursor never moved, or any
	 * tab under `"restore_on_startup": "empty_tab"`, has no rows).
	 */
	async show(editor: ShownEditor, focus: "editor" | "terminal" | "nothing" = "editor"): Promise<void> {
		const { workspaceId: ws, itemId } = editor;
		const terminalId = itemId + 1000;
		await this.sql(
			`BEGIN;
			DELETE FROM panes WHERE workspace_id = ${ws};
			DELETE FROM items WHERE workspace_id = ${ws};
			INSERT INTO panes (pane_id, workspace_id, active) VALUES (${ws * 10 + 1}, ${ws}, ${focus === "editor" ? 1 : 0});
			INSERT INTO items (item_id, workspace_id, pane_id, kind, position, active) VALUES (${itemId}, ${ws}, ${ws * 10 + 1}, 'Editor', 0, 1);
			INSERT INTO panes (pane_id, workspace_id, active) VALUES (${ws * 10 + 2}, ${ws}, ${focus === "terminal" ? 1 : 0});
			INSERT INTO items (item_id, workspace_id, pane_id, kind, position, active) VALUES (${terminalId}, ${ws}, ${ws * 10 + 2}, 'Terminal', 0, 1);
			COMMIT;`,
		);
		await this.sql(
			`INSERT INTO editors (item_id, workspace_id, path, buffer_path, contents, language) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (item_id, workspace_id) DO UPDATE SET path = excluded.path, buffer_path = excluded.buffer_path,
				contents = excluded.contents, language = excluded.language`,
			[itemId, ws, { bytes: editor.path }, editor.path, editor.contents ?? null, editor.language ?? null],
		);
		await this.select(editor);
	}

	/**
	 * A tab the workspace keeps open behind the shown one (after `show`, in its editor pane, not active), with
	 * unsaved text when `contents` is given: Zed stores every dirty buffer of the session, shown or not.
	 */
	async backgroundTab(tab: { workspaceId: number; itemId: number; path: string; contents?: string }): Promise<void> {
		const { workspaceId: ws, itemId } = tab;
		await this.sql(
			`INSERT INTO items (item_id, workspace_id, pane_id, kind, position, active) VALUES (?, ?, ?, 'Editor', ?, 0)`,
			[itemId, ws, ws * 10 + 1, itemId],
		);
		await this.sql("INSERT INTO editors (item_id, workspace_id, path, buffer_path, contents) VALUES (?, ?, ?, ?, ?)", [
			itemId,
			ws,
			{ bytes: tab.path },
			tab.path,
			tab.contents ?? null,
		]);
	}

	async select(editor: Pick<ShownEditor, "workspaceId" | "itemId" | "selections">): Promise<void> {
		const rows = editor.selections
			.map(
				([start, end]) =>
					`INSERT INTO editor_selections (editor_id, workspace_id, start, end) VALUES (${editor.itemId}, ${editor.workspaceId}, ${start}, ${end});`,
			)
			.join("\n");
		// As Zed does it: a delete, then the inserts, with no transaction around them. A reader in between sees
		// no rows for the tab for a moment.
		await this.sql(
			`DELETE FROM editor_selections WHERE editor_id = ${editor.itemId} AND workspace_id = ${editor.workspaceId}`,
		);
		if (rows) await this.sql(rows);
	}

	/** Focus moves to the terminal dock: no pane of the workspace has focus. */
	async focusTerminal(workspaceId: number): Promise<void> {
		await this.sql(`UPDATE panes SET active = 0 WHERE workspace_id = ${workspaceId}`);
	}

	/**
	 * Holds the database locked against every reader: the worst case. Zed never takes an exclusive lock; its
	 * readers meet "busy" only for a moment, at a checkpoint or a WAL recovery, which cannot be held open here.
	 */
	async lock(): Promise<void> {
		await this.sql("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE kv_store SET value = value;");
		this.locked = true;
	}

	/** Ends the lock: committed (the WAL moves), or rolled back (nothing on disk changes). Once is enough. */
	async unlock(end: "COMMIT" | "ROLLBACK" = "COMMIT"): Promise<void> {
		if (!this.locked) return;
		this.locked = false;
		await this.sql(`${end}; PRAGMA locking_mode = NORMAL; SELECT count(*) FROM kv_store;`);
	}
}
