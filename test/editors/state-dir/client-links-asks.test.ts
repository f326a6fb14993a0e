/**
 * The standing links carrying asks (src/editors/state-dir/client-links.ts and link-wire.ts), against the client's
 * real channel server on a real unix socket in a real 0700 dir: kept while suggestions OR asks are on, the offer
 * saying which (and whether pi is connected to the window), sent again when that changes and only then; a 0.6.0
 * client's `ask`/`add`/`stop`/`reply`/`replyClosed` handed to the asks' feature as they came, under the window's
 * key and name, answered at once; `tell` reaching the window as a `pi/askNews` notification on the same
 * connection; what is not offered refused; the link's end the window gone for the asks. Then the state dir: a
 * 0.6.0 client offered asks, an older one said in `/ide status`, pi's connection told to the window.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { pidKey } from "../../../src/editors/core/editor-key.ts";
import { ClientLinks, type LinkCandidate } from "../../../src/editors/state-dir/client-links.ts";
import { StateDir } from "../../../src/editors/state-dir/state-dir.ts";
import { ManualClock } from "../../support/clocks.ts";
import { projectState } from "../../support/fixtures.ts";
import { listeningPathsOf, testProcessFacts } from "../../support/process-facts.ts";
import { sourceHooks } from "../../support/source-hooks.ts";
import { waitFor } from "../../support/wait-for.ts";
import { accept, asksFeature, clientListening, OFFER, suggestionsFeature } from "./link-fixtures.ts";

const uid = process.getuid?.() ?? 0;
const key = pidKey(process.pid);
const label = `VS Code ${process.pid}`;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const offerOf = (flags: { suggestions: boolean; asks: boolean; connected: boolean }) => ({
	...OFFER,
	project: "/home/dev/proj",
	pid: process.pid,
	...flags,
});

async function linked(on: { suggestions: boolean; asks: boolean }, client: { asks: boolean } = { asks: true }) {
	const window = await clientListening(cleanups, accept);
	const suggestions = suggestionsFeature(on.suggestions);
	const asks = asksFeature(on.asks);
	const candidate: LinkCandidate = {
		key,
		target: { dir: window.dir, pid: process.pid, uid, listeningPaths: listeningPathsOf() },
		inProject: true,
		asks: client.asks,
		label,
		connected: false,
	};
	const state = { candidates: [candidate] };
	const links = new ClientLinks({
		requests: suggestions.requests,
		asks: asks.asks,
		candidates: () => state.candidates,
		offer: () => ({ ...OFFER, project: "/home/dev/proj", pid: process.pid }),
		clock: new ManualClock(),
		changed: () => {},
	});
	cleanups.push(() => links.close());
	links.update();
	return { window, suggestions, asks, links, state, candidate };
}

describe("a link kept for asks", () => {
	test("asks alone: a 0.6.0 window linked, offered asks and no inline completions; /ide status says so", async () => {
		const { window, links } = await linked({ suggestions: false, asks: true });
		await waitFor("offered", () => links.statusOf(key)?.includes("offered"));
		expect(window.offers.map((offer) => offer.params)).toEqual([
			offerOf({ suggestions: false, asks: true, connected: false }),
		]);
		expect(links.statusOf(key)).toBe('asks: offered ("pi: Ask…" in the palette)');
	});

	test("both on: one link offers both", async () => {
		const { window, links } = await linked({ suggestions: true, asks: true });
		await waitFor("offered", () => links.statusOf(key)?.includes("offered"));
		expect(window.offers.map((offer) => offer.params)).toEqual([
			offerOf({ suggestions: true, asks: true, connected: false }),
		]);
		expect(links.statusOf(key)).toBe(
			'inline completions: offered (VS Code asks pi as you type); asks: offered ("pi: Ask…" in the palette)',
		);
	});

	test("asks alone and a window older than 0.6.0: no link at all", async () => {
		const { window, links } = await linked({ suggestions: false, asks: true }, { asks: false });
		expect(links.statusOf(key)).toBeUndefined();
		expect(window.offers).toEqual([]);
	});

	test("each ask message reaches the asks as it came, under the window's key and name, answered at once", async () => {
		const { window, asks, links } = await linked({ suggestions: false, asks: true });
		await waitFor("offered", () => links.statusOf(key)?.includes("offered"));
		const peer = window.offers[0]?.peer;
		if (!peer) throw new Error("no peer");
		const ask = {
			prompt: "explain @this",
			placeholders: { this: { file: "/p/a.ts", startLine: 2, endLine: 4, text: "x" } },
		};
		const answers = await Promise.all([
			peer.request("ask", ask, 5000).answer,
			peer.request("add", { file: "/p/a.ts", startLine: 3 }, 5000).answer,
			peer.request("stop", {}, 5000).answer,
			peer.request("reply", undefined, 5000).answer,
			peer.request("replyClosed", {}, 5000).answer,
			peer.request("ask", "not even an object", 5000).answer,
		]);
		expect(answers).toEqual(Array(6).fill({ ok: true, result: {} }));
		expect(asks.seen.received.map(({ editor, method, params }) => [editor.key, editor.label, method, params])).toEqual([
			[key, label, "ask", ask],
			[key, label, "add", { file: "/p/a.ts", startLine: 3 }],
			[key, label, "stop", {}],
			[key, label, "reply", undefined],
			[key, label, "replyClosed", {}],
			[key, label, "ask", "not even an object"],
		]);
	});

	test("tell: the news reach the window as pi/askNews on the same connection, in order; never after its end", async () => {
		const { window, asks, links } = await linked({ suggestions: false, asks: true });
		await waitFor("offered", () => links.statusOf(key)?.includes("offered"));
		const peer = window.offers[0]?.peer;
		await peer?.request("ask", { prompt: "hi" }, 5000).answer;
		const editor = asks.seen.received[0]?.editor;
		if (!editor) throw new Error("no ask received");
		editor.tell({ kind: "status", text: "pi: working (faux/m)", level: "working" });
		editor.tell({ kind: "reply", text: "# hello", streaming: true });
		// The handshake's `notifications/initialized` came first.
		const news = () => window.news.filter((each) => each.method !== "notifications/initialized");
		await waitFor("two news", () => news().length === 2);
		expect(news().map((each) => [each.peer, each.method, each.params])).toEqual([
			[peer, "pi/askNews", { kind: "status", text: "pi: working (faux/m)", level: "working" }],
			[peer, "pi/askNews", { kind: "reply", text: "# hello", streaming: true }],
		]);
		await links.close();
		expect(asks.seen.gone).toEqual([key]);
		expect(() => editor.tell({ kind: "status", text: "pi: done", level: "info" })).not.toThrow();
		await waitFor("the window saw pi go", () => window.gone.length === 1);
		expect(news()).toHaveLength(2);
	});

	test("what is not offered is refused: getSuggestions on an asks-only link, an ask on a suggestions-only one", async () => {
		const asksOnly = await linked({ suggestions: false, asks: true });
		await waitFor("offered", () => asksOnly.links.statusOf(key)?.includes("offered"));
		const suggest = await asksOnly.window.offers[0]?.peer.request("getSuggestions", {}, 5000).answer;
		expect(suggest).toEqual({
			ok: false,
			code: -32601,
			reason: "pi answered with an error: pi offers no inline completions on this connection",
		});
		expect(asksOnly.suggestions.seen.answered).toEqual([]);
		const suggestionsOnly = await linked({ suggestions: true, asks: false });
		await waitFor("offered", () => suggestionsOnly.links.statusOf(key)?.includes("offered"));
		const ask = await suggestionsOnly.window.offers[0]?.peer.request("ask", { prompt: "hi" }, 5000).answer;
		expect(ask).toEqual({
			ok: false,
			code: -32601,
			reason: "pi answered with an error: pi offers no asks on this connection",
		});
		expect(suggestionsOnly.asks.seen.received).toEqual([]);
	});

	test("suggestions off while asks are on: the same connection, offered again without them; on again: with them", async () => {
		const { window, suggestions, links } = await linked({ suggestions: true, asks: true });
		await waitFor("offered", () => links.statusOf(key)?.includes("inline completions: offered"));
		suggestions.set(false);
		await waitFor("offered again", () => window.offers.length === 2 && links.statusOf(key)?.startsWith("asks"));
		expect(window.offers[1]?.params).toEqual(offerOf({ suggestions: false, asks: true, connected: false }));
		expect(window.offers[1]?.peer).toBe(window.offers[0]?.peer);
		// What the window asked of the suggestions is abandoned; the asks carry on.
		expect(suggestions.seen.gone).toEqual([key]);
		suggestions.set(true);
		await waitFor("offered a third time", () => window.offers.length === 3);
		expect(window.offers[2]?.params).toEqual(offerOf({ suggestions: true, asks: true, connected: false }));
		expect(window.gone).toEqual([]);
	});

	test("pi connected to the window: offered again saying so, once however many updates", async () => {
		const { window, links, state, candidate } = await linked({ suggestions: false, asks: true });
		await waitFor("offered", () => links.statusOf(key)?.includes("offered"));
		state.candidates = [{ ...candidate, connected: true }];
		for (let round = 0; round < 10; round++) links.update();
		await waitFor("offered again", () => window.offers.length === 2);
		expect(window.offers[1]?.params).toEqual(offerOf({ suggestions: false, asks: true, connected: true }));
		links.update();
		state.candidates = [{ ...candidate, connected: false }];
		links.update();
		await waitFor("offered a third time", () => window.offers.length === 3);
		expect(window.offers[2]?.params).toEqual(offerOf({ suggestions: false, asks: true, connected: false }));
	});

	test("the window goes: the asks hear it under its key", async () => {
		const { window, asks, links } = await linked({ suggestions: false, asks: true });
		await waitFor("offered", () => links.statusOf(key)?.includes("offered"));
		window.close();
		await waitFor("the end noticed", () => links.statusOf(key)?.includes("not offered"));
		expect(asks.seen.gone).toEqual([key]);
		expect(links.statusOf(key)).toMatch(/^asks: not offered: /);
	});
});

describe("the state dir offers its VS Code clients asks", () => {
	async function dirWith(client: string, on: { suggestions: boolean; asks: boolean }) {
		const listening = await clientListening(cleanups, accept);
		const project = join(listening.dir, "proj");
		mkdirSync(project);
		const state = projectState(project, { pid: process.pid, client, app: "vscode", argv: [] });
		writeFileSync(join(listening.dir, `${process.pid}.json`), JSON.stringify(state), { mode: 0o600 });
		let connected: string | undefined;
		const source = new StateDir(
			{ path: listening.dir, role: "override" },
			uid,
			{ ...sourceHooks(), requests: suggestionsFeature(on.suggestions).requests, asks: asksFeature(on.asks).asks },
			testProcessFacts(),
			{ projectDir: () => project, connectedKey: () => connected, offer: OFFER },
		);
		cleanups.push(() => source.close());
		await source.start();
		return { source, listening, project, connect: (to: string | undefined) => (connected = to) };
	}

	test("a 0.6.0 client: offered asks as `VS Code <pid>`; pi's connection to it told by connectionChanged", async () => {
		const { source, listening, project, connect } = await dirWith("pi-ide-context-vscode/0.6.0", {
			suggestions: false,
			asks: true,
		});
		await waitFor("offered", () => source.files()[0]?.suggestions?.includes("asks: offered"));
		expect(listening.offers[0]?.params).toEqual({
			...OFFER,
			project,
			pid: process.pid,
			suggestions: false,
			asks: true,
			connected: false,
		});
		connect(key);
		await source.connectionChanged();
		await waitFor("offered again", () => listening.offers.length === 2);
		expect(listening.offers[1]?.params).toMatchObject({ connected: true });
		connect(undefined);
		await source.connectionChanged();
		await waitFor("offered a third time", () => listening.offers.length === 3);
		expect(listening.offers[2]?.params).toMatchObject({ connected: false });
	});

	test("a 0.5.0 client with asks on: linked for suggestions only, and /ide status says it cannot ask", async () => {
		const { source, listening } = await dirWith("pi-ide-context-vscode/0.5.0", { suggestions: true, asks: true });
		await waitFor("offered", () => source.files()[0]?.suggestions?.includes("offered"));
		expect(source.files()[0]?.suggestions).toBe(
			"inline completions: offered (VS Code asks pi as you type); asks: client 0.5.0 cannot ask pi (0.6.0 on can)",
		);
		expect(listening.offers[0]?.params).toMatchObject({ suggestions: true, asks: false });
	});

	test("a 0.5.0 client, asks on and suggestions off: no link, and the note", async () => {
		const { source, listening } = await dirWith("pi-ide-context-vscode/0.5.0", { suggestions: false, asks: true });
		expect(source.files()[0]?.suggestions).toBe("asks: client 0.5.0 cannot ask pi (0.6.0 on can)");
		expect(listening.offers).toEqual([]);
	});

	test("asks off and suggestions off: no link, no note", async () => {
		const { source, listening } = await dirWith("pi-ide-context-vscode/0.5.0", { suggestions: false, asks: false });
		expect(source.files()[0]?.suggestions).toBeUndefined();
		expect(listening.offers).toEqual([]);
	});
});
