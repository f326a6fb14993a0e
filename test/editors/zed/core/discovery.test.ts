import { describe, expect, test } from "vitest";
import {
	channelOfBinary,
	zedConfigDir,
	zedDatabases,
	zedDataDir,
	zedDataDirs,
} from "../../../../src/editors/zed/core/data-dirs.ts";
import {
	hasOctetLength,
	stepsText,
	ZED_COLUMNS_READ,
	zedSchemaVerdict,
} from "../../../../src/editors/zed/core/schema.ts";
import {
	customDataDirs,
	databaseToRead,
	isZedEditorBinary,
	type ProcessFacts,
	type RunningZed,
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
		// A Mac: the bundle is named after the channel, "Zed Preview" with its space.
		["/Applications/Zed.app/Contents/MacOS/zed", "stable"],
		["/Applications/Zed Preview.app/Contents/MacOS/zed", "preview"],
		["/Applications/Zed Nightly.app/Contents/MacOS/zed", "nightly"],
		["/Applications/Zed Dev.app/Contents/MacOS/zed", "dev"],
		["/Users/andy/Applications/Zed.app/Contents/MacOS/zed", "stable"],
		["/Users/andy/src/zed/target/aarch64-apple-darwin/debug/zed", "dev"],
	])("the channel of %s", (binary, channel) => {
		expect(channelOfBinary(binary)).toBe(channel);
	});

	test("a Mac: every channel's database under Application Support (Zed's `0-<channel>`, its dev_name)", () => {
		const dataDir = zedDataDir({}, "/Users/andy", "darwin");
		expect(zedDataDirs({ XDG_DATA_HOME: "/x" }, "/Users/andy", "darwin")).toEqual([dataDir]);
		expect(zedDatabases(dataDir).map((db) => `${db.channel} ${db.path}`)).toEqual([
			"stable /Users/andy/Library/Application Support/Zed/db/0-stable/db.sqlite",
			"preview /Users/andy/Library/Application Support/Zed/db/0-preview/db.sqlite",
			"nightly /Users/andy/Library/Application Support/Zed/db/0-nightly/db.sqlite",
			"dev /Users/andy/Library/Application Support/Zed/db/0-dev/db.sqlite",
		]);
	});

	test.each([
		["Linux: XDG_CONFIG_HOME", { XDG_CONFIG_HOME: "/cfg" }, "linux", undefined, "/cfg/zed"],
		["Linux: ~/.config", {}, "linux", undefined, "/home/u/.config/zed"],
		[
			"a Mac: ~/.config/zed, whatever XDG_CONFIG_HOME says",
			{ XDG_CONFIG_HOME: "/cfg" },
			"darwin",
			undefined,
			"/home/u/.config/zed",
		],
		["--user-data-dir: its config under it", { XDG_CONFIG_HOME: "/cfg" }, "darwin", "/d", "/d/config"],
	])("where Zed reads its settings, %s", (_name, env, platform, userDataDir, expected) => {
		expect(zedConfigDir(env, "/home/u", userDataDir, platform)).toBe(expected);
	});
});

