import { pathToFileURL } from "node:url";
import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { IDE_REQUEST_TIMEOUT_MS, IDE_SELECTION_REPLAY_MS } from "../../shared/core/timing.ts";
import { cancelledIdOf, REQUEST_CANCELLED_NOTIFICATION } from "../core/json-rpc.ts";
import { toolAnswerOf } from "../core/mcp.ts";
import type { Diagnostic } from "../core/protocol-state.ts";
import type { BoundRequests } from "../editor-source.ts";
import { RequestRecord } from "../kit/core/request-record.ts";
import { diagnosticsOfFile } from "./core/diagnostics.ts";
import { type ServerView, type ViewUpdate, withOpenEditors, withSelectionPayload } from "./core/editor-view.ts";
import { quirksOfServer, type ServerQuirks } from "./core/ide-apps.ts";
import type { Mention, SessionReport } from "./core/status.ts";
import { dirtyOf, mentionOf } from "./core/tool-answers.ts";
import { closeText, connectAndShakeHands, type SessionTarget } from "./handshake.ts";
import { countLinesOnDisk } from "./lines-on-disk.ts";
import type { McpAnswer, McpSocket } from "./mcp-socket.ts";

export interface SessionHooks {
	clock: Clock;
	changed: () => void;
	mentioned: (mention: Mention) => void;
	/** Where the editor's own requests go (inline suggestions), bound to its key. */
	requests?: BoundRequests;
}

/**
 * One connection to an IDE server: the handshake (`initialize` 2024-11-05, `notifications/initialized`,
 * `tools/list`, `ide_connected`), the starting state from what the server offers, then its pushes. Every request
 * has a timeout; what arrives is checked by core/ before it is kept.
 */
export class IdeServerSession {
	/** The active file's lines being counted on disk (a prompt waits for it, capped): undefined when none is. */
	counting?: Promise<void>;
	private socket?: McpSocket;
	private view: ServerView = {};
	private diagnostics: Diagnostic[] = [];
	private linesOnDisk?: { file: string; lines: number };
	private tools: readonly string[] = [];
	private quirks: ServerQuirks = quirksOfServer("");
	private info?: { name: string; version: string };
	private connectedAtMs?: number;
	private pushes = 0;
	private readonly requests: RequestRecord;
	private problem?: string;
	/** pi closed it: an open under way stops at its next step. */
	private closing = false;
	private diagnosticsAsked?: { file: string; done: Promise<void> };

	constructor(
		private readonly target: SessionTarget,
		private readonly hooks: SessionHooks,
	) {
		this.requests = new RequestRecord(hooks.clock, IDE_REQUEST_TIMEOUT_MS);
	}

	/** Connects, shakes hands and reads the starting state; false with the reason in `problem` when it could not. */
	async open(): Promise<boolean> {
		const { requests } = this.hooks;
		const shaken = await connectAndShakeHands(this.target, {
			clock: this.hooks.clock,
			onNotification: (method, params) => this.onNotification(method, params),
			...(requests && { onRequest: (id, method, params) => requests.answer({ id, method, params }) }),
			ask: (socket, method, params) => {
				this.socket = socket;
				return this.ask(method, params);
			},
			closing: () => this.closing,
		});
		if (!shaken.ok) {
			this.socket = shaken.socket;
			return this.fail(shaken.reason);
		}
		const { socket, info, tools } = shaken;
		this.socket = socket;
		this.info = info;
		this.quirks = quirksOfServer(info.name);
		this.tools = tools;
		if (requests) void socket.whenClosed().then(() => requests.gone());
		this.connectedAtMs = this.hooks.clock.nowMs();
		await this.refresh(IDE_REQUEST_TIMEOUT_MS);
		return socket.closed === undefined || this.fail(`the server closed the connection: ${closeText(socket)}`);
	}

	get isOpen(): boolean {
		return this.socket !== undefined && this.socket.closed === undefined && this.info !== undefined;
	}

