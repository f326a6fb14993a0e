import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { FLAVOURS, type IdeFlavour } from "../../support/ide-server-flavours.ts";
import { waitFor } from "../../support/wait-for.ts";
import { editorOf, lockOf, methodsSeen, range, SourceHarness } from "./source-harness.ts";

/**
 * Each flavour's row of FLAVOURS seen through the IDE server source (no pi): found from its lockfile, listed,
 * connected only when followed, the handshake and headers the server sees, and the state its pushes give.
 */

const ALL = Object.keys(FLAVOURS) as IdeFlavour[];
const KEY = SourceHarness.KEY;
const CLAUDE_HEADER = "x-claude-code-ide-authorization";
const PI_HEADER = "x-pi-ide-authorization";
const APPS: Record<IdeFlavour, string> = {
	jetbrains: "jetbrains",
	vscode: "vscode",
	"claudecode-nvim": "nvim",
	"claude-code-ide-el": "emacs",
	"pi-ide-nvim": "nvim",
};

let h: SourceHarness;
beforeEach(() => {
	h = new SourceHarness();
});
afterEach(() => h.close());

describe.each(ALL)("the %s IDE server", (flavour) => {
	const capabilities = FLAVOURS[flavour];

	test("found from its lockfile in its dir, listed by hand under ask, not connected until followed", async () => {
		const [second, third] = [join(h.home, "second"), join(h.home, "third")];
		for (const dir of [second, third]) mkdirSync(dir);
		const server = await h.server(flavour, { workspaceFolders: [h.project, second, third] });
		const source = await h.source();
		expect(source.report()).toMatchObject({ phase: "watching", mode: "ask", source: "test" });
		const { editor: listedAs, ...lock } = lockOf(source) ?? {};
		expect(listedAs).toMatchObject({ origin: "ide-server", pid: process.pid });
		expect(lock).toEqual({
			name: join(h.lockDir(capabilities.lockDir), `${server.port}.lock`),
			port: server.port,
			ideName: capabilities.ideName,
			folders: [h.project, second, third],
			holderPid: process.pid,
			enclosing: false,
			guard: "unknown until connected",
		});
		const editor = editorOf(source);
		expect(editor).toMatchObject({
			key: KEY,
			origin: "ide-server",
			pid: process.pid,
			alive: true,
			byHand: true,
			ideServer: { connected: false },
		});
		// The first folder is the cwd, the others launch evidence; before a connection nothing of a file is known.
		expect(editor?.state).toMatchObject({ app: APPS[flavour], cwd: h.project, argv: [second, third] });
		expect(editor?.state.active_buffer).toBeNull();
		expect(source.facts(KEY)).toMatchObject({ origin: "ide-server", listed: true, alive: true });
		// Under "auto" the rules may pick it on their own.
		expect(editorOf(await h.source({ mode: "auto" }))?.byHand).toBeUndefined();
		// Its key connected but not followed, or another key followed: no connection.
		h.connected = KEY;
		expect(source.isPending(KEY)).toBe(false);
		h.connected = "pid:1";
		source.follow();
		// A connection would be under way at once (follow starts it synchronously).
		expect(source.isPending(KEY)).toBe(false);
		await new Promise((done) => setTimeout(done, 50));
		expect(server.upgrades).toEqual([]);
	});

	test("followed: the handshake, the token in the right headers only, mcp offered", async () => {
		const server = await h.server(flavour);
		const source = await h.source();
		await h.connect(source);
		expect(methodsSeen(server).slice(0, 4)).toEqual([
			"initialize",
			"notifications/initialized",
			"tools/list",
			"ide_connected",
		]);
		const [initialize, , , connected] = server.received.map(({ message }) => message);
		expect(initialize.params).toMatchObject({ protocolVersion: "2024-11-05", clientInfo: { name: "pi-ide-context" } });
		expect(connected.params).toEqual({ pid: process.pid });
		expect(server.upgrades).toHaveLength(1);
		const [upgrade] = server.upgrades;
		expect(upgrade?.protocols).toEqual(["mcp"]);
		expect(upgrade?.headers[CLAUDE_HEADER]).toBe(server.token);
		expect(upgrade?.headers[PI_HEADER]).toBe(capabilities.lockDir === "pi" ? server.token : undefined);
		if (server.token === undefined) expect(Object.keys(upgrade?.headers ?? {})).not.toContain(CLAUDE_HEADER);
		const lock = lockOf(source);
		expect(lock?.session).toMatchObject({ server: { name: capabilities.serverName }, tools: capabilities.tools });
		expect(lock?.guard).toBe(
			capabilities.dirtyTools ? "available" : "not available (the server cannot tell unsaved documents)",
		);
		expect(JSON.stringify(source.report())).not.toContain(server.token ?? "no token at all");
		await waitFor("listed as connected", () => editorOf(source)?.ideServer?.connected);
		expect(editorOf(source)?.unsavedUnknown).toBe(capabilities.dirtyTools ? undefined : "not-told");
		expect(h.events).toContainEqual({
			kind: "app-found",
			label: `IDE server ${server.port}`,
			detail: capabilities.serverName,
		});
	});

	test("pushed selections: the file, a 1-based cursor, the end inclusive, fresh from when pi saw it made", async () => {
		const server = await h.server(flavour);
		const source = await h.source();
		await h.connect(source);
		const file = h.file("a.ts");
		server.setEditor({ file, selection: range(1, 2, 3, 4), selectedText: "ne 2\nline 3\nline" });
		const buffer = await waitFor("the pushed file", () => editorOf(source)?.state.active_buffer ?? undefined);
		expect(buffer).toMatchObject({
			file,
			name: "a.ts",
			cursor: { line: 4, column: 5 },
			selection: {
				start: { line: 2, column: 3 },
				end: { line: 4, column: 4 },
				text: "ne 2\nline 3\nline",
				selected_at: h.clock.nowSeconds(),
			},
		});
		await waitFor("the lines counted", () => editorOf(source)?.state.active_buffer?.lines_total === 5);
		// Whole lines (shift+down twice): the end at character 0 is the end of the line before.
		h.clock.advance(100);
		server.setEditor({ selection: range(1, 0, 3, 0), selectedText: "line 2\nline 3\n" });
		await waitFor("the whole-line selection", () => editorOf(source)?.wholeLineSelection);
		expect(editorOf(source)?.state.active_buffer?.selection).toEqual({
			start: { line: 2, column: 1 },
			end: { line: 3, column: 6 },
			text: "line 2\nline 3\n",
			selected_at: h.clock.nowSeconds(),
		});
		// A cursor move: no selection, the cursor where it went.
		server.setEditor({ selection: range(4, 1, 4, 1), selectedText: "" });
		await waitFor("the cursor moved", () => editorOf(source)?.state.active_buffer?.cursor?.line === 5);
		expect(editorOf(source)?.state.active_buffer).toMatchObject({ cursor: { line: 5, column: 2 }, selection: null });
		expect(lockOf(source)?.session?.pushes).toBeGreaterThanOrEqual(3);
	});

	test("diagnostics asked for the active file on a file switch (and on diagnostics_changed where sent)", async () => {
		const server = await h.server(flavour);
		const source = await h.source();
		await h.connect(source);
		const [a, b] = [h.file("a.ts"), h.file("b.ts")];
		const diagnostics = {
			[a]: [{ message: "bad a", severity: "error" as const, line: 1, character: 2, source: "fake" }],
			[b]: [{ message: "bad b", severity: "info" as const, line: 3, character: 0 }],
		};
		server.setEditor({ file: a, diagnostics, selection: range(0, 1, 0, 1) });
		// The fake writes its 0-based numbers as they are; claude-code-ide.el's wire counts from 1 (§4).
		const shift = capabilities.positions === "1-based" ? 0 : 1;
		const atA = { line: 1 + shift, column: 2 + shift, severity: "error", message: "bad a", source: "fake" };
		await waitFor("a's diagnostics", () => editorOf(source)?.state.active_buffer?.diagnostics?.length === 1);
		expect(editorOf(source)?.state.active_buffer?.diagnostics).toEqual([atA]);
		server.setEditor({ file: b, selection: range(0, 0, 0, 0) });
		await waitFor(
			"b's diagnostics",
			() => editorOf(source)?.state.active_buffer?.diagnostics?.[0]?.message === "bad b",
		);
		expect(editorOf(source)?.state.active_buffer?.diagnostics).toEqual([
			{ line: 3 + shift, column: shift || 1, severity: "info", message: "bad b" },
		]);
		const asked = () => methodsSeen(server).filter((method) => method === "tools/call getDiagnostics").length;
		expect(asked()).toBe(2);
		if (!capabilities.notifications.includes("diagnostics_changed")) return;
		server.setEditor({ diagnostics: { [b]: [{ message: "worse", severity: "warning", line: 0, character: 0 }] } });
		server.diagnosticsChanged([b]);
		await waitFor("refreshed", () => editorOf(source)?.state.active_buffer?.diagnostics?.[0]?.message === "worse");
		expect(editorOf(source)?.state.active_buffer?.diagnostics?.[0]?.severity).toBe("warning");
		expect(asked()).toBe(3);
	});
});

describe.each(ALL.filter((flavour) => FLAVOURS[flavour].notifications.includes("at_mentioned")))(
	"%s's at_mentioned",
	(flavour) => {
		test("reaches mentioned() with 1-based lines, only while its key is the connected one", async () => {
			const server = await h.server(flavour);
			const source = await h.source();
			await h.connect(source);
			const file = h.file("a.ts");
			server.mention(file, { start: 2, end: 4 });
			server.mention(file);
			await waitFor("two mentions", () => h.mentions.length === 2);
			expect(h.mentions).toEqual([
				{ key: KEY, mention: { file, lines: { start: 3, end: 5 } } },
				{ key: KEY, mention: { file } },
			]);
			// The connection changing elsewhere (not followed yet): a mention no longer goes to the prompt.
			h.connected = undefined;
			server.mention(file, { start: 0, end: 0 });
			await waitFor("the push seen", () => (lockOf(source)?.session?.pushes ?? 0) >= 3);
			expect(h.mentions).toHaveLength(2);
		});
	},
);
