import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { EMACS_ELISP_CHUNKS } from "../../src/editors/emacs/core/elisp/push-elisp.ts";
import { quoteArgument, unquoteAsServer } from "../../src/editors/emacs/core/server-protocol.ts";
import type { EmacsSnapshot } from "../../src/editors/emacs/core/snapshot.ts";

/** A snapshot as pi's elisp pushes one: the cursor on `line` of `file`. */
export const fakeSnapshot = (file: string, line: number): EmacsSnapshot => ({
	file,
	mode: "python-mode",
	cursor: { line, column: 1 },
	modified: false,
	lines_total: 40,
	region: null,
	diagnostics: [],
	unsaved: [],
	project_root: null,
	minibuffer: false,
	frames: 1,
});

interface Held {
	release: () => void;
	promise: Promise<void>;
}

/**
 * Not Emacs: a unix socket speaking the server's protocol for pi's chunks only (which one, told by its text),
 * for the orders a real Emacs cannot be made to show at will. The probe answers as `pid`; the install connects
 * back to pi's push socket with the token, and `push` then sends a state over it; the read answers `state`.
 * A chunk `hold`s until released: a slow probe, a slow read.
 */
export class FakeEmacsServer {
	/** The chunks asked, by name (`PROBE_ELISP`), in the order their requests came. */
	readonly asked: string[] = [];
	state: EmacsSnapshot;
	private readonly holds = new Map<string, Held>();
	private readonly pushConnections: Socket[] = [];

	private constructor(
		private readonly server: Server,
		readonly socket: string,
		readonly pid: number,
		file: string,
	) {
		this.state = fakeSnapshot(file, 1);
	}

	static async start(dir: string, pid: number, file: string): Promise<FakeEmacsServer> {
		const socket = join(dir, "server");
		const server = createServer();
		await new Promise<void>((listening) => server.listen(socket, listening));
		const fake = new FakeEmacsServer(server, socket, pid, file);
		server.on("connection", (connection) => fake.serve(connection));
		return fake;
	}

	/** Requests of that chunk wait until the returned function is called. */
	hold(chunk: string): () => void {
		let release = () => {};
		const promise = new Promise<void>((done) => {
			release = done;
		});
		const held = { release, promise };
		this.holds.set(chunk, held);
		return () => {
			if (this.holds.get(chunk) === held) this.holds.delete(chunk);
			release();
		};
	}

	/** A state over every push connection an install made, as the elisp's timer sends it. */
	push(state: EmacsSnapshot): void {
		for (const connection of this.pushConnections) connection.write(`${JSON.stringify({ kind: "state", state })}\n`);
	}

	count(chunk: string): number {
		return this.asked.filter((name) => name === chunk).length;
	}

	async close(): Promise<void> {
		for (const connection of this.pushConnections) connection.destroy();
		await new Promise((closed) => this.server.close(closed));
	}

	private serve(connection: Socket): void {
		connection.on("error", () => {});
		let text = "";
		connection.on("data", (data) => {
			text += data.toString("latin1");
			if (!text.endsWith(" \n")) return;
			void this.answer(connection, text);
		});
	}

	private async answer(connection: Socket, line: string): Promise<void> {
		const request = /^-eval (\S+) \n$/.exec(line);
		const call = request && /^\(funcall ([\s\S]*) "([A-Za-z0-9+/=]*)"\)$/.exec(unquoteAsServer(request[1] as string));
		const chunk = call && Object.entries(EMACS_ELISP_CHUNKS).find(([, elisp]) => elisp === call[1])?.[0];
		if (!call || !chunk) {
			connection.end(`-error ${quoteArgument("not one of pi's chunks")}`);
			return;
		}
		this.asked.push(chunk);
		const args = JSON.parse(Buffer.from(call[2] as string, "base64").toString("utf8")) as Record<string, unknown>;
		await this.holds.get(chunk)?.promise;
		const value = await this.valueOf(chunk, args);
		const printed = `"${Buffer.from(JSON.stringify(value), "utf8").toString("base64")}"`;
		connection.end(`-emacs-pid ${this.pid}\n-print ${quoteArgument(printed)}\n`);
	}

	private async valueOf(chunk: string, args: Record<string, unknown>): Promise<unknown> {
		switch (chunk) {
			case "PROBE_ELISP":
				return { pid: this.pid, version: "28.2", daemon: false, frames: 1, args };
			case "INSTALL_ELISP": {
				const back = connect(String(args.socket));
				back.on("error", () => {});
				await new Promise((connected) => back.once("connect", connected));
				back.write(`${String(args.token)}\n`);
				this.pushConnections.push(back);
				return { ok: true };
			}
			case "STATE_ELISP":
				return this.state;
			case "SET_PUSHING_ELISP":
				return { ok: true };
			default:
				return { error: `the fake does not answer ${chunk}` };
		}
	}
}