	whenClosed(): Promise<{ code: number; reason: string }> | undefined {
		return this.socket?.whenClosed();
	}

	offers(tool: string): boolean {
		return this.tools.includes(tool);
	}

	/** A file switch pushes nothing (§8): a prompt asks first. */
	get asksBeforePrompt(): boolean {
		return this.quirks.silentOnFileSwitch && (this.offers("getCurrentSelection") || this.offers("getOpenEditors"));
	}

	/** The server can tell unsaved documents. */
	get knowsDirty(): boolean {
		return this.offers("getOpenEditors") || this.offers("checkDocumentDirty");
	}

	state(): { view: ServerView; diagnostics: readonly Diagnostic[]; linesOnDisk?: number } {
		const lines = this.linesOnDisk?.file === this.view.file ? this.linesOnDisk?.lines : undefined;
		return { view: this.view, diagnostics: this.diagnostics, ...(lines !== undefined && { linesOnDisk: lines }) };
	}

	/**
	 * Asks what the editor shows now (its open editors, its selection) within `timeoutMs`. A selection read this
	 * way was not seen being made: it has no known time, and is stale.
	 */
	async refresh(timeoutMs: number): Promise<void> {
		const asks: Promise<void>[] = [];
		if (this.offers("getOpenEditors"))
			asks.push(
				this.tool("getOpenEditors", {}, timeoutMs).then((json) => {
					if (json !== undefined) this.take(withOpenEditors(this.view, json, this.quirks.oneBasedPositions));
				}),
			);
		if (this.offers("getCurrentSelection"))
			asks.push(
				this.tool("getCurrentSelection", {}, timeoutMs).then((json) => {
					if (json !== undefined) this.takeSelection(json, null);
				}),
			);
		await Promise.all(asks);
	}

	/** The files the editor holds unsaved now, or undefined when it cannot say by `deadlineMs` (the hooks' clock). */
	async unsavedNow(deadlineMs: number, target: string | undefined): Promise<readonly string[] | undefined> {
		const left = Math.max(0, deadlineMs - this.hooks.clock.nowMs());
		if (left === 0 || !this.isOpen) return undefined;
		if (this.offers("getOpenEditors")) {
			const json = await this.tool("getOpenEditors", {}, left);
			const update = json === undefined ? undefined : withOpenEditors(this.view, json, this.quirks.oneBasedPositions);
			if (update?.ok) return update.view.dirty;
		}
		if (target === undefined || !this.offers("checkDocumentDirty")) return undefined;
		const answer = await this.callTool(
			"checkDocumentDirty",
			{ filePath: target },
			Math.max(1, deadlineMs - this.hooks.clock.nowMs()),
		);
		const dirty = answer.ok ? dirtyOf(toolAnswerOf(answer.result)) : undefined;
		if (dirty === undefined) return undefined;
		const known = (this.view.dirty ?? []).filter((file) => file !== target);
		return dirty ? [...known, target] : known;
	}

	close(): void {
		this.closing = true;
		this.socket?.close();
	}

	report(): SessionReport {
		return {
			...(this.info && { server: this.info }),
			tools: this.tools,
			pushes: this.pushes,
			...(this.requests.last && { lastRequest: this.requests.last }),
			...(this.problem !== undefined && { problem: this.problem }),
			...(this.socket && this.socket.nonsense.count > 0 && { nonsense: this.socket.nonsense }),
		};
	}

	private onNotification(method: string, params: unknown): void {
		this.pushes++;
		if (method === REQUEST_CANCELLED_NOTIFICATION) {
			const id = cancelledIdOf(params);
			if (id !== undefined) this.hooks.requests?.cancelled(id);
		} else if (method === "selection_changed") {
			// Told right after connecting (VS Code replays the last selection, monet sends it on ide_connected): not seen made.
			const replay =
				this.connectedAtMs === undefined || this.hooks.clock.nowMs() - this.connectedAtMs < IDE_SELECTION_REPLAY_MS;
			this.takeSelection(params, replay ? null : this.hooks.clock.nowSeconds());
		} else if (method === "at_mentioned") {
			const mention = mentionOf(params, this.quirks.oneBasedPositions);
			if (mention) this.hooks.mentioned(mention);
		} else if (method === "diagnostics_changed") {
			void runInBackground("ide server diagnostics", () => this.askDiagnostics());
		}
	}

