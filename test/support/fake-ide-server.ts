import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { pathToFileURL } from "node:url";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import {
	type HandshakeRules,
	initializeResult,
	isAuthorised,
	judgeUpgrade,
	pickProtocol,
	refuseUpgrade,
	toolsListResult,
	type UpgradeSeen,
} from "./fake-ide-handshake.ts";
import { defaultIdeToken, IdeLockfile } from "./fake-ide-lockfile.ts";
import type { FakeIdeServerOptions } from "./fake-ide-options.ts";
import { type AskAnswer, PingRequests, ToolHolds } from "./fake-ide-pending.ts";
import { type FakeEditorState, mentionPayload, selectionPayload, toolAnswer } from "./fake-ide-tools.ts";
import { FLAVOURS, type FlavourCapabilities } from "./ide-server-flavours.ts";

export type { UpgradeSeen } from "./fake-ide-handshake.ts";
export type { FakeIdeServerOptions } from "./fake-ide-options.ts";
export type { FakeDiagnostic, FakeEditorState } from "./fake-ide-tools.ts";

/**
 * An editor's Claude Code IDE server in-process (reference §2-§4): MCP over a loopback WebSocket, one JSON-RPC
 * message per text frame, with the quirks of the flavour's row in FLAVOURS, and the editor's state set by the test.
 */

export interface ReceivedMessage {
	/** Which connection sent it: 0 for the first accepted one, counting up. */
	connection: number;
	/** Parsed JSON, or the raw text of a frame that was not JSON. */
	// biome-ignore lint/suspicious/noExplicitAny: tests read whatever a client sent.
	message: any;
}

interface Client {
	socket: WebSocket;
	index: number;
	lastPongAt: number;
	replay?: NodeJS.Timeout;
	replayHeld?: boolean;
}

const HUGE_FRAME_BYTES = 10 * 1024 * 1024;

export class FakeIdeServer {
	readonly capabilities: FlavourCapabilities;
	readonly received: ReceivedMessage[] = [];
	readonly upgrades: UpgradeSeen[] = [];
	private state: FakeEditorState = {};
	private latestSelection: object | undefined;
	private readonly clients = new Set<Client>();
	private acceptedCount = 0;
	private readonly holds = new ToolHolds();
	private readonly pings = new PingRequests();
	private readonly openDiffs = new Set<string>();
	private readonly wsPinger: NodeJS.Timeout | undefined;
	private readonly lockfile: IdeLockfile;

	static async start(options: FakeIdeServerOptions): Promise<FakeIdeServer> {
		const http = createServer((_request, response) => {
			response.writeHead(400, { "content-type": "text/plain" }).end("Expected a WebSocket upgrade\n");
		});
		await new Promise<void>((done, fail) => {
			http.once("error", fail);
			http.listen(0, "127.0.0.1", () => done());
		});
		return new FakeIdeServer(options, http, (http.address() as AddressInfo).port);
	}

