import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { commOf } from "../../../src/editors/processes/proc-files.ts";
import { zedStatusLines } from "../../../src/editors/zed/core/status.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { FakeMacZedApps } from "../../support/fake-mac-zed.ts";
import { FakeZed } from "../../support/fake-zed.ts";
import { pi1Toolchain } from "../../support/pi1-toolchain.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";
import { ZedSourceProcess } from "../../support/zed-source-process.ts";

/**
 * A Mac's Zed paths through the Zed source, on both ways of asking about processes: the source told it runs on
 * darwin with a `HOME` of the test's, a database written as Zed writes it at
 * `$HOME/Library/Application Support/Zed/db/0-<channel>/db.sqlite`, and Zed's processes at the paths a Mac runs
 * them from (`<Applications>/Zed.app/Contents/MacOS/zed`, a copy of `sleep`: its kernel name is `zed`). Their
 * environment still names a Linux `XDG_DATA_HOME` (the fixture's), which a Mac's Zed never reads. The source
 * runs in a child on the pi 1.x toolchain's Node (node:sqlite).
 */
const { node, skipReason } = pi1Toolchain();
if (!node && process.env.CI === "true") throw new Error(`CI=true and the Zed macOS tests cannot run: ${skipReason}`);
if (!node) process.stderr.write(`Zed macOS tests skipped: ${skipReason}\n`);

describe.skipIf(!node)("a Mac's Zed paths through the Zed source (real database, no pi)", () => {
	describe.each(["proc", "ps"] as const)("asked through the %s backend", (backend) => {
		const scope = new CleanupScope();
		let root: string;
		let home: string;
		let project: string;
		let greet: string;

		beforeEach(() => {
			const dir = tempDir("zed-macos");
			scope.defer(dir.cleanup);
			root = dir.path;
			home = join(root, "home");
			project = join(root, "proj");
			mkdirSync(join(project, "src"), { recursive: true });
			greet = join(project, "src", "greet.ts");
			writeFileSync(greet, "export const hello = 1;\n");
		});
		afterEach(() => scope.close());

		const macData = () => join(home, "Library", "Application Support", "Zed");
		const dbPath = (channel: string) => join(macData(), "db", `0-${channel}`, "db.sqlite");

		/** One channel's database at the Mac's path, its workspace showing greet.ts with "export" selected. */
		async function database(channel: "stable" | "preview"): Promise<FakeZed> {
			const zed = await FakeZed.create(join(root, "zed"), node as string, { dataDir: macData(), channel });
			scope.defer(() => zed.close());
			await zed.workspace({ id: 1, roots: [project] });
			await zed.show({ workspaceId: 1, itemId: 7, path: greet, selections: [[0, 6]] });
			expect(zed.dbPath).toBe(dbPath(channel));
			return zed;
		}

		function macApps(zed: FakeZed): FakeMacZedApps {
			const apps = new FakeMacZedApps(join(root, "Applications"), zed, home);
			scope.defer(() => apps.close());
			return apps;
		}

		async function macSource(zed: FakeZed): Promise<ZedSourceProcess> {
			const runner = await ZedSourceProcess.start(node as string, zed.dataHome, home, zed.scope, {
				platform: "darwin",
				backend,
			});
			scope.defer(() => runner.close());
			return runner;
		}

		test("Zed.app's zed: its database under ~/Library/Application Support read, the workspace one editor", async () => {
			const zed = await database("stable");
			const pid = macApps(zed).start("Zed", "zed");
			await waitFor("the app running as zed", () => commOf(pid) === "zed\n");
			const runner = await macSource(zed);
			const [editor] = await waitFor(
				"the workspace listed",
				() => runner.editors().length > 0 && runner.editors(),
				10_000,
			);
			expect(editor).toMatchObject({
				origin: "zed",
				key: `zed:${dbPath("stable")}#1`,
				pid,
				alive: true,
				paths: { roots: [project] },
			});
			expect(editor?.state.active_buffer).toMatchObject({ file: greet, selection: { text: "export" } });
			const { report } = await runner.report();
			expect(report.database).toMatchObject({ channel: "stable", dataDir: macData(), path: dbPath("stable") });
			// A Mac's Zed reads ~/.config/zed whatever XDG_CONFIG_HOME says.
			expect(report.zed).toMatchObject({
				pid,
				channel: "stable",
				dataDir: macData(),
				configDir: join(home, ".config", "zed"),
			});
			expect(zedStatusLines(report, Date.now() / 1000, project)[0]).toBe(
				`Zed: database ${dbPath("stable")} (stable); Zed is running (pid ${pid})`,
			);
		});

		test("Zed Preview.app's zed reads 0-preview, though the stable database beside it was written last", async () => {
			const preview = await database("preview");
			// Written after the preview one: were the channel not told by the bundle's name, this would be read.
			await database("stable");
			const pid = macApps(preview).start("Zed Preview", "zed");
			const runner = await macSource(preview);
			const [editor] = await waitFor(
				"the workspace listed",
				() => runner.editors().length > 0 && runner.editors(),
				10_000,
			);
			expect(editor).toMatchObject({ key: `zed:${dbPath("preview")}#1`, pid });
			expect(editor?.state.active_buffer?.selection?.text).toBe("export");
			const { report } = await runner.report();
			expect(report.database).toMatchObject({ channel: "preview", path: dbPath("preview") });
			expect(report.zed).toMatchObject({ pid, channel: "preview", dataDir: macData() });
		});

		test("Contents/MacOS/cli is never an editor, named cli or zed (through /usr/local/bin/zed)", async () => {
			const zed = await database("stable");
			const apps = macApps(zed);
			const cli = apps.start("Zed", "cli");
			const linked = apps.start("Zed", "cli", join(root, "usr", "local", "bin", "zed"));
			await waitFor("the CLI running as cli and as zed", () => commOf(cli) === "cli\n" && commOf(linked) === "zed\n");
			const runner = await macSource(zed);
			expect(runner.editors()).toEqual([]);
			expect((await runner.report()).report.zed).toBeUndefined();
			// The editor beside it, started later, is found once the database moves; the CLI still is not.
			const editorPid = apps.start("Zed", "zed");
			await zed.workspace({ id: 1, roots: [project] });
			await waitFor("the editor listed", () => runner.editors()[0]?.pid === editorPid, 10_000);
			expect(runner.editors()).toHaveLength(1);
			expect((await runner.report()).report.zed?.pid).toBe(editorPid);
		});
	});
});
