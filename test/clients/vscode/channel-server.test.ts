/**
 * The client's socket server (clients/vscode/src/channel-server.ts) on real unix sockets, without VS Code: where it
 * listens and with which mode, a stale socket replaced, removed on close; every bad line answered with a JSON-RPC
 * error and the server answering on; a handler that throws; an oversize line; a peer that goes; pi's
 * `pi/offerSuggestions` answered by the `offered` handler, the client's own requests to pi answered by pi, and
 * pi's notifications (an ask's news) handed to the `notified` handler, never answered.
 */
import { lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { type ChannelHandlers, type ChannelPeer, listenChannel } from "../../../clients/vscode/src/channel-server.ts";
import { textResult } from "../../../clients/vscode/src/core/channel-rpc.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const socketPath = () => {
	const dir = tempDir("channel-server");
	cleanups.push(dir.cleanup);
	return join(dir.path, "4242.sock");
};

const quiet: ChannelHandlers = { callTool: async () => ({ result: textResult("TAB_CLOSED") }), peerGone: () => {} };

async function listening(path: string, handlers: ChannelHandlers = quiet) {
	const started = await listenChannel(path, "0.4.0", handlers);
	if (!started.ok) throw new Error(started.reason);
	cleanups.push(started.close);
	return started;
}

/** A connection that collects every line the server sends, parsed. */
async function peer(
	path: string,
): Promise<{ socket: Socket; lines: Record<string, unknown>[]; send: (line: string) => void }> {
	const socket = connect({ path });
	cleanups.push(() => socket.destroy());
	await new Promise((connected) => socket.once("connect", connected));
	const lines: Record<string, unknown>[] = [];
	let buffered = "";
	socket.on("data", (chunk) => {
		buffered += chunk.toString("utf8");
		for (let at = buffered.indexOf("\n"); at !== -1; at = buffered.indexOf("\n")) {
			lines.push(JSON.parse(buffered.slice(0, at)));
			buffered = buffered.slice(at + 1);
		}
	});
	socket.on("error", () => {});
	return { socket, lines, send: (line) => socket.write(`${line}\n`) };
}

const request = (id: number, method: string, params?: unknown) =>
	JSON.stringify({ jsonrpc: "2.0", id, method, params });

describe("the client's socket", () => {
	test("listens 0600; a stale socket or file under its name is replaced; removed on close", async () => {
		const path = socketPath();
		writeFileSync(path, "left by a dead window");
		const started = await listening(path);
		expect(lstatSync(path).isSocket()).toBe(true);
		expect(lstatSync(path).mode & 0o777).toBe(0o600);
		started.close();
		expect(lstatSync(path, { throwIfNoEntry: false })).toBeUndefined();
	});

	test("a directory under its name: no channel, with why", async () => {
		const path = socketPath();
		mkdirSync(path);
		expect(await listenChannel(path, "0.4.0", quiet)).toEqual({ ok: false, reason: `${path} is a directory` });
	});

	test("initialize, ping and tools/list as the IDE servers answer them", async () => {
		const path = socketPath();
		await listening(path);
		const pi = await peer(path);
		pi.send(request(1, "initialize", { protocolVersion: "2024-11-05" }));
		pi.send(request(2, "ping"));
		pi.send(request(3, "tools/list"));
		pi.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
		await waitFor("three answers", () => pi.lines.length === 3);
		expect(pi.lines[0]).toMatchObject({
			id: 1,
			result: { serverInfo: { name: "pi-ide-context-vscode", version: "0.4.0" } },
		});
		expect(pi.lines[1]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
		expect((pi.lines[2]?.result as { tools: { name: string }[] } | undefined)?.tools.map((tool) => tool.name)).toEqual([
			"openDiff",
			"close_tab",
		]);
	});

	test("bad lines and throwing handlers get JSON-RPC errors; the server answers on", async () => {
		const path = socketPath();
		let calls = 0;
		await listening(path, {
			callTool: (_peer, call) => {
				calls++;
				if (call.tool === "close_tab" && call.tabName === "sync") throw new Error("boom");
				return Promise.reject(new Error("async boom"));
			},
			peerGone: () => {},
		});
		const pi = await peer(path);
		const lines = [
			"garbage",
			"[1,2]",
			'{"id":1,"method":"ping"}',
			request(2, "resources/list"),
			request(3, "tools/call", { name: "openDiff", arguments: { old_file_path: "relative" } }),
			request(4, "tools/call", { name: "close_tab", arguments: { tab_name: "sync" } }),
			request(5, "tools/call", { name: "close_tab", arguments: { tab_name: "async" } }),
			request(6, "ping"),
		];
		for (const line of lines) pi.send(line);
		pi.socket.write(Buffer.from([0xff, 0x0a]));
		await waitFor("every answer", () => pi.lines.length === 9);
		const byId = (id: unknown) => pi.lines.find((line) => line.id === id);
		const unplaced = pi.lines.filter((line) => line.id === null).map((line) => (line.error as { code: number }).code);
		expect(unplaced.sort()).toEqual([-32600, -32700, -32700]);
		expect(byId(1)).toMatchObject({ error: { code: -32600, message: 'jsonrpc is not "2.0"' } });
		expect(byId(2)).toMatchObject({ error: { code: -32601, message: "no method resources/list" } });
		expect(byId(3)).toMatchObject({
			error: { code: -32602, message: "openDiff needs old_file_path (an absolute path)" },
		});
		expect(byId(4)).toMatchObject({ error: { code: -32603, message: "Error: boom" } });
		expect(byId(5)).toMatchObject({ error: { code: -32603, message: "Error: async boom" } });
		expect(byId(6)).toEqual({ jsonrpc: "2.0", id: 6, result: {} });
		expect(calls).toBe(2);
	});

	test("a line over 16 MiB: an error, then the connection closes; the server takes the next one", async () => {
		const path = socketPath();
		let gone = 0;
		await listening(path, { ...quiet, peerGone: () => gone++ });
		const pi = await peer(path);
		const closed = new Promise((done) => pi.socket.once("close", done));
		pi.socket.write("x".repeat(16 * 1024 * 1024 + 1));
		await closed;
		expect(pi.lines).toEqual([
			{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "a message over the 16 MiB limit: closing" } },
		]);
		await waitFor("the peer gone", () => gone === 1);
		const next = await peer(path);
		next.send(request(1, "ping"));
		await waitFor("an answer", () => next.lines.length === 1);
	});

	test("notifications go to the peer that asked; its going is told once", async () => {
		const path = socketPath();
		const gone: number[] = [];
		await listening(path, {
			callTool: async (asker) => {
				asker.notify("pi/diffShown", { tab_name: "t" });
				return { result: textResult("TAB_CLOSED") };
			},
			peerGone: (which) => gone.push(which.id),
		});
		const [a, b] = [await peer(path), await peer(path)];
		a.send(request(1, "tools/call", { name: "close_tab", arguments: { tab_name: "t" } }));
		await waitFor("a's two lines", () => a.lines.length === 2);
		expect(a.lines[0]).toEqual({ jsonrpc: "2.0", method: "pi/diffShown", params: { tab_name: "t" } });
		expect(b.lines).toEqual([]);
		a.socket.destroy();
		await waitFor("a gone", () => gone.length === 1);
		expect(gone).toHaveLength(1);
	});
});

