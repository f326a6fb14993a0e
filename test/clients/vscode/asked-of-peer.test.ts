/**
 * The client's own requests to one pi (clients/vscode/src/asked-of-peer.ts), with a send that records each message
 * and fake timers: ids counted up, the JSON-RPC request sent, pi's answer settling its request once, a timeout,
 * every pending request ended with the connection (and each later one at once), and a 65th pending one refused.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { AskedOfPeer } from "../../../clients/vscode/src/asked-of-peer.ts";
import type { PeerAnswer } from "../../../clients/vscode/src/core/channel-rpc.ts";

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

const make = () => {
	const sent: unknown[] = [];
	return { asked: new AskedOfPeer((message) => sent.push(message)), sent };
};

/** What an answer settled to so far: undefined while it is pending. */
function watched(answer: Promise<PeerAnswer>): () => PeerAnswer | undefined {
	let settled: PeerAnswer | undefined;
	void answer.then((value) => {
		settled = value;
	});
	return () => settled;
}

/** Lets the answers' `then`s run. */
const flush = () => vi.advanceTimersByTimeAsync(0);

describe("the client's requests to one pi", () => {
	test("ids count up from 1; each is sent as a JSON-RPC request", () => {
		const { asked, sent } = make();
		const params = { filePath: "/p/a.ts", suggestionCount: 1 };
		expect(asked.request("getSuggestions", params, 1000).id).toBe(1);
		expect(asked.request("getSuggestions", { n: 2 }, 1000).id).toBe(2);
		expect(asked.request("other", undefined, 1000).id).toBe(3);
		expect(sent).toEqual([
			{ jsonrpc: "2.0", id: 1, method: "getSuggestions", params },
			{ jsonrpc: "2.0", id: 2, method: "getSuggestions", params: { n: 2 } },
			{ jsonrpc: "2.0", id: 3, method: "other", params: undefined },
		]);
	});

	test("pi's answer settles its request, once; a second answer or one to an unknown id is dropped", async () => {
		const { asked } = make();
		const first = asked.request("getSuggestions", {}, 1000);
		const second = asked.request("getSuggestions", {}, 1000);
		const firstSeen = watched(first.answer);
		const secondSeen = watched(second.answer);
		asked.settle(99, { ok: true, result: "to nothing" });
		asked.settle(second.id, { ok: true, result: { suggestions: ["b"] } });
		asked.settle(second.id, { ok: true, result: { suggestions: ["again"] } });
		await flush();
		expect(firstSeen()).toBeUndefined();
		expect(secondSeen()).toEqual({ ok: true, result: { suggestions: ["b"] } });
		asked.settle(first.id, { ok: false, code: -32800, reason: "pi answered with an error: request cancelled" });
		await flush();
		expect(firstSeen()).toEqual({ ok: false, code: -32800, reason: "pi answered with an error: request cancelled" });
		expect(secondSeen()).toEqual({ ok: true, result: { suggestions: ["b"] } });
	});

	test("an answer clears its timer: no timeout follows it", async () => {
		const { asked } = make();
		const { id, answer } = asked.request("getSuggestions", {}, 1000);
		expect(vi.getTimerCount()).toBe(1);
		asked.settle(id, { ok: true, result: 1 });
		expect(vi.getTimerCount()).toBe(0);
		await vi.advanceTimersByTimeAsync(5000);
		expect(await answer).toEqual({ ok: true, result: 1 });
	});

	test("no answer within timeoutMs: given up with why; pi's late answer is dropped", async () => {
		const { asked } = make();
		const { id, answer } = asked.request("getSuggestions", {}, 500);
		const seen = watched(answer);
		await vi.advanceTimersByTimeAsync(499);
		expect(seen()).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		expect(seen()).toEqual({ ok: false, reason: "no answer within 500 ms" });
		asked.settle(id, { ok: true, result: "late" });
		await flush();
		expect(seen()).toEqual({ ok: false, reason: "no answer within 500 ms" });
	});

	test("each request times out on its own timeoutMs", async () => {
		const { asked } = make();
		const short = watched(asked.request("getSuggestions", {}, 100).answer);
		const long = watched(asked.request("getSuggestions", {}, 300).answer);
		await vi.advanceTimersByTimeAsync(100);
		expect(short()).toEqual({ ok: false, reason: "no answer within 100 ms" });
		expect(long()).toBeUndefined();
		await vi.advanceTimersByTimeAsync(200);
		expect(long()).toEqual({ ok: false, reason: "no answer within 300 ms" });
	});

	test("endAll ends every pending request with its reason; a later one ends at once, unsent", async () => {
		const { asked, sent } = make();
		const a = asked.request("getSuggestions", {}, 1000);
		const b = asked.request("getSuggestions", {}, 1000);
		asked.endAll("pi's connection ended");
		expect(vi.getTimerCount()).toBe(0);
		expect(await a.answer).toEqual({ ok: false, reason: "pi's connection ended" });
		expect(await b.answer).toEqual({ ok: false, reason: "pi's connection ended" });
		asked.settle(a.id, { ok: true, result: "late" });
		const later = asked.request("getSuggestions", {}, 1000);
		expect(later.id).toBe(3);
		expect(await later.answer).toEqual({ ok: false, reason: "pi's connection ended" });
		expect(vi.getTimerCount()).toBe(0);
		expect(sent).toHaveLength(2);
	});

	test("64 pending at most: the 65th is refused at once, unsent; once one is answered there is room again", async () => {
		const { asked, sent } = make();
		const pending = Array.from({ length: 64 }, () => asked.request("getSuggestions", {}, 60_000));
		const refused = asked.request("getSuggestions", {}, 60_000);
		expect(refused.id).toBe(65);
		expect(await refused.answer).toEqual({ ok: false, reason: "64 requests unanswered" });
		expect(sent).toHaveLength(64);
		expect(vi.getTimerCount()).toBe(64);
		asked.settle(pending[0]?.id ?? 0, { ok: true, result: null });
		const next = asked.request("getSuggestions", {}, 60_000);
		expect(sent).toHaveLength(65);
		expect(sent.at(-1)).toEqual({ jsonrpc: "2.0", id: next.id, method: "getSuggestions", params: {} });
		const seen = watched(next.answer);
		await flush();
		expect(seen()).toBeUndefined();
		await vi.advanceTimersByTimeAsync(60_000);
		expect(seen()).toEqual({ ok: false, reason: "no answer within 60000 ms" });
	});
});
