import { describe, expect, test } from "vitest";
import type { ListedEditor } from "../../../../src/editors/core/editor.ts";
import { zedDatabases } from "../../../../src/editors/zed/core/data-dirs.ts";
import { type ZedReport, zedNoMatchLine, zedStatusLines } from "../../../../src/editors/zed/core/status.ts";
import { editorState } from "../../../support/fixtures.ts";

const database = zedDatabases("/home/u/.local/share/zed")[0];
const editor = (roots: string[], modified = false): ListedEditor => ({
	origin: "zed",
	key: "zed:x#1",
	pid: 77,
	alive: true,
	state: {
		...editorState({ cwd: roots[0] ?? "/", buffer: { file: "/p/src/a.ts", name: "a.ts", modified } }),
		app: "zed",
	},
	paths: { cwd: roots[0] ?? "/", argvDirs: [], roots },
	selectionFirstSeenSeconds: 0,
	writtenAtSeconds: 0,
});

describe("/ide status: the Zed section", () => {
	test.each<[string, ZedReport, string[]]>([
		[
			"turned off",
			{ phase: { kind: "off", source: "/p/.pi/settings.json" }, workspaces: [] },
			['Zed: not read (/p/.pi/settings.json says "zed": false)'],
		],
		[
			"no database",
			{ phase: { kind: "no-database", looked: ["/a/zed", "/b/zed"] }, workspaces: [] },
			["Zed: no Zed database (looked in /a/zed, /b/zed)"],
		],
		[
			"Node without node:sqlite",
			{
				phase: { kind: "problem", reason: "reading Zed needs node:sqlite (Node >= 22.13); pi runs on Node 20.20.2" },
				workspaces: [],
			},
			["Zed: not read: reading Zed needs node:sqlite (Node >= 22.13); pi runs on Node 20.20.2"],
		],
		[
			"Zed not running: the database it would read",
			{ phase: { kind: "reading" }, database, workspaces: [{ id: "1", paths: "/p", editor: editor(["/p"]) }] },
			["Zed: database /home/u/.local/share/zed/db/0-stable/db.sqlite (stable); Zed is not running"],
		],
		[
			"running: schema, session, reads, each workspace, the last problem",
			{
				phase: { kind: "reading" },
				database,
				zed: { pid: 77 },
				schemaSteps: "WorkspaceDb 30, EditorDb 7",
				sessionId: "s1",
				reads: { count: 3, lastMs: 1.234, lastOk: false, fallbackChecks: 7 },
				workspaces: [
					{ id: "1", paths: "/p", editor: editor(["/p"], true), kept: "no pane has focus" },
					{ id: "2", paths: "/q\n/r", editor: editor(["/q", "/r"]) },
					{ id: "3", paths: "", notOffered: "a remote workspace: its paths are not this machine's" },
				],
				lastProblem: { reason: "database is locked", atSeconds: 990 },
			},
			[
				"Zed: database /home/u/.local/share/zed/db/0-stable/db.sqlite (stable); Zed is running (pid 77)",
				"  Schema steps: WorkspaceDb 30, EditorDb 7",
				"  Session: s1",
				"  Reads: 3, the last took 1.2 ms; fallback checks: 7",
				"  Workspace 1 (/p): tier 0 (a workspace root is the project), a.ts, unsaved changes (kept: no pane has focus)",
				"  Workspace 2 (/q, /r): no tier (no workspace root or file in the project), a.ts",
				"  Workspace 3 (no folder): not offered: a remote workspace: its paths are not this machine's",
				"  Last read problem (10s ago): database is locked",
			],
		],
		[
			"a read problem that has passed",
			{
				phase: { kind: "reading" },
				database,
				reads: { count: 4, lastMs: 0.5, lastOk: true, fallbackChecks: 0 },
				workspaces: [],
				lastProblem: { reason: "database is locked", atSeconds: 940 },
			},
			[
				"Zed: database /home/u/.local/share/zed/db/0-stable/db.sqlite (stable); Zed is not running",
				"  Reads: 4, the last took 0.5 ms; fallback checks: 0",
				"  Last read problem (1m ago; read fine since): database is locked",
			],
		],
		[
			"a schema pi cannot read",
			{
				phase: { kind: "reading" },
				database,
				zed: { pid: 77 },
				schemaSteps: "WorkspaceDb 8",
				blocked: "table workspaces has no paths (an older Zed: update it)",
				workspaces: [],
			},
			[
				"Zed: database /home/u/.local/share/zed/db/0-stable/db.sqlite (stable); Zed is running (pid 77)",
				"  Schema steps: WorkspaceDb 8",
				"  NOT read: table workspaces has no paths (an older Zed: update it)",
			],
		],
	])("%s", (_name, report, lines) => {
		expect(zedStatusLines(report, 1000, "/p")).toEqual(lines);
	});

	test("what limits pi: a stateless Zed, Zed's own settings, a hidden workspace", () => {
		const lines = zedStatusLines(
			{
				phase: { kind: "reading" },
				database,
				zed: { pid: 77 },
				stateless: [81],
				settings: { file: "/c/settings.json", facts: { restoreOnStartup: "empty_tab", restoreUnsavedBuffers: true } },
				workspaces: [{ id: "1", paths: "/p", editor: { ...editor(["/p"]), hidden: true } }],
			},
			1000,
			"/p",
		);
		expect(lines.slice(1)).toEqual([
			"  Zed 81 runs with ZED_STATELESS: its database is in memory, the rows on disk are not its",
			'  Zed settings: "restore_on_startup": "empty_tab": Zed records no cursor or selection, pi sees the file only',
			"  Workspace 1 (/p): tier 0 (a workspace root is the project), a.ts, hidden (its window shows another workspace)",
		]);
	});

	test("a database dir whose watch failed is named, with what still sees changes", () => {
		const lines = zedStatusLines(
			{
				phase: { kind: "reading" },
				database,
				workspaces: [],
				watchProblems: [
					{ dir: "/d/db/0-stable", problem: "its watcher failed: Error: EIO; watched again within seconds" },
				],
			},
			1000,
			"/p",
		);
		expect(lines).toContain(
			"  /d/db/0-stable not watched: its watcher failed: Error: EIO; watched again within seconds (changes are seen within 2 s)",
		);
	});

	test("a hostile path or reason cannot reach the terminal raw", () => {
		const lines = zedStatusLines({ phase: { kind: "problem", reason: "bad\u001b[2Jreason" }, workspaces: [] }, 0, "/p");
		expect(lines.join("")).not.toContain("\u001b");
	});
});

describe("/ide with no editor for the project: Zed's headline only when there is a Zed database", () => {
	test.each<[ZedReport["phase"], string | undefined]>([
		[{ kind: "off", source: "/g" }, undefined],
		[{ kind: "no-database", looked: ["/a"] }, undefined],
		[{ kind: "reading" }, "Zed: database /home/u/.local/share/zed/db/0-stable/db.sqlite (stable); Zed is not running"],
		[{ kind: "problem", reason: "no node:sqlite" }, "Zed: not read: no node:sqlite"],
	])("%o", (phase, line) => {
		expect(zedNoMatchLine({ phase, database, workspaces: [] })).toBe(line);
	});
});
