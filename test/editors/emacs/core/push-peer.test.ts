import { describe, expect, test } from "vitest";
import { Peer } from "../../../../src/editors/emacs/core/push-peer.ts";

function peerWithRecord() {
	const record = { messages: [] as unknown[], closed: [] as string[], forgotten: [] as string[], destroyed: 0 };
	const peer = new Peer(
		"token",
		{ message: (value) => record.messages.push(value), closed: (reason) => record.closed.push(reason) },
		(token) => record.forgotten.push(token),
	);
	const socket = {
		destroy: () => {
			record.destroyed++;
		},
	};
	return { peer, record, socket };
}

describe("one Emacs pi expects on its push socket", () => {
	test("connected once attached; each JSON line is a message, any other line only counted", async () => {
		const { peer, record, socket } = peerWithRecord();
		expect(peer.connected).toBe(false);
		peer.attach(socket);
		await expect(peer.whenConnected).resolves.toBe(true);
		peer.line(Buffer.from('{"a":1}'));
		peer.line(Buffer.from("not json"));
		expect(record.messages).toEqual([{ a: 1 }]);
		expect(peer.ignoredLines).toBe(1);
	});

	test("ended by Emacs's side: told once, the token forgotten, the connection destroyed", () => {
		const { peer, record, socket } = peerWithRecord();
		peer.attach(socket);
		peer.ended("Emacs closed the connection");
		peer.ended("again");
		peer.close();
		expect(record).toMatchObject({ closed: ["Emacs closed the connection"], forgotten: ["token"], destroyed: 1 });
		expect({ open: peer.open, connected: peer.connected }).toEqual({ open: false, connected: false });
	});

	test("closed by pi before it connected: not connected, nothing told", async () => {
		const { peer, record } = peerWithRecord();
		peer.close();
		await expect(peer.whenConnected).resolves.toBe(false);
		expect(record).toMatchObject({ closed: [], forgotten: ["token"], destroyed: 0 });
	});
});
