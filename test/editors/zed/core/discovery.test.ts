import { describe, expect, test } from "vitest";
import { channelOfBinary, zedDatabases, zedDataDir, zedDataDirs } from "../../../../src/editors/zed/core/data-dirs.ts";
import {
	hasOctetLength,
	stepsText,
	ZED_COLUMNS_READ,
	zedSchemaVerdict,
} from "../../../../src/editors/zed/core/schema.ts";
import {
	databaseToRead,
	type ProcessFacts,
	runningZeds,
	zedWriting,
} from "../../../../src/editors/zed/core/which-zed.ts";

describe("where Zed keeps its database", () => {
	test.each([
		["Linux, nothing set", {}, "linux", [], "/home/u/.local/share/zed"],
		["XDG_DATA_HOME", { XDG_DATA_HOME: "/x" }, "linux", [], "/x/zed"],
		["Flatpak's variable first", { FLATPAK_XDG_DATA_HOME: "/f", XDG_DATA_HOME: "/x" }, "linux", [], "/f/zed"],
		["a relative XDG_DATA_HOME is ignored", { XDG_DATA_HOME: "rel" }, "linux", [], "/home/u/.local/share/zed"],
		["--user-data-dir moves it", {}, "linux", ["zed", "--user-data-dir", "/d"], "/d"],
		["--user-data-dir=", {}, "linux", ["zed", "--user-data-dir=/d2"], "/d2"],
		["macOS", {}, "darwin", [], "/home/u/Library/Application Support/Zed"],
	])("%s", (_name, env, platform, argv, expected) => {
		expect(zedDataDir(env, "/home/u", platform, argv)).toBe(expected);
	});

	test("pi's own data dir first, then the default and a host-side Flatpak's", () => {
		expect(zedDataDirs({ XDG_DATA_HOME: "/x" }, "/home/u", "linux")).toEqual([
			"/x/zed",
			"/home/u/.local/share/zed",
			"/home/u/.var/app/dev.zed.Zed/data/zed",
		]);
		expect(zedDatabases("/x/zed").map((db) => [db.path, db.socket])[1]).toEqual([
			"/x/zed/db/0-preview/db.sqlite",
			"/x/zed/zed-preview.sock",
		]);
	});

	test.each([
		["/home/u/.local/zed.app/libexec/zed-editor", "stable"],
		["/home/u/.local/zed-preview.app/libexec/zed-editor", "preview"],
		["/opt/zed-nightly.app/libexec/zed-editor", "nightly"],
		["/usr/lib/zed/zed-editor", "stable"],
		["/home/u/src/zed/target/debug/zed-editor", "dev"],
		["/usr/bin/something", undefined],
	])("the channel of %s", (binary, channel) => {
		expect(channelOfBinary(binary)).toBe(channel);
	});
});

describe("which Zed writes which database", () => {
	const zedProcess = (pid: number, extra: Partial<ProcessFacts> = {}): ProcessFacts => ({
		pid,
		name: "zed-editor",
		...extra,
	});
	const stable = zedDatabases("/home/u/.local/share/zed")[0];
	const preview = zedDatabases("/home/u/.local/share/zed")[1];
	const elsewhere = zedDatabases("/x/zed")[0];
	if (!stable || !preview || !elsewhere) throw new Error("no databases");

	test("only zed-editor processes; their data dir from their own environment, the channel from the binary", () => {
		const zeds = runningZeds(
			[
				zedProcess(30, { env: { XDG_DATA_HOME: "/x" }, binary: "/opt/zed.app/libexec/zed-editor" }),
				{ pid: 10, name: "zed" },
				zedProcess(20, { env: {}, binary: "/home/u/.local/zed-preview.app/libexec/zed-editor" }),
				zedProcess(40),
			],
			"/home/u",
			"linux",
		);
		expect(zeds).toEqual([
			{ pid: 20, dataDir: "/home/u/.local/share/zed", channel: "preview" },
			{ pid: 30, dataDir: "/x/zed", channel: "stable" },
			{ pid: 40 },
		]);
		expect(zedWriting(stable, zeds.slice(0, 2))).toBeUndefined();
		expect(zedWriting(preview, zeds)?.pid).toBe(20);
		expect(zedWriting(elsewhere, zeds)?.pid).toBe(30);
		// Nothing readable about it: any Zed of this user may be the writer.
		expect(zedWriting(stable, zeds)?.pid).toBe(40);
	});

	test("the database whose Zed runs; told by channel or socket before the one written last; none without Zed", () => {
		const onDisk = [
			{ database: stable, writtenAtMs: 200, socket: false },
			{ database: preview, writtenAtMs: 100, socket: true },
		];
		expect(databaseToRead(onDisk, [])).toBeUndefined();
		expect(databaseToRead(onDisk, [{ pid: 5, channel: "stable" }])?.database).toBe(stable);
		expect(databaseToRead(onDisk, [{ pid: 5 }])?.database).toBe(preview);
		expect(
			databaseToRead(
				[
					{ ...onDisk[0], socket: false },
					{ ...onDisk[1], socket: false },
				] as typeof onDisk,
				[{ pid: 5 }],
			)?.database,
		).toBe(stable);
	});
});

describe("the schema pi reads", () => {
	const columns = Object.fromEntries(Object.entries(ZED_COLUMNS_READ).map(([table, names]) => [table, [...names]]));
	const steps = [
		{ domain: "WorkspaceDb", step: 0 },
		{ domain: "WorkspaceDb", step: 31 },
		{ domain: "EditorDb", step: 7 },
	];

	test("every column pi reads: readable, newer steps fine, optional columns noted", () => {
		expect(
			zedSchemaVerdict({ ...columns, workspaces: [...(columns.workspaces ?? []), "paths_order", "new_column"] }, steps),
		).toEqual({
			ok: true,
			steps: "WorkspaceDb 31, EditorDb 7",
			optional: { pathsOrder: true, language: false },
		});
	});

	test.each([
		[
			"a missing table",
			{ ...columns, editor_selections: undefined },
			"no table editor_selections: not a Zed schema pi can read",
		],
		["a missing column", { ...columns, editors: ["item_id", "workspace_id", "path"] }, "table editors has no contents"],
		[
			"an older Zed (local_paths)",
			{ ...columns, workspaces: ["workspace_id", "local_paths", "remote_connection_id", "timestamp", "session_id"] },
			"table workspaces has no paths (an older Zed: update it)",
		],
	])("%s: not read, with the reason", (_name, changed, reason) => {
		const present = Object.fromEntries(Object.entries(changed).filter(([, value]) => value !== undefined)) as Record<
			string,
			string[]
		>;
		expect(zedSchemaVerdict(present, steps)).toEqual({ ok: false, reason, steps: "WorkspaceDb 31, EditorDb 7" });
	});

	test("no migrations table", () => {
		expect(stepsText([])).toBe("no migrations table");
	});
});

describe("an unsaved buffer's size without copying it: octet_length from SQLite 3.43", () => {
	test.each([
		["3.54.1", true],
		["3.43.0", true],
		["3.42.9", false],
		["3.40.1", false],
		["4.0.0", true],
		["", false],
		["not a version", false],
	])("%s", (version, has) => {
		expect(hasOctetLength(version)).toBe(has);
	});
});
