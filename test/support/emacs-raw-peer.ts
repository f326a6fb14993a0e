import { createServer, type Socket } from "node:net";
import type { CleanupScope } from "./cleanup-scope.ts";

/** A socket standing in for pi's listener (push-listener.ts), told by the test when to read and to acknowledge. */
export interface RawPeer {
	/** Every line read, the token first. */
	readonly lines: string[];
	/** Each line's size in bytes, its newline included. */
	readonly sizes: number[];
	readonly sockets: Socket[];
	/** Stops reading, as a pi suspended with C-z: what Emacs sends waits in the socket, nothing is acknowledged. */
	stopReading(): void;
	/** Reads again, acknowledging every line after the token with one byte, as pi does. */
	startReading(): void;
}

/** Listens at `path`; reads and acknowledges as pi does when `acknowledge`, else reads and answers nothing. */
export async function rawPeer(path: string, scope: CleanupScope, acknowledge = false): Promise<RawPeer> {
	const lines: string[] = [];
	const sizes: number[] = [];
	const sockets: Socket[] = [];
	let acknowledging = acknowledge;
	const server = createServer((socket) => {
		sockets.push(socket);
		let pending = Buffer.alloc(0);
		socket.on("data", (data: Buffer) => {
			pending = Buffer.concat([pending, data]);
			let acknowledged = 0;
			for (let end = pending.indexOf(10); end >= 0; end = pending.indexOf(10)) {
				lines.push(pending.subarray(0, end).toString("utf8"));
				sizes.push(end + 1);
				pending = pending.subarray(end + 1);
				if (lines.length > 1) acknowledged++;
			}
			if (acknowledging && acknowledged > 0) socket.write(".".repeat(acknowledged));
		});
		socket.on("error", () => {});
	});
	await new Promise<void>((listening) => server.listen(path, listening));
	scope.defer(() => {
		for (const socket of sockets) socket.destroy();
		return new Promise((closed) => server.close(closed));
	});
	return {
		lines,
		sizes,
		sockets,
		stopReading: () => {
			for (const socket of sockets) socket.pause();
		},
		startReading: () => {
			acknowledging = true;
			for (const socket of sockets) socket.resume();
		},
	};
}