describe("pi's notifications on the client's socket", () => {
	test("each reaches notified with its peer, in order, unanswered; a handler that throws changes nothing", async () => {
		const path = socketPath();
		const seen: [number, string, unknown][] = [];
		await listening(path, {
			...quiet,
			notified: (from, method, params) => {
				seen.push([from.id, method, params]);
				if (method === "boom") throw new Error("boom");
			},
		});
		const pi = await peer(path);
		const news = { kind: "status", text: "pi: working (faux/m)", level: "working" };
		pi.send(JSON.stringify({ jsonrpc: "2.0", method: "pi/askNews", params: news }));
		pi.send(JSON.stringify({ jsonrpc: "2.0", method: "boom" }));
		pi.send(
			JSON.stringify({ jsonrpc: "2.0", method: "pi/askNews", params: { kind: "reply", text: "", streaming: true } }),
		);
		pi.send(request(1, "ping"));
		await waitFor("the ping answered", () => pi.lines.length === 1);
		expect(pi.lines).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
		const id = seen[0]?.[0];
		expect(seen).toEqual([
			[id, "pi/askNews", news],
			[id, "boom", undefined],
			[id, "pi/askNews", { kind: "reply", text: "", streaming: true }],
		]);
	});

	test("no notified handler: notifications are ignored", async () => {
		const path = socketPath();
		await listening(path);
		const pi = await peer(path);
		pi.send(JSON.stringify({ jsonrpc: "2.0", method: "pi/askNews", params: {} }));
		pi.send(request(1, "ping"));
		await waitFor("the ping answered", () => pi.lines.length === 1);
		expect(pi.lines).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
	});
});