	private constructor(
		private readonly options: FakeIdeServerOptions,
		private readonly http: Server,
		readonly port: number,
	) {
		this.capabilities = FLAVOURS[options.flavour];
		this.lockfile = new IdeLockfile(options.lockDir, port, {
			pid: options.pid === undefined ? process.pid : options.pid,
			workspaceFolders: options.workspaceFolders,
			ideName: options.ideName ?? this.capabilities.ideName,
			token: options.token === undefined ? defaultIdeToken(options.flavour) : (options.token ?? undefined),
			runningInWindows: this.capabilities.writesRunningInWindows,
		});
		const wss = new WebSocketServer({
			noServer: true,
			clientTracking: false,
			handleProtocols: (offered) => pickProtocol(this.rules, offered),
		});
		http.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
			socket.on("error", () => {});
			const seen = judgeUpgrade(this.rules, request);
			this.upgrades.push(seen);
			if (!seen.accepted) return refuseUpgrade(socket, seen.reason ?? "");
			wss.handleUpgrade(request, socket, head, (ws) => this.onSocket(ws, request, seen));
		});
		if (this.capabilities.keepAlive === "ws-ping") {
			const interval = options.wsPingMs ?? 30_000;
			this.wsPinger = setInterval(() => this.pingFrames(interval), interval);
			this.wsPinger.unref();
		}
		if (options.writeLockfile !== false) this.lockfile.write();
	}

	private get rules(): HandshakeRules {
		const refuseSubprotocol = this.options.misbehave === "refuse-subprotocol";
		return { capabilities: this.capabilities, token: this.token, refuseSubprotocol };
	}

	get token(): string | undefined {
		return this.lockfile.fields.token;
	}

	get lockfilePath(): string | undefined {
		return this.lockfile.path;
	}

	get openClients(): number {
		return [...this.clients].filter((client) => client.socket.readyState === WebSocket.OPEN).length;
	}

	/**
	 * Merges `state` into the editor's. Pushes selection_changed when the flavour would: after a cursor or
	 * selection move, or after a file switch where pushesOnFileSwitch; `push` forces it either way. No debounce.
	 */
	setEditor(state: FakeEditorState, options: { push?: boolean } = {}): void {
		const before = this.state;
		this.state = { ...before, ...state };
		if (!this.capabilities.notifications.includes("selection_changed")) return;
		const switched = "file" in state && state.file !== before.file;
		const moved =
			("selection" in state && JSON.stringify(state.selection) !== JSON.stringify(before.selection)) ||
			("selectedText" in state && state.selectedText !== before.selectedText);
		if (!(options.push ?? ((switched && this.capabilities.pushesOnFileSwitch) || moved))) return;
		const payload = selectionPayload(this.capabilities, this.state);
		if (payload === undefined) return;
		this.latestSelection = payload;
		this.broadcast("selection_changed", payload);
	}

	/** at_mentioned to every client, lines 0-based here (the flavour's counting on the wire), when it sends one. */
	mention(filePath: string, lines?: { start: number; end: number }): void {
		if (this.capabilities.notifications.includes("at_mentioned"))
			this.broadcast("at_mentioned", mentionPayload(this.capabilities, filePath, lines));
	}

	/** diagnostics_changed {uris} to every client, when the flavour sends it. */
	diagnosticsChanged(files: string[]): void {
		if (this.capabilities.notifications.includes("diagnostics_changed"))
			this.broadcast("diagnostics_changed", { uris: files.map((file) => pathToFileURL(file).href) });
	}

	/** A JSON-RPC ping (as JetBrains sends) to every open client, by connection order: did each answer {} in time? */
	pingClients(timeoutMs = 1000): Promise<boolean[]> {
		const open = [...this.clients].filter((client) => client.socket.readyState === WebSocket.OPEN);
		return Promise.all(open.map((client) => this.pings.ping((text) => client.socket.send(text), timeoutMs)));
	}

	/** An editor's own request (`getSuggestions`) to the first open client, as pi-ide.nvim asks its first pi. */
	askFirstClient(method: string, params: unknown, timeoutMs = 5000): Promise<AskAnswer> {
		const client = [...this.clients].find((each) => each.socket.readyState === WebSocket.OPEN);
		if (!client) return Promise.reject(new Error("no client connected"));
		return this.pings.ask((text) => client.socket.send(text), method, params, timeoutMs);
	}

	/** A notification to every open client (`request_cancelled {id}`). */
	notifyClients(method: string, params: object): void {
		this.broadcast(method, params);
	}

	/** The id the next `askFirstClient` uses. */
	get nextAskId(): number {
		return this.pings.nextRequestId;
	}

	/** Closes every client with `code`; without one, a close frame without a code (the peer sees 1005), as VS Code evicts. */
	closeClients(code?: number): void {
		for (const { socket } of this.clients) {
			if (code === undefined) socket.close();
			else socket.close(code);
		}
	}

	/** Holds the next answer to tool `name` until released; other requests (pings) are answered meanwhile. */
	holdTool(name: string): { release: () => void } {
		return this.holds.hold(name);
	}

	/** Rewrites the lockfile as an editor does (a workspace change, a new activation); a new token is the one checked from now on. */
	rewriteLockfile(changes: Partial<{ token: string | null; workspaceFolders: string[]; pid: number | null }>): void {
		this.lockfile.write({
			...(changes.workspaceFolders && { workspaceFolders: changes.workspaceFolders }),
			...("pid" in changes && { pid: changes.pid ?? null }),
			...("token" in changes && { token: changes.token ?? undefined }),
		});
	}

	removeLockfile(): void {
		this.lockfile.remove();
	}

	/** Drops every client (no close frame), stops listening and removes the lockfile it wrote. */
	async stop(): Promise<void> {
		clearInterval(this.wsPinger);
		this.holds.releaseAll();
		for (const client of this.clients) {
			clearTimeout(client.replay);
			client.socket.terminate();
		}
		this.http.closeAllConnections();
		await new Promise<void>((done) => this.http.close(() => done()));
		this.removeLockfile();
	}

	private onSocket(socket: WebSocket, request: IncomingMessage, seen: UpgradeSeen): void {
		socket.on("error", () => {});
		if (!isAuthorised(this.rules, request.headers)) {
			// VS Code: 1008 "Unauthorized" (§2 [VSIX]); JetBrains "closes" with a code not documented: the same.
			seen.reason = "closed 1008 Unauthorized";
			socket.close(1008, this.capabilities.token === "checked-close-1008" ? "Unauthorized" : undefined);
			return;
		}
		// Checked before evicting: a socket with a wrong token does not displace the client (not measured).
		if (this.capabilities.clients === "one") this.closeClients();
		const client: Client = { socket, index: this.acceptedCount++, lastPongAt: Date.now() };
		this.clients.add(client);
		socket.on("pong", () => {
			client.lastPongAt = Date.now();
		});
		socket.on("message", (data: RawData, isBinary: boolean) => {
			if (!isBinary) this.onMessage(client, data.toString());
		});
		socket.on("close", () => {
			clearTimeout(client.replay);
			this.clients.delete(client);
		});
	}

	private onMessage(client: Client, text: string): void {
		let message: unknown;
		try {
			message = JSON.parse(text);
		} catch {
			this.received.push({ connection: client.index, message: text });
			return;
		}
		this.received.push({ connection: client.index, message });
		if (typeof message !== "object" || message === null) return;
		const { id, method, params } = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
		if (method === undefined && typeof id === "number") this.pings.answered(id, message as Record<string, unknown>);
		// Notifications (notifications/initialized, ide_connected) are only recorded.
		else if (typeof method === "string" && id !== undefined && id !== null)
			void this.answer(client, id, method, params ?? {});
	}

	private async answer(client: Client, id: unknown, method: string, params: Record<string, unknown>): Promise<void> {
		const { misbehave } = this.options;
		if (misbehave === "silent") return;
		if (misbehave === "nonsense") return this.send(client, "this is not JSON-RPC {");
		const reply = (outcome: { result: unknown } | { error: unknown }) =>
			this.send(client, { jsonrpc: "2.0", id, ...outcome });
		if (method === "initialize") {
			this.scheduleReplay(client);
			const result = initializeResult(this.capabilities, params.protocolVersion);
			if (misbehave !== "huge-frame") return reply({ result });
			return reply({ result: { ...result, padding: "x".repeat(HUGE_FRAME_BYTES) } });
		}
		if (method === "ping") return reply({ result: {} });
		if (method === "tools/list") return reply({ result: toolsListResult(this.capabilities) });
		if (method !== "tools/call") return reply({ error: { code: -32601, message: `Method not found: ${method}` } });
		const name = String(params.name);
		await this.holds.passage(name);
		const { capabilities, state, latestSelection, openDiffs } = this;
		const { diffText, diffOutcome = "FILE_SAVED" } = this.options;
		const context = { capabilities, state, latestSelection, openDiffs, diffOutcome, diffText };
		const workspaceFolders = this.lockfile.fields.workspaceFolders;
		reply(toolAnswer({ ...context, workspaceFolders }, name, (params.arguments ?? {}) as Record<string, unknown>));
	}

	/** VS Code pushes the last known selection a while after initialize, if a selection happened before (§2, §8). */
	private scheduleReplay(client: Client): void {
		if (!this.capabilities.replaysSelectionOnConnect) return;
		clearTimeout(client.replay);
		if (this.options.replayDelayMs === "held") client.replayHeld = true;
		else client.replay = setTimeout(() => this.replay(client), this.options.replayDelayMs ?? 500);
	}

	/** Pushes the replay now to every client still waiting for one (`replayDelayMs: "held"`). */
	releaseReplay(): void {
		for (const client of this.clients) if (client.replayHeld) this.replay(client);
	}

	private replay(client: Client): void {
		client.replayHeld = false;
		if (this.latestSelection !== undefined) this.notify(client, "selection_changed", this.latestSelection);
	}

	/** nvim pings every interval and drops a client that sent no pong for two (30 s / 60 s, §2 tcp.lua). */
	private pingFrames(interval: number): void {
		for (const client of this.clients) {
			if (Date.now() - client.lastPongAt > 2 * interval) client.socket.terminate();
			else if (client.socket.readyState === WebSocket.OPEN) client.socket.ping();
		}
	}

	private broadcast(method: string, params: object): void {
		for (const client of this.clients) this.notify(client, method, params);
	}

	private notify(client: Client, method: string, params: object): void {
		this.send(client, { jsonrpc: "2.0", method, params });
	}

	private send(client: Client, payload: string | object): void {
		if (client.socket.readyState !== WebSocket.OPEN) return;
		client.socket.send(typeof payload === "string" ? payload : JSON.stringify(payload));
	}
}
