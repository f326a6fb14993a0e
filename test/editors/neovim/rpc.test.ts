import type { Socket } from "node:net";
import { join } from "node:path";
import { encode } from "@msgpack/msgpack";
import { afterEach, describe, expect, test } from "vitest";
import { RpcConnection } from "../../../src/editors/neovim/rpc.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { CleanupScope } from "../../support/cleanup-scope.ts";
import { ManualClock } from "../../support/clocks.ts";
import { fakeRpcServer as fakeServer } from "../../support/fake-rpc-server.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { waitFor } from "../../support/wait-for.ts";

const open = async (path: string, clock = systemClock, notes: [string, unknown][] = []) => {
	const rpc = await RpcConnection.open(path, {
		clock,
		timeoutMs: 1000,
		onNotification: (method, params) => notes.push([method, params]),
	});
	if (typeof rpc === "string") throw new Error(rpc);
	return rpc;
};

describe("msgpack-RPC over a unix socket", () => {
	const scope = new CleanupScope();
	afterEach(() => scope.close());

	test("a request gets its own answer, however the bytes are split", async () => {
		const { path } = await fakeServer(scope, ([, id, method, params], socket) => {
			const bytes = encode([1, id, null, { method, params }]);
			// One byte at a time: the decoder must reassemble frames.
			for (const byte of bytes) socket.write(Uint8Array.of(byte));
		});
		const rpc = await open(path);
		scope.defer(() => rpc.close());
		const [a, b] = await Promise.all([rpc.request("one", [1], 1000), rpc.request("two", ["é"], 1000)]);
		expect(a).toEqual({ ok: true, value: { method: "one", params: [1] } });
		expect(b).toEqual({ ok: true, value: { method: "two", params: ["é"] } });
	});

	test("Neovim's error is the reason", async () => {
		const { path } = await fakeServer(scope, ([, id], socket) =>
			socket.write(encode([1, id, [0, "Invalid method"], null])),
		);
		const rpc = await open(path);
		scope.defer(() => rpc.close());
		expect(await rpc.request("x", [], 1000)).toEqual({ ok: false, reason: "Invalid method" });
	});

	test("no answer in time: a reason, and the late answer is dropped", async () => {
		const held: [number, Socket][] = [];
		const { path } = await fakeServer(scope, ([, id], socket) => held.push([id as number, socket]));
		const clock = new ManualClock();
		const rpc = await open(path, clock);
		scope.defer(() => rpc.close());
		const answer = rpc.request("slow", [], 500);
		await waitFor("the request to arrive", () => held.length === 1);
		clock.advance(500);
		expect(await answer).toEqual({ ok: false, reason: "no answer within 500 ms" });
		const [id, socket] = held[0] as [number, Socket];
		socket.write(encode([1, id, null, "late"]));
		// The next request still gets its own answer, not the late one.
		const next = rpc.request("next", [], 500);
		await waitFor("the second request", () => held.length === 2);
		const [id2, socket2] = held[1] as [number, Socket];
		socket2.write(encode([1, id2, null, "mine"]));
		expect(await next).toEqual({ ok: true, value: "mine" });
	});

	test("notifications reach the handler; a request from Neovim gets an error answer", async () => {
		const answers: unknown[] = [];
		const { path, clients } = await fakeServer(scope, (message) => answers.push(message));
		const notes: [string, unknown][] = [];
		const rpc = await open(path, systemClock, notes);
		scope.defer(() => rpc.close());
		await waitFor("the server to see the client", () => clients.length === 1);
		clients[0]?.write(encode([2, "pi_ide_state", [{ mode: "n" }]]));
		clients[0]?.write(encode([0, 7, "something", []]));
		await waitFor("the notification", () => notes.length === 1);
		expect(notes[0]).toEqual(["pi_ide_state", [{ mode: "n" }]]);
		await waitFor("pi's answer", () => answers.length === 1);
		expect(answers[0]).toEqual([1, 7, "pi-ide-context serves no requests", null]);
	});

	test("Neovim going away ends every waiting request and says so", async () => {
		const { path, clients } = await fakeServer(scope, () => {});
		const rpc = await open(path);
		const waiting = rpc.request("x", [], 5000);
		await waitFor("the server to see the client", () => clients.length === 1);
		clients[0]?.end();
		expect(await waiting).toEqual({ ok: false, reason: "Neovim closed the connection" });
		expect(await rpc.whenClosed()).toBe("Neovim closed the connection");
		expect(await rpc.request("after", [], 100)).toEqual({ ok: false, reason: "Neovim closed the connection" });
	});

	test("bytes that are not msgpack close the connection with the reason", async () => {
		const { path, clients } = await fakeServer(scope, () => {});
		const rpc = await open(path);
		await waitFor("the server to see the client", () => clients.length === 1);
		clients[0]?.write(Uint8Array.of(0xc1));
		expect(await rpc.whenClosed()).toMatch(/^unreadable message from Neovim/);
	});

	test("nothing listening: the reason, no throw", async () => {
		const dir = tempDir("rpc");
		scope.defer(dir.cleanup);
		const rpc = await RpcConnection.open(join(dir.path, "none"), {
			clock: systemClock,
			timeoutMs: 500,
			onNotification: () => {},
		});
		expect(rpc).toMatch(/^cannot connect: .*ENOENT/);
	});
});