describe("inline completions on the client's socket", () => {
	const offer = { project: "/p", pid: 77, debounceMs: 300, timeoutMs: 32_000, secretFiles: [] };

	/** A server whose `offered` hands each offering peer to the test, and a pi that offered itself on it. */
	async function offeredOn(path: string, gone: ChannelPeer[] = []) {
		const offered: ChannelPeer[] = [];
		await listening(path, {
			...quiet,
			offered: (asker) => {
				offered.push(asker);
				return { result: { accepted: true } };
			},
			peerGone: (which) => gone.push(which),
		});
		const pi = await peer(path);
		pi.send(request(1, "pi/offerSuggestions", offer));
		await waitFor("the offer answered", () => pi.lines.length === 1);
		const asker = offered[0];
		if (!asker) throw new Error("no peer offered");
		return { pi, asker };
	}

	test("pi/offerSuggestions is answered with the offered handler's outcome: a result or an error", async () => {
		const path = socketPath();
		const seen: { peer: number; params: unknown }[] = [];
		await listening(path, {
			...quiet,
			offered: (asker, params) => {
				seen.push({ peer: asker.id, params });
				return (params as { pid?: unknown }).pid === 77
					? { result: { accepted: true } }
					: { code: -32602, message: "the offer's pid is no pid" };
			},
		});
		const pi = await peer(path);
		pi.send(request(1, "pi/offerSuggestions", offer));
		pi.send(JSON.stringify({ jsonrpc: "2.0", id: "two", method: "pi/offerSuggestions", params: { ...offer, pid: 0 } }));
		await waitFor("two answers", () => pi.lines.length === 2);
		expect(pi.lines).toEqual([
			{ jsonrpc: "2.0", id: 1, result: { accepted: true } },
			{ jsonrpc: "2.0", id: "two", error: { code: -32602, message: "the offer's pid is no pid" } },
		]);
		expect(seen.map((call) => call.params)).toEqual([offer, { ...offer, pid: 0 }]);
		expect(new Set(seen.map((call) => call.peer)).size).toBe(1);
	});

	test("no offered handler: method not found", async () => {
		const path = socketPath();
		await listening(path);
		const pi = await peer(path);
		pi.send(request(1, "pi/offerSuggestions", offer));
		await waitFor("an answer", () => pi.lines.length === 1);
		expect(pi.lines[0]).toEqual({
			jsonrpc: "2.0",
			id: 1,
			error: { code: -32601, message: "no method pi/offerSuggestions" },
		});
	});

	test("an offered handler that throws: an internal error, and the server answers on", async () => {
		const path = socketPath();
		await listening(path, {
			...quiet,
			offered: () => {
				throw new Error("boom");
			},
		});
		const pi = await peer(path);
		pi.send(request(1, "pi/offerSuggestions", offer));
		pi.send(request(2, "ping"));
		await waitFor("two answers", () => pi.lines.length === 2);
		expect(pi.lines.find((line) => line.id === 1)).toEqual({
			jsonrpc: "2.0",
			id: 1,
			error: { code: -32603, message: "Error: boom" },
		});
		expect(pi.lines.find((line) => line.id === 2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
	});

	test("peer.request reaches pi as a request; pi's result and pi's error settle the answers by id", async () => {
		const path = socketPath();
		const { pi, asker } = await offeredOn(path);
		const params = {
			filePath: "/p/a.ts",
			language: "typescript",
			cursorBefore: "x",
			cursorAfter: "",
			suggestionCount: 3,
		};
		const first = asker.request("getSuggestions", params, 5000);
		const second = asker.request("getSuggestions", { ...params, suggestionCount: 1 }, 5000);
		expect(second.id).toBe(first.id + 1);
		await waitFor("two requests", () => pi.lines.length === 3);
		expect(pi.lines.slice(1)).toEqual([
			{ jsonrpc: "2.0", id: first.id, method: "getSuggestions", params },
			{ jsonrpc: "2.0", id: second.id, method: "getSuggestions", params: { ...params, suggestionCount: 1 } },
		]);
		// Answered out of order, and one to an id never asked, which gets nothing back.
		pi.send(JSON.stringify({ jsonrpc: "2.0", id: second.id, error: { code: -32800, message: "request cancelled" } }));
		pi.send(JSON.stringify({ jsonrpc: "2.0", id: 999, result: { suggestions: ["stray"] } }));
		pi.send(JSON.stringify({ jsonrpc: "2.0", id: first.id, result: { suggestions: ["a", "b"] } }));
		expect(await first.answer).toEqual({ ok: true, result: { suggestions: ["a", "b"] } });
		expect(await second.answer).toEqual({
			ok: false,
			code: -32800,
			reason: "pi answered with an error: request cancelled",
		});
		pi.send(request(2, "ping"));
		await waitFor("the ping answered", () => pi.lines.length === 4);
		expect(pi.lines[3]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
	});

	test("the socket closing ends a pending answer and tells peerGone; a later request ends at once", async () => {
		const path = socketPath();
		const gone: ChannelPeer[] = [];
		const { pi, asker } = await offeredOn(path, gone);
		const pending = asker.request("getSuggestions", {}, 60_000);
		await waitFor("the request", () => pi.lines.length === 2);
		pi.socket.destroy();
		expect(await pending.answer).toEqual({ ok: false, reason: "pi's connection ended" });
		await waitFor("the peer gone", () => gone.length === 1);
		expect(gone).toEqual([asker]);
		expect(await asker.request("getSuggestions", {}, 60_000).answer).toEqual({
			ok: false,
			reason: "pi's connection ended",
		});
	});
});