	private takeSelection(raw: unknown, atSeconds: number | null): void {
		this.take(withSelectionPayload(this.view, raw, { oneBased: this.quirks.oneBasedPositions, atSeconds }));
	}

	private take(update: ViewUpdate): void {
		if (!update.ok) {
			this.problem = update.reason;
			return;
		}
		const switched = update.view.file !== this.view.file;
		this.view = update.view;
		this.problem = undefined;
		if (switched) {
			this.diagnostics = [];
			void runInBackground("ide server file switch", () => Promise.all([this.askDiagnostics(), this.countLines()]));
		}
		this.hooks.changed();
	}

	/** The active file's diagnostics, asked on a file switch and on `diagnostics_changed`: never at prompt time. */
	private askDiagnostics(): Promise<void> {
		const file = this.view.file;
		if (file === undefined || !this.offers("getDiagnostics")) return Promise.resolve();
		// One ask per file at a time; a switch while the last file's are asked asks for the new one too.
		if (this.diagnosticsAsked?.file === file) return this.diagnosticsAsked.done;
		const done = this.tool("getDiagnostics", { uri: pathToFileURL(file).href }, IDE_REQUEST_TIMEOUT_MS)
			.then((json) => {
				const found = json === undefined ? undefined : diagnosticsOfFile(json, file, this.quirks.oneBasedPositions);
				if (found && this.view.file === file) {
					this.diagnostics = found;
					this.hooks.changed();
				}
			})
			.finally(() => {
				if (this.diagnosticsAsked?.done === done) this.diagnosticsAsked = undefined;
			});
		this.diagnosticsAsked = { file, done };
		return done;
	}

	private countLines(): Promise<void> {
		const file = this.view.file;
		if (file === undefined || this.view.lineCount !== undefined) return Promise.resolve();
		const counting: Promise<void> = countLinesOnDisk(file)
			.then((lines) => {
				if (lines !== undefined && this.view.file === file) {
					this.linesOnDisk = { file, lines };
					this.hooks.changed();
				}
			})
			.finally(() => {
				if (this.counting === counting) this.counting = undefined;
			});
		this.counting = counting;
		return counting;
	}

	/** A tool's structured answer, or undefined (its failure kept as the last request's). */
	private async tool(name: string, args: unknown, timeoutMs: number): Promise<unknown> {
		const answer = await this.callTool(name, args, timeoutMs);
		const parsed = answer.ok ? toolAnswerOf(answer.result) : undefined;
		return parsed && "json" in parsed ? parsed.json : undefined;
	}

	/** A `tools/call`; an infinite `timeoutMs` waits as long as the connection lasts (an `openDiff`). */
	callTool(name: string, args: unknown, timeoutMs: number): Promise<McpAnswer> {
		return this.ask("tools/call", { name, arguments: args }, timeoutMs, name);
	}

	private async ask(
		method: string,
		params: unknown,
		timeoutMs = IDE_REQUEST_TIMEOUT_MS,
		what = method,
	): Promise<McpAnswer> {
		if (!this.socket) return { ok: false, reason: "not connected" };
		const answer = await this.socket.request(method, params, timeoutMs);
		if (answer.ok) this.requests.answered(what);
		else this.requests.failed(what, answer.reason);
		return answer;
	}

	private fail(reason: string): false {
		const nonsense = this.socket?.nonsense;
		this.problem =
			nonsense && nonsense.count > 0
				? `${reason}; it sent ${nonsense.count} messages pi could not read (${nonsense.last})`
				: reason;
		this.socket?.close();
		return false;
	}
}
