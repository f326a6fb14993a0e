/**
 * The standing links over which VS Code windows ask pi for inline completions and send it asks (src/editors/
 * state-dir/client-links.ts), against the client's real channel server on a real unix socket in a real 0700
 * dir: one link per client of pi's project while suggestions are on, pi offered on it; the client's requests,
 * cancels and end reaching the suggestions' feature under the editor's key; off, a refused offer and its retries
 * on the injected clock, an offer pi would not send, a connection given up, a window that goes, the source's
 * close. Asks (client-links-asks.test.ts) have their own file; then the state dir wiring it: `/ide status` notes.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pidKey } from "../../../src/editors/core/editor-key.ts";
import { connectClientChannel } from "../../../src/editors/state-dir/client-channel.ts";
import { ClientLinks, type LinkCandidate } from "../../../src/editors/state-dir/client-links.ts";
import { StateDir } from "../../../src/editors/state-dir/state-dir.ts";
import { IDE_REQUEST_TIMEOUT_MS, SUGGEST_LINK_RETRY_MS } from "../../../src/shared/core/timing.ts";
import { ManualClock } from "../../support/clocks.ts";
import { projectState } from "../../support/fixtures.ts";
import { listeningPathsOf, testProcessFacts } from "../../support/process-facts.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";
import { accept, clientListening as listenedBy, OFFER, suggestionsFeature } from "./link-fixtures.ts";

const uid = process.getuid?.() ?? 0;
const key = pidKey(process.pid);
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const feature = suggestionsFeature;
const clientListening = (offer: Parameters<typeof listenedBy>[1]) => listenedBy(cleanups, offer);

function linksFor(
	dir: string,
	on: boolean,
	clock = new ManualClock(),
	inProject = true,
	options: { offer?: Partial<typeof OFFER>; afterConnect?: (connects: number) => Promise<void> } = {},
) {
	const the = feature(on);
	const candidate: LinkCandidate = {
		key,
		target: { dir, pid: process.pid, uid, listeningPaths: listeningPathsOf() },
		inProject,
		asks: true,
		label: `VS Code ${process.pid}`,
		connected: false,
	};
	const state = { candidates: [candidate], connects: 0, changes: 0 };
	const links = new ClientLinks({
		requests: the.requests,
		candidates: () => state.candidates,
		offer: () => ({ ...OFFER, ...options.offer, project: "/home/dev/proj", pid: process.pid }),
		clock,
		changed: () => state.changes++,
		connect: async (target, connectOptions) => {
			const made = ++state.connects;
			const opened = await connectClientChannel(target, connectOptions);
			await options.afterConnect?.(made);
			return opened;
		},
	});
	cleanups.push(() => links.close());
	return { links, the, state, clock, candidate };
}

describe("the standing links of VS Code windows", () => {
	test("on: the project's client linked, pi offered on it with its project, pid and settings", async () => {
		const client = await clientListening(accept);
		const { links } = linksFor(client.dir, true);
		links.update();
		await waitFor("the link offered", () => links.statusOf(key)?.includes("offered"));
		expect(client.offers.map((offer) => offer.params)).toEqual([
			{ ...OFFER, project: "/home/dev/proj", pid: process.pid, suggestions: true, asks: false, connected: false },
		]);
		// Many updates (every cursor move of the window) make no second link.
		for (let round = 0; round < 20; round++) links.update();
		expect(client.offers).toHaveLength(1);
	});

	test("the client asks: the feature answers under the editor's key; a cancel by id; the end is the editor gone", async () => {
		const client = await clientListening(accept);
		const { links, the } = linksFor(client.dir, true);
		links.update();
		const peer = (await waitFor("the offer", () => client.offers[0])).peer;
		const asked = { filePath: "/home/dev/proj/a.ts", cursorBefore: "x = ", cursorAfter: "", suggestionCount: 1 };
		const { id, answer } = peer.request("getSuggestions", asked, 5000);
		expect(await answer).toEqual({ ok: true, result: { suggestions: ["42;"] } });
		expect(the.seen.answered).toEqual([[key, { id, method: "getSuggestions", params: asked }]]);
		peer.notify("request_cancelled", { id: 7 });
		await waitFor("the cancel", () => the.seen.cancelled.length > 0);
		expect(the.seen.cancelled).toEqual([[key, 7]]);
		await links.close();
		expect(the.seen.gone).toContain(key);
		await waitFor("the client saw pi go", () => client.gone.length === 1);
	});

	test("another project's window gets no link; one linked stays linked whatever file it shows next", async () => {
		const client = await clientListening(accept);
		const { links, state, candidate } = linksFor(client.dir, true, new ManualClock(), false);
		links.update();
		expect(state.connects).toBe(0);
		expect(links.statusOf(key)).toBeUndefined();
		state.candidates = [{ ...candidate, inProject: true }];
		links.update();
		await waitFor("the link offered", () => links.statusOf(key)?.includes("offered"));
		state.candidates = [{ ...candidate, inProject: false }];
		links.update();
		expect(links.statusOf(key)).toContain("offered");
		expect(state.connects).toBe(1);
	});

	test("off: no connection at all; on: offered; off again: the link closed and the client sees pi go", async () => {
		const client = await clientListening(accept);
		const { links, the, state } = linksFor(client.dir, false);
		links.update();
		expect(state.connects).toBe(0);
		the.set(true);
		await waitFor("the link offered", () => links.statusOf(key)?.includes("offered"));
		the.set(false);
		expect(links.statusOf(key)).toBeUndefined();
		await waitFor("the client saw pi go", () => client.gone.length === 1);
		expect(the.seen.gone).toEqual([key]);
	});

	test("a refused offer: said why, tried again after the retry time, then after twice that", async () => {
		let refusals = 2;
		const client = await clientListening(() =>
			refusals-- > 0 ? { code: -32602, message: "the offer's project is no absolute path" } : accept(),
		);
		const clock = new ManualClock();
		const { links, state } = linksFor(client.dir, true, clock);
		links.update();
		await waitFor("the refusal", () => links.statusOf(key)?.includes("not offered"));
		expect(links.statusOf(key)).toBe(
			"inline completions: not offered: the client did not take the offer: the client answered with an error: the offer's project is no absolute path",
		);
		await waitFor("the client saw pi go", () => client.gone.length === 1);
		clock.advance(SUGGEST_LINK_RETRY_MS - 1);
		links.update();
		expect(state.connects).toBe(1);
		clock.advance(1);
		links.update();
		await waitFor("refused again", () => client.gone.length === 2 && links.statusOf(key)?.includes("not offered"));
		expect(state.connects).toBe(2);
		clock.advance(2 * SUGGEST_LINK_RETRY_MS - 1);
		links.update();
		expect(state.connects).toBe(2);
		clock.advance(1);
		links.update();
		await waitFor("offered on the third try", () => links.statusOf(key)?.includes("offered"));
		expect(state.connects).toBe(3);
	});

	test("an offer the client would refuse is never sent: said why, no connection made", async () => {
		const client = await clientListening(accept);
		const { links, state } = linksFor(client.dir, true, new ManualClock(), true, {
			offer: { secretFiles: Array(501).fill(".env") },
		});
		links.update();
		await waitFor("the reason", () => links.statusOf(key)?.includes("not offered"));
		expect(links.statusOf(key)).toBe(
			"inline completions: not offered: pi's offer is not one the client takes: secretFiles is not a list of at most 500 globs of 500 characters",
		);
		expect(state.connects).toBe(0);
	});

	test("a connection given up while it was made (off and on at once) ends without touching the new link's requests", async () => {
		const client = await clientListening(accept);
		let release = () => {};
		const held = new Promise<void>((done) => {
			release = done;
		});
		let firstMade = false;
		const { links, the } = linksFor(client.dir, true, new ManualClock(), true, {
			afterConnect: (made) => {
				if (made !== 1) return Promise.resolve();
				firstMade = true;
				return held;
			},
		});
		links.update();
		await waitFor("the first connection made", () => firstMade);
		the.set(false);
		the.set(true);
		await waitFor("the second link offered", () => links.statusOf(key)?.includes("offered"));
		release();
		await waitFor("the first connection closed", () => client.gone.length === 1);
		expect(the.seen.gone).toEqual([]);
		expect(links.statusOf(key)).toContain("offered");
	});

	test("closing gives up a connection under way at once (a window that accepts and never answers)", async () => {
		const root = tempDir("suggestion-links-mute");
		cleanups.push(root.cleanup);
		chmodSync(root.path, 0o700);
		const path = join(root.path, `${process.pid}.sock`);
		// It reads what pi sends (so it sees pi's end) and never answers.
		const mute = createServer((socket) => socket.resume());
		await new Promise<void>((done) => mute.listen(path, done));
		chmodSync(path, 0o600);
		cleanups.push(() => new Promise((done) => mute.close(done)));
		const { links } = linksFor(root.path, true);
		links.update();
		await new Promise((done) => setTimeout(done, 100));
		const startedMs = performance.now();
		await links.close();
		expect(performance.now() - startedMs).toBeLessThan(IDE_REQUEST_TIMEOUT_MS / 4);
	});

	test("the window goes: said, the editor gone for the feature; once it is no candidate, forgotten", async () => {
		const client = await clientListening(accept);
		const { links, the, state } = linksFor(client.dir, true);
		links.update();
		await waitFor("the link offered", () => links.statusOf(key)?.includes("offered"));
		client.close();
		await waitFor("the end noticed", () => links.statusOf(key)?.includes("not offered"));
		expect(the.seen.gone).toEqual([key]);
		state.candidates = [];
		links.update();
		expect(links.statusOf(key)).toBeUndefined();
	});

	test("closed: nothing made after, and the standing's listener removed", async () => {
		const client = await clientListening(accept);
		const { links, the, state } = linksFor(client.dir, true);
		await links.close();
		links.update();
		the.set(true);
		expect(state.connects).toBe(0);
		expect(the.listeners.size).toBe(0);
	});
});

describe("the state dir offers its VS Code clients", () => {
	async function dirWith(client: string, elsewhere = false) {
		const the = feature(true);
		const listening = await clientListening(accept);
		const project = join(listening.dir, "proj");
		mkdirSync(project);
		const state = projectState(project, {
			pid: process.pid,
			client,
			app: "vscode",
			argv: [],
			...(elsewhere && { cwd: "/somewhere/else", buffer: { file: "/somewhere/else/a.ts" } }),
		});
		writeFileSync(join(listening.dir, `${process.pid}.json`), JSON.stringify(state), { mode: 0o600 });
		const hooks = sourceHooks();
		const source = new StateDir(
			{ path: listening.dir, role: "override" },
			uid,
			{ ...hooks, requests: the.requests },
			testProcessFacts(),
			{ projectDir: () => project, offer: OFFER },
		);
		cleanups.push(() => source.close());
		await source.start();
		return { source, listening, project };
	}

	test("a 0.5.0 client of the project: offered, and /ide status says so", async () => {
		const { source, listening, project } = await dirWith("pi-ide-context-vscode/0.5.0");
		await waitFor("offered", () => source.files()[0]?.suggestions?.includes("offered"));
		expect(listening.offers[0]?.params).toMatchObject({ project, pid: process.pid, ...OFFER });
	});

	test("an older client: not linked, and /ide status says which version asks", async () => {
		const { source, listening } = await dirWith("pi-ide-context-vscode/0.4.0");
		expect(source.files()[0]?.suggestions).toBe("inline completions: client 0.4.0 does not ask pi (0.5.0 on does)");
		expect(listening.offers).toEqual([]);
	});

	test("another project's window: not linked", async () => {
		const { source, listening } = await dirWith("pi-ide-context-vscode/0.5.0", true);
		expect(source.files()[0]?.suggestions).toBeUndefined();
		expect(listening.offers).toEqual([]);
	});
});
