import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { decodeMultiStream } from "@msgpack/msgpack";
import type { CleanupScope } from "./cleanup-scope.ts";
import { tempDir } from "./temp-dir.ts";

/** An in-process msgpack-RPC server: each test says how it answers a request. */
export async function fakeRpcServer(
	scope: CleanupScope,
	answer: (message: unknown[], socket: Socket) => void,
): Promise<{ path: string; clients: Socket[]; server: Server }> {
	const dir = tempDir("rpc-server");
	scope.defer(dir.cleanup);
	const path = join(dir.path, "nvim.1.0");
	const clients: Socket[] = [];
	const server = createServer((socket) => {
		clients.push(socket);
		socket.on("error", () => {});
		void (async () => {
			try {
				for await (const message of decodeMultiStream(socket)) answer(message as unknown[], socket);
			} catch {
				// The client went away.
			}
		})();
	});
	await new Promise<void>((done) => server.listen(path, done));
	scope.defer(
		() =>
			new Promise<void>((done) => {
				for (const client of clients) client.destroy();
				server.close(() => done());
			}),
	);
	return { path, clients, server };
}
