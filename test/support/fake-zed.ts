import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseProcStat } from "../../src/editors/core/proc-stat.ts";
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
	) {
		this.dataHome = join(root, "data");
		this.dbPath = join(this.dataHome, "zed", "db", "0-stable", "db.sqlite");
		createInterface({ input: writer.stdout as NodeJS.ReadableStream }).on("line", (line) =>
			this.replies.push(JSON.parse(line) as Record<string, unknown>),
		);
	}

	/** `node`: a Node with node:sqlite (22.13+). */
	static async create(root: string, node: string): Promise<FakeZed> {
		const dbDir = join(root, "data", "zed", "db", "0-stable");
		mkdirSync(dbDir, { recursive: true });
		const writer = spawn(node, ["--no-warnings", WRITER, join(dbDir, "db.sqlite")], {
			stdio: ["pipe", "pipe", "inherit"],
		});
		const zed = new FakeZed(root, writer);
		await waitFor("the Zed database writer", () => zed.replies.length > 0, PI_START_TIMEOUT_MS);
		return zed;
	}

	/** What pi needs to find this database: Zed's data dir under XDG_DATA_HOME, a home of the test's own. */
	environment(home: string): Record<string, string> {
		return { XDG_DATA_HOME: this.dataHome, HOME: home };
	}

	/** Starts "Zed": a `zed-editor` process of this user with the database's data dir in its environment. */
	start(): number {
		const app = spawn(this.binary(), ["3600"], { stdio: "ignore", env: this.appEnvironment() });
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
		return { PATH: process.env.PATH, HOME: this.root, XDG_DATA_HOME: this.dataHome };
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

	async workspace(options: {
		id: number;
		roots: string[];
		session?: string | null;
		remote?: boolean;
		timestamp?: string;
	}): Promise<void> {
		const sorted = [...options.roots].sort();
		await this.sql(
			`INSERT OR REPLACE INTO workspaces (workspace_id, paths, paths_order, remote_connection_id, timestamp, session_id)
			VALUES (?, ?, ?, ?, ?, ?)`,
			[
				options.id,
				sorted.join("\n"),
				sorted.map((root) => options.roots.indexOf(root)).join(","),
				options.remote ? 1 : null,
				options.timestamp ?? new Date().toISOString().slice(0, 19).replace("T", " "),
				options.session === undefined ? "session-1" : options.session,
			],
		);
	}

	/**
	 * The workspace shows this editor in one focused pane, as Zed saves it: panes and tabs rewritten, the
	 * editor row, then the selections deleted and inserted.
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
			"INSERT OR REPLACE INTO editors (item_id, workspace_id, path, contents, language) VALUES (?, ?, ?, ?, ?)",
			[itemId, ws, { bytes: editor.path }, editor.contents ?? null, editor.language ?? null],
		);
		await this.select(editor);
	}

	async select(editor: Pick<ShownEditor, "workspaceId" | "itemId" | "selections">): Promise<void> {
		const rows = editor.selections
			.map(
				([start, end]) =>
					`INSERT INTO editor_selections (editor_id, workspace_id, start, end) VALUES (${editor.itemId}, ${editor.workspaceId}, ${start}, ${end});`,
			)
			.join("\n");
		await this.sql(
			`BEGIN; DELETE FROM editor_selections WHERE editor_id = ${editor.itemId} AND workspace_id = ${editor.workspaceId}; ${rows} COMMIT;`,
		);
	}

	/** Focus moves to the terminal dock: no pane of the workspace has focus. */
	async focusTerminal(workspaceId: number): Promise<void> {
		await this.sql(`UPDATE panes SET active = 0 WHERE workspace_id = ${workspaceId}`);
	}

	/** Holds the database locked against every reader (as a writer in exclusive locking mode does). */
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