describe("which binary is Zed's editor, not its CLI", () => {
	test.each([
		["/home/u/.local/zed.app/libexec/zed-editor", "linux", true],
		["/usr/lib/zed/zed-editor", "linux", true],
		["/home/u/src/zed/target/debug/zed", "linux", true],
		["/home/u/src/zed/target/release/zed", "darwin", true],
		["/Users/andy/src/zed/target/aarch64-apple-darwin/release/zed", "darwin", true],
		["/usr/bin/zed", "linux", false],
		// A Mac's bundles: `zed` is the editor, `cli` the `zed` command (linked from /usr/local/bin/zed).
		["/Applications/Zed.app/Contents/MacOS/zed", "darwin", true],
		["/Applications/Zed Preview.app/Contents/MacOS/zed", "darwin", true],
		["/Applications/Zed Nightly.app/Contents/MacOS/zed", "darwin", true],
		["/Applications/Zed Dev.app/Contents/MacOS/zed", "darwin", true],
		["/Users/andy/Applications/Zed.app/Contents/MacOS/zed", "darwin", true],
		["/Applications/Zed.app/Contents/MacOS/cli", "darwin", false],
		["/Applications/Zed Preview.app/Contents/MacOS/cli", "darwin", false],
		["/usr/local/bin/zed", "darwin", false],
		["/Applications/Zed.app/Contents/MacOS/git", "darwin", false],
		["/Applications/NotZed.app/Contents/MacOS/zed", "darwin", false],
		// A bundle's path means nothing on Linux.
		["/opt/Zed.app/Contents/MacOS/zed", "linux", false],
	])("%s (%s): %s", (path, platform, expected) => expect(isZedEditorBinary(path, platform)).toBe(expected));
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
			{ pid: 20, dataDir: "/home/u/.local/share/zed", channel: "preview", configDir: "/home/u/.config/zed" },
			{ pid: 30, dataDir: "/x/zed", channel: "stable", configDir: "/home/u/.config/zed" },
			{ pid: 40 },
		]);
		expect(zedWriting(stable, zeds.slice(0, 2))).toBeUndefined();
		expect(zedWriting(preview, zeds)?.pid).toBe(20);
		expect(zedWriting(elsewhere, zeds)?.pid).toBe(30);
		// Nothing readable about it: any Zed of this user may be the writer.
		expect(zedWriting(stable, zeds)?.pid).toBe(40);
	});

	test.each<[string, ProcessFacts, Partial<RunningZed> | undefined]>([
		[
			"a source build runs as zed from target/: the dev channel",
			{ pid: 50, name: "zed", binary: "/home/u/src/zed/target/debug/zed", env: {} },
			{ pid: 50, channel: "dev", dataDir: "/home/u/.local/share/zed" },
		],
		["the zed CLI elsewhere is no editor", { pid: 51, name: "zed", binary: "/usr/bin/zed", env: {} }, undefined],
		["a zed of unknown binary is no editor", { pid: 52, name: "zed" }, undefined],
		[
			"--user-data-dir: that dir, its config under it",
			zedProcess(53, { env: { XDG_DATA_HOME: "/x" }, argv: ["zed-editor", "--user-data-dir", "/d"] }),
			{ pid: 53, dataDir: "/d", customDataDir: true, configDir: "/d/config" },
		],
		[
			"a relative --user-data-dir counts from that Zed's own cwd",
			zedProcess(54, { env: {}, argv: ["zed-editor", "--user-data-dir=data/../zd"], cwd: "/work" }),
			{ pid: 54, dataDir: "/work/zd", customDataDir: true, configDir: "/work/zd/config" },
		],
		[
			"XDG_CONFIG_HOME in that Zed's environment moves its settings",
			zedProcess(55, { env: { XDG_CONFIG_HOME: "/cfg" } }),
			{ pid: 55, configDir: "/cfg/zed" },
		],
		[
			"ZED_STATELESS: its database is in memory",
			zedProcess(56, { env: { ZED_STATELESS: "1" } }),
			{ pid: 56, stateless: true },
		],
	])("%s", (_name, process, expected) => {
		const [zed] = runningZeds([process], "/home/u", "linux");
		if (expected === undefined) expect(zed).toBeUndefined();
		else expect(zed).toMatchObject(expected);
	});

	test("a Mac: `zed` processes, the editor told from the CLI by its binary; the channel from its bundle", () => {
		const home = "/Users/andy";
		const zeds = runningZeds(
			[
				{ pid: 70, name: "zed", binary: "/Applications/Zed.app/Contents/MacOS/zed", env: {} },
				{ pid: 71, name: "zed", binary: "/Applications/Zed Preview.app/Contents/MacOS/zed", env: {} },
				{ pid: 72, name: "zed", binary: "/Applications/Zed.app/Contents/MacOS/cli", env: {} },
				{ pid: 73, name: "zed" },
			],
			home,
			"darwin",
		);
		const dataDir = "/Users/andy/Library/Application Support/Zed";
		expect(zeds).toEqual([
			{ pid: 70, dataDir, channel: "stable", configDir: "/Users/andy/.config/zed" },
			{ pid: 71, dataDir, channel: "preview", configDir: "/Users/andy/.config/zed" },
		]);
		const [stableDb, previewDb] = zedDatabases(dataDir);
		expect(zedWriting(previewDb as typeof stable, zeds)?.pid).toBe(71);
		expect(zedWriting(stableDb as typeof stable, zeds)?.pid).toBe(70);
	});

	test("a stateless Zed writes no database on disk; a custom-dir Zed only its own dir's", () => {
		const zeds = runningZeds(
			[
				zedProcess(60, { env: { ZED_STATELESS: "1" } }),
				zedProcess(61, { env: {}, argv: ["zed-editor", "--user-data-dir", "/d"] }),
			],
			"/home/u",
			"linux",
		);
		expect(zedWriting(stable, zeds)).toBeUndefined();
		expect(zedWriting(zedDatabases("/d")[0] as typeof stable, zeds)?.pid).toBe(61);
		expect(customDataDirs(zeds)).toEqual(["/d"]);
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
			optional: { pathsOrder: true, language: false, windowId: false, multiWorkspace: false },
		});
	});

	test("the sidebar's state is read where window_id and scoped_kv_store both exist", () => {
		const withSidebar = {
			...columns,
			workspaces: [...(columns.workspaces ?? []), "window_id"],
			scoped_kv_store: ["namespace", "key", "value"],
		};
		expect(zedSchemaVerdict(withSidebar, steps)).toMatchObject({ optional: { windowId: true, multiWorkspace: true } });
		const { scoped_kv_store: _, ...withoutStore } = withSidebar;
		expect(zedSchemaVerdict(withoutStore, steps)).toMatchObject({
			optional: { windowId: true, multiWorkspace: false },
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
