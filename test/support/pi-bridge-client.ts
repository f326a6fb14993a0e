import { createHash } from "node:crypto";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { waitFor } from "./wait-for.ts";

/** Where pi-bridge.nvim looks for a pi working in `cwd` (its `resolve.lua`: sha256 of the path, 16 hex). */
export function pluginSocketPath(home: string, cwd: string): string {
	const hash = createHash("sha256").update(cwd).digest("hex").slice(0, 16);
	return join(home, ".pi", "agent", "pi-bridge", "sockets", `${hash}.sock`);
}

/** One message pi sent the plugin, with when it arrived. */
export interface PluginReceived {
	type: string;
	atMs: number;
	[field: string]: unknown;
}

/**
 * pi-bridge.nvim's side of the socket, as its Lua source behaves: one long-lived connection, `mirror_ready` and
 * the prompt written together, an `approval_ack` at once for every `approval_request` (before its picker), one
 * picker at a time (a second request while one is open is ignored), answers as the test says.
 */
export class PluginClient {
	readonly received: PluginReceived[] = [];
	private buffer = "";
	private closedNow = false;
	/** The approval its picker shows, if one. */
	private openApproval?: string;

	private constructor(private readonly socket: Socket) {
		socket.setEncoding("utf8");
		socket.on("data", (chunk: string) => {
			this.buffer += chunk;
			for (let newline = this.buffer.indexOf("\n"); newline >= 0; newline = this.buffer.indexOf("\n")) {
				const line = this.buffer.slice(0, newline);
				this.buffer = this.buffer.slice(newline + 1);
				if (line.trim()) this.take(JSON.parse(line) as { type: string; [field: string]: unknown });
			}
		});
		socket.on("error", () => {});
		socket.on("close", () => {
			this.closedNow = true;
		});
	}

	/** Connects within the plugin's 1 s, and says `mirror_ready` (unless `silent`: a probe). */
	static async connect(path: string, options: { mirrorReady?: boolean } = {}): Promise<PluginClient> {
		const socket = connect(path);
		await new Promise<void>((connected, failed) => {
			const timer = setTimeout(() => failed(new Error(`no connection to ${path} within 1 s`)), 1000);
			socket.once("connect", () => {
				clearTimeout(timer);
				connected();
			});
			socket.once("error", (error) => {
				clearTimeout(timer);
				failed(error);
			});
		});
		const client = new PluginClient(socket);
		if (options.mirrorReady !== false) client.send({ type: "mirror_ready" });
		return client;
	}

	get closed(): boolean {
		return this.closedNow;
	}

	send(...messages: Record<string, unknown>[]): void {
		this.socket.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
	}

	/** The plugin's `:PiBridge` prompt: `mirror_ready` and the prompt in one write, as it does on a new connection. */
	prompt(text: string, context: Record<string, unknown>): void {
		this.send({ type: "mirror_ready" }, { type: "prompt", text, context });
	}

	writeRaw(text: string): void {
		this.socket.write(text);
	}

	of(type: string): PluginReceived[] {
		return this.received.filter((message) => message.type === type);
	}

	/** The `count`-th message of that type (from 1), once it arrived. */
	waitFor(type: string, count = 1, timeoutMs = 20_000): Promise<PluginReceived> {
		return waitFor(`the plugin's ${type} #${count}`, () => this.of(type).at(count - 1), timeoutMs);
	}

	/** Answers the approval its picker shows: `yes`, `all` or `no` (Esc sends `no`). */
	decide(decision: "yes" | "all" | "no"): void {
		if (this.openApproval === undefined) throw new Error("no approval is open in the plugin");
		this.send({ type: "approval_response", id: this.openApproval, decision });
		this.openApproval = undefined;
	}

	answer(id: unknown, answer: { value: string } | { cancelled: true } | { key: string }): void {
		this.send({ type: "ui_prompt_response", id, ...answer });
	}

	close(): void {
		this.socket.destroy();
	}

	private take(message: { type: string; [field: string]: unknown }): void {
		this.received.push({ ...message, atMs: Date.now() });
		if (message.type === "approval_request" && typeof message.id === "string") {
			this.send({ type: "approval_ack", id: message.id });
			this.openApproval ??= message.id;
		}
		if (message.type === "approval_resolved" && message.id === this.openApproval) this.openApproval = undefined;
	}
}
