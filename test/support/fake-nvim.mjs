// A hostile stand-in for Neovim: a process named `nvim` (process.title sets its comm) serving msgpack-RPC on
// a unix socket, answering the state request as `mode` says. Usage: node fake-nvim.mjs <socket> <mode>.
// (The test harness's fake; the sleep is its own poll for the release file, never pi's.)
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { decodeMultiStream, encode } from "@msgpack/msgpack";

process.title = "nvim";
const [socketPath, mode] = process.argv.slice(2);
const state = {
	cwd: process.cwd(),
	argv: ["nvim"],
	ui: true,
	mode: "n",
	unsaved: [],
	buffer: {
		file: `${process.cwd()}/main.ts`,
		language: "typescript",
		cursor: { line: 1, column: 1 },
		modified: false,
		lines_total: 3,
		autoread: true,
		diagnostics: [],
	},
};
const answers = {
	"bad-state": { ...state, cwd: "relative/dir" },
	"lua-error": { error: "E5108: Error executing lua: boom" },
	huge: { ...state, buffer: { ...state.buffer, file: `/${"x".repeat(5_000_000)}` } },
	"huge-selection": {
		...state,
		selection: {
			start: { line: 1, column: 1 },
			end: { line: 1, column: 200_000 },
			text: "x".repeat(200_000),
			visual: false,
			linewise: false,
		},
	},
	escapes: { ...state, buffer: { ...state.buffer, file: `${process.cwd()}/\u001b]0;pwned\u0007evil.ts` } },
};
const server = createServer((socket) => {
	socket.on("error", () => {});
	if (mode === "garbage-bytes") {
		socket.write(Buffer.from([0xc1, 0xc1, 0xff, 0x00]));
		return;
	}
	void (async () => {
		try {
			for await (const message of decodeMultiStream(socket)) {
				const [, id, method, params] = message;
				if (mode === "silent") continue;
				let result = null;
				if (method === "nvim_get_mode") result = { mode: "n", blocking: false };
				else if (method === "nvim_exec_lua") {
					const code = params[0];
					if (code.startsWith("local token")) result = 1;
					else if (code.includes("return state(nil)")) {
						// `held`: the state is answered once the test releases it (`<socket>.release`), so that it can
						// look at pi while a connection is still opening.
						if (mode === "held") {
							writeFileSync(`${socketPath}.asked`, "");
							while (!existsSync(`${socketPath}.release`)) await sleep(5);
						}
						result = answers[mode] ?? state;
					}
				}
				socket.write(encode([1, id, null, result]));
			}
		} catch {
			// pi went away.
		}
	})();
});
server.listen(socketPath);
