/**
 * Zed as Zed really writes it, through the real pi 1.x: a tab opened with no selection rows, the sidebar's
 * hidden workspaces, a Zed started with --user-data-dir, a stateless Zed, a source build (the dev channel),
 * and Zed's own settings that limit what pi can see.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.ts";
import { messageText } from "../support/fake-model-server.ts";
import { FakeZed } from "../support/fake-zed.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { RpcPi } from "../support/rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "../support/wait-for.ts";

const [, pi1] = piLines() as [PiLine, PiLine];

describe.skipIf(!pi1.node)("Zed as Zed writes it, through the real pi 1.x (RPC)", () => {
	const ws = useE2eWorkspace();
	const zeds: FakeZed[] = [];
	afterEach(async () => {
		for (const zed of zeds.splice(0)) await zed.close();
	});

	async function zedFixture(where: { dataDir?: string; channel?: string } = {}): Promise<FakeZed> {
		const zed = await FakeZed.create(join(ws.root, "zed"), pi1.node as string, where);
		zeds.push(zed);
		return zed;
	}

	function startPi(zed: FakeZed): RpcPi {
		return ws.stopLater(
			RpcPi.start(pi1, {
				cwd: ws.project,
				agentDir: ws.agentDir,
				stateDir: ws.stateDir,
				env: zed.environment(join(ws.root, "home")),
			}),
		);
	}

	const main = () => join(ws.project, "src", "main.ts");
	const lastRequest = () => ws.server.requests.at(-1)?.messages.map(messageText).join("\n") ?? "";

	test("a newly opened tab with no selection rows replaces the shown file within 1.5 s; the model gets it, not the old selection", async () => {
		const zed = await zedFixture();
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path: main(), selections: [[6, 11]] });
		zed.start();
		const rpc = startPi(zed);
		await rpc.waitForWidget("1 line selected in main.ts", PI_START_TIMEOUT_MS);

		writeFileSync(join(ws.project, "src", "fresh.ts"), "export const fresh = 1;\n");
		const opened = Date.now();
		// Zed opens the tab: panes and tabs rewritten, the editor row written, no selection rows (the cursor never moved).
		await zed.show({ workspaceId: 1, itemId: 12, path: join(ws.project, "src", "fresh.ts"), selections: [] });
		await rpc.waitForWidget("in fresh.ts", 3000);
		expect(Date.now() - opened).toBeLessThan(1500);

		await rpc.prompt("what is open?");
		const sent = lastRequest();
		expect(sent).toContain(`File: ${join(ws.project, "src", "fresh.ts")}`);
		expect(sent).not.toContain("line2");
		expect(sent).not.toContain("Cursor:");
		expect(sent).toContain("Language: ts");
	});

	test("one window, two workspaces: the hidden one is marked in /ide status and /ide, its selection never fresh", async () => {
		const zed = await zedFixture();
		const other = join(ws.root, "other");
		mkdirSync(other, { recursive: true });
		await zed.workspace({ id: 1, roots: [ws.project], windowId: 9 });
		await zed.workspace({ id: 2, roots: [other], windowId: 9 });
		await zed.show({ workspaceId: 1, itemId: 11, path: main(), selections: [[6, 11]] });
		await zed.showInWindow(9, 1);
		const zedPid = zed.start();
		const rpc = startPi(zed);
		await rpc.waitForWidget("1 line selected in main.ts", PI_START_TIMEOUT_MS);

		// The window shows the other workspace: the project's stays connected, its selection no longer fresh.
		await zed.showInWindow(9, 2);
		await rpc.waitForWidget("in main.ts", 3000);
		const lines = await rpc.ideStatus();
		expect(lines).toContain(
			`  Workspace 1 (${ws.project}): tier 0 (a workspace root is the project), main.ts, hidden (its window shows another workspace)`,
		);
		await rpc.prompt("anything selected?");
		expect(lastRequest()).not.toContain("line2");

		rpc.send({ type: "prompt", message: "/ide all" });
		const request = await waitFor("the picker", () => rpc.uiRequests("select")[0]);
		const project = (request.options as string[]).find((option) => option.startsWith(`* zed ${zedPid}  ${ws.project}`));
		expect(project, (request.options as string[]).join("\n")).toContain("(hidden in its window)");
		rpc.respond(String(request.id), { cancelled: true });

		// Shown again: followed as before.
		await zed.showInWindow(9, 1);
		await zed.select({ workspaceId: 1, itemId: 11, selections: [[0, 11]] });
		await rpc.waitForWidget("2 lines selected in main.ts", 3000);
	});

	test("a stateless Zed keeps its database in memory: the rows on disk are not offered, /ide status says why", async () => {
		const zed = await zedFixture();
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path: main(), selections: [[6, 11]] });
		const pid = zed.start({ env: { ZED_STATELESS: "1" } });
		const rpc = startPi(zed);
		await waitFor(
			"the stateless line",
			async () =>
				(await rpc.ideStatus()).includes(
					`  Zed ${pid} runs with ZED_STATELESS: its database is in memory, the rows on disk are not its`,
				),
			PI_START_TIMEOUT_MS,
		);
		expect(rpc.lastWidget()).toBeUndefined();
		expect(await rpc.ideStatus()).toContain(`Zed: database ${zed.dbPath} (stable); Zed is not running`);
	});

	test("a Zed started with --user-data-dir is read from that dir, where no default database exists", async () => {
		const custom = join(ws.root, "zed-data");
		const zed = await zedFixture({ dataDir: custom });
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path: main(), selections: [[6, 11]] });
		const pid = zed.start({ args: ["--user-data-dir", custom] });
		const rpc = startPi(zed);
		await rpc.waitForWidget("1 line selected in main.ts", PI_START_TIMEOUT_MS);
		expect(await rpc.ideStatus()).toContain(
			`Zed: database ${join(custom, "db", "0-stable", "db.sqlite")} (stable); Zed is running (pid ${pid})`,
		);
	});

	test("Zed built from source (zed in target/debug) is read from its dev channel", async () => {
		const zed = await zedFixture({ channel: "dev" });
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path: main(), selections: [[6, 11]] });
		const pid = zed.start({ sourceBuild: true });
		const rpc = startPi(zed);
		await rpc.waitForWidget("1 line selected in main.ts", PI_START_TIMEOUT_MS);
		expect(await rpc.ideStatus()).toContain(`Zed: database ${zed.dbPath} (dev); Zed is running (pid ${pid})`);
	});

	test("Zed's own settings that limit pi are named in /ide status; the block says positions are against the disk", async () => {
		const zed = await zedFixture();
		zed.writeSettings(
			'{\n\t// no session restore\n\t"restore_on_startup": "empty_tab",\n\t"session": { "restore_unsaved_buffers": false },\n}\n',
		);
		await zed.workspace({ id: 1, roots: [ws.project] });
		await zed.show({ workspaceId: 1, itemId: 11, path: main(), selections: [] });
		zed.start();
		const rpc = startPi(zed);
		await rpc.waitForWidget("in main.ts", PI_START_TIMEOUT_MS);
		const lines = await rpc.ideStatus();
		expect(lines).toContain(
			'  Zed settings: "restore_on_startup": "empty_tab": Zed records no cursor or selection, pi sees the file only',
		);
		expect(lines).toContain(
			'  Zed settings: "session": { "restore_unsaved_buffers": false }: Zed stores no unsaved text, so unsaved changes look saved, positions are against the file on disk, and the guard cannot see them',
		);
		await rpc.prompt("where am I?");
		expect(lastRequest()).toContain(
			"Buffer: 6 lines, unsaved changes unknown (the editor keeps no unsaved text here: positions are against the file on disk)",
		);
	});
});
