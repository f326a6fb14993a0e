import { afterEach, describe, expect, test } from "vitest";
import type { EditorRequest, EditorRequestAnswer, EditorRequests } from "../../../src/editors/editor-source.ts";
import type { IdeServerSource } from "../../../src/editors/ide-servers/source.ts";
import { waitFor } from "../../support/wait-for.ts";
import { SourceHarness } from "./source-harness.ts";

/** An answerer that records what it was handed and answers as the test says. */
function recordingRequests(answer: (request: EditorRequest) => EditorRequestAnswer, wanted = true) {
	const seen = {
		asked: [] as { key: string; request: EditorRequest }[],
		cancelled: [] as unknown[],
		gone: [] as string[],
	};
	const requests: EditorRequests = {
		wanted: () => wanted,
		ownEditors: () => false,
		onStandingChange: () => () => {},
		answer: async (key, request) => {
			seen.asked.push({ key, request });
			return answer(request);
		},
		cancelled: (key, id) => seen.cancelled.push({ key, id }),
		gone: (key) => seen.gone.push(key),
	};
	return { requests, seen };
}

const ASK = { filePath: "/p/src/a.ts", cursorBefore: "const a = ", cursorAfter: ";\n" };
const statusOf = (source: IdeServerSource) => source.statusLines(Date.now() / 1000, "/p").join("\n");

describe("an editor's own requests over its IDE server", () => {
	let h: SourceHarness;
	afterEach(() => h.close());

	test("the connected server's getSuggestions reaches the answerer under its key; its cancel and its close too", async () => {
		h = new SourceHarness();
		const { requests, seen } = recordingRequests(() => ({ result: { suggestions: ["1"] } }));
		const server = await h.server("pi-ide-nvim");
		const source = await h.source({ requests });
		await h.connect(source);
		const asked = await server.askFirstClient("getSuggestions", ASK);
		expect(asked.answer).toMatchObject({ jsonrpc: "2.0", id: asked.id, result: { suggestions: ["1"] } });
		expect(seen.asked).toEqual([
			{ key: SourceHarness.KEY, request: { id: asked.id, method: "getSuggestions", params: ASK } },
		]);
		server.notifyClients("request_cancelled", { id: 41 });
		await waitFor("the cancel handed on", () => seen.cancelled.length > 0);
		expect(seen.cancelled).toEqual([{ key: SourceHarness.KEY, id: 41 }]);
		server.closeClients(1001);
		await waitFor("the close handed on", () => seen.gone.length > 0);
		expect(seen.gone).toEqual([SourceHarness.KEY]);
	});

	test("an error answer goes back as a JSON-RPC error; with no answerer a request is 'method not found'", async () => {
		h = new SourceHarness();
		const { requests } = recordingRequests(() => ({ error: { code: -32800, message: "cancelled" } }));
		const server = await h.server("pi-ide-nvim");
		await h.connect(await h.source({ requests }));
		expect((await server.askFirstClient("getSuggestions", ASK)).answer?.error).toEqual({
			code: -32800,
			message: "cancelled",
		});
		await h.close();

		h = new SourceHarness();
		const plain = await h.server("pi-ide-nvim");
		await h.connect(await h.source());
		const refused = await plain.askFirstClient("getSuggestions", ASK);
		expect(refused.answer?.error).toEqual({ code: -32601, message: "pi does not serve getSuggestions" });
		// ping is still answered by the connection itself.
		expect(await plain.pingClients()).toEqual([true]);
	});

	test("a pi-ide.nvim server of an editor another source reads: a connection only to be asked, while wanted", async () => {
		h = new SourceHarness();
		h.claimed.set(SourceHarness.KEY, "nvim 4242 (its own server)");
		const { requests, seen } = recordingRequests(() => ({ result: { suggestions: ["x"] } }));
		const server = await h.server("pi-ide-nvim");
		const source = await h.source({ requests });
		await waitFor("the connection to be asked", () => server.openClients === 1);
		await waitFor("it is open", () =>
			statusOf(source).includes("its requests answered over a connection of their own"),
		);
		expect(statusOf(source)).toContain("the same editor as nvim 4242 (its own server)");
		// Listed nowhere, connected to by no follow: the same editor is Neovim's.
		expect(source.editors()).toEqual([]);
		const asked = await server.askFirstClient("getSuggestions", ASK);
		expect(asked.answer?.result).toEqual({ suggestions: ["x"] });
		expect(seen.asked.map((each) => each.key)).toEqual([SourceHarness.KEY]);
		// It asked no tool (no state, no review taken from it): the handshake only.
		const methods = server.received.map((each) => (each.message as { method?: string }).method).filter(Boolean);
		expect(methods).toEqual(["initialize", "notifications/initialized", "tools/list", "ide_connected"]);
	});

	test("not wanted (suggestions off): no connection to a claimed server; a Claude lock dir's server is never asked", async () => {
		h = new SourceHarness();
		h.claimed.set(SourceHarness.KEY, "nvim 4242 (its own server)");
		const off = recordingRequests(() => ({ result: { suggestions: [] } }), false);
		const pis = await h.server("pi-ide-nvim");
		const claudes = await h.server("claudecode-nvim");
		const source = await h.source({ requests: off.requests });
		await source.recheck();
		expect(pis.upgrades).toEqual([]);
		expect(claudes.upgrades).toEqual([]);
		expect(statusOf(source)).not.toContain("connection of their own");
	});
});
