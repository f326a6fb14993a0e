import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ideServersStatusLines } from "../../../src/editors/ide-servers/core/status.ts";
import { waitFor } from "../../support/wait-for.ts";
import { editorOf, lockOf, methodsSeen, SourceHarness } from "./source-harness.ts";

/**
 * One process serving several IDE servers (one JetBrains with a server per open project) is one editor, keyed by
 * its pid: listed once, by the lockfile that matches pi's project; and `/ide status` says each one's tier.
 */

let h: SourceHarness;
beforeEach(() => {
	h = new SourceHarness();
});
afterEach(() => h.close());

test("two servers of one process: the project's is listed, the other named as the same process's", async () => {
	const elsewhere = join(h.home, "elsewhere");
	mkdirSync(elsewhere);
	// The other project's lockfile is the newer one: only the folders make the project's the one listed.
	const mine = await h.server("jetbrains", { workspaceFolders: [h.project] });
	await new Promise((done) => setTimeout(done, 20));
	const other = await h.server("jetbrains", { workspaceFolders: [elsewhere] });
	const source = await h.source();
	await waitFor("both read", () => source.report().locks.length === 2);
	expect(source.editors()).toHaveLength(1);
	expect(editorOf(source)?.state.cwd).toBe(h.project);
	expect(lockOf(source, mine.port)?.sameProcessAs).toBeUndefined();
	expect(lockOf(source, other.port)?.sameProcessAs).toBe(`${mine.port}.lock`);
	const lines = ideServersStatusLines(source.report(), h.clock.nowSeconds(), h.project);
	expect(lines).toContain(
		`  ${lockOf(source, other.port)?.name} (IntelliJ IDEA): not listed: pid ${process.pid} also serves ${mine.port}.lock, which matches the project better`,
	);
	expect(lines).toContain(`    folders: ${h.project}; tier 0 (cwd equals the project)`);
	// The project's server is the one connected to when the editor is picked.
	await h.connect(source);
	expect(mine.openClients).toBe(1);
	expect(other.openClients).toBe(0);
});

test("a server whose folders are not the project: no tier, and why", async () => {
	const elsewhere = join(h.home, "elsewhere");
	mkdirSync(elsewhere);
	await h.server("vscode", { workspaceFolders: [elsewhere] });
	const source = await h.source();
	await waitFor("read", () => editorOf(source));
	expect(ideServersStatusLines(source.report(), h.clock.nowSeconds(), h.project)).toContain(
		`    folders: ${elsewhere}; no tier (no cwd, file or launch arg in the project)`,
	);
});

test("a new session of pi still connected to the server (/new, /resume): connected again without a pick", async () => {
	const server = await h.server("jetbrains");
	h.connected = SourceHarness.KEY;
	const source = await h.source();
	await waitFor("connected again", () => lockOf(source)?.connection === "connected");
	expect(server.openClients).toBe(1);
});

test("closed out in the session before: a new session does not take it back", async () => {
	const server = await h.server("vscode");
	const first = await h.source({ mode: "auto" });
	await h.connect(first);
	h.anotherClient(server);
	await h.afterClose(first);
	// What ended lives in the source of that session: a new one starts without it, and connects (the rules' pick).
	await first.close();
	const second = await h.source({ mode: "auto" });
	await waitFor("connected by the new session", () => lockOf(second)?.connection === "connected");
	expect(server.upgrades).toHaveLength(3);
});

test("the same editor read another way later (the shipped client's file appears): pi's connection is dropped", async () => {
	const server = await h.server("vscode");
	const source = await h.source();
	await h.connect(source);
	h.claimed.set(SourceHarness.KEY, "its state file");
	await source.recheck();
	await waitFor("dropped", () => server.openClients === 0);
	expect(lockOf(source)).toMatchObject({ unused: "the same editor as its state file" });
	expect(source.editors()).toEqual([]);
});

test("closed while it connects to a silent server: the close is quick, and nothing more is said to the server", async () => {
	const server = await h.server("vscode", { misbehave: "silent" });
	const source = await h.source();
	h.connected = SourceHarness.KEY;
	source.follow();
	await waitFor("the upgrade made", () => server.upgrades.length === 1);
	// Closed while it waits for the silent server's answer to its first message.
	await waitFor("initialize sent", () => methodsSeen(server).length > 0);
	const started = Date.now();
	await source.close();
	expect(Date.now() - started).toBeLessThan(500);
	await new Promise((done) => setTimeout(done, 50));
	expect(methodsSeen(server)).toEqual(["initialize"]);
});

test("closed out: while pi looks why (the settle time), a re-check does not connect again", async () => {
	const server = await h.server("vscode");
	const source = await h.source({ mode: "auto" });
	await h.connect(source);
	h.anotherClient(server);
	await waitFor("pi's connection closed", () => lockOf(source)?.connection === undefined);
	await source.recheck();
	await new Promise((done) => setTimeout(done, 100));
	expect(server.upgrades).toHaveLength(2);
	await h.afterClose(source);
	await source.recheck();
	await new Promise((done) => setTimeout(done, 50));
	expect(server.upgrades).toHaveLength(2);
});
