import { randomBytes } from "node:crypto";
import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { NEOVIM_PUSH_THROTTLE_MS, NEOVIM_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { EditorReading } from "../core/editor.ts";
import type { NeovimDiffChannel } from "../diff-channels.ts";
import { Generation } from "../kit/core/generation.ts";
import { RequestRecord } from "../kit/core/request-record.ts";
import { countDiagnostics } from "../kit/core/status-texts.ts";
import { EditorPathsCache } from "../real-paths.ts";
import { CHANNEL_LUA, PUSH_LUA, RELOAD_LUA, STATE_LUA, STOP_PUSHES_LUA, UNSAVED_LUA } from "./core/lua.ts";
import {
	isWholeLineSelection,
	parseSnapshot,
	type SelectionMoment,
	type Snapshot,
	selectionMoment,
	stateFromSnapshot,
} from "./core/snapshot.ts";
import type { NeovimEntry } from "./core/status.ts";
import type { FoundNeovim } from "./discovery.ts";
import { type RpcAnswer, RpcConnection } from "./rpc.ts";

/** What `/ide status` says of one Neovim, as far as its session knows. */
export type SessionReport = Omit<NeovimEntry, "enclosing" | "editor">;

/** One msgpack-RPC request: its method and params. */
type Request = [method: string, params: readonly unknown[]];

/** A chunk of core/lua.ts run with its arguments. */
const lua = (chunk: string, ...args: unknown[]): Request => ["nvim_exec_lua", [chunk, args]];

/** How pi names itself in Neovim's channel list (`nvim_list_chans()`). */
const CLIENT_NAME = "pi-ide-context";

export type ReloadResult = "reloaded" | "modified" | "autoread-off" | "not-loaded" | "blocking" | "failed";

/**
 * One Neovim's server, kept open: its state read once on connecting, then pushed by Neovim while pi wants
 * pushes from it. Every request asks `nvim_get_mode` first and sends nothing more while Neovim waits for the
 * user (a hit-enter prompt, `confirm()`); a prompt never waits on Neovim, it uses what was pushed last.
 */
export class NeovimSession {
	private rpc?: RpcConnection;
	private channel?: number;
	private snapshot?: Snapshot;
	private readingNow?: EditorReading;
	private readonly paths = new EditorPathsCache();
	private moment?: SelectionMoment;
	/** A snapshot whose paths resolve after a newer one came in is dropped. */
	private readonly takes = new Generation();
	private blocking = false;
	private pushing = false;
	private wantPushes = false;
	private problem?: string;
	/** What pi cut or left out of the latest snapshot, each with why. */
	private cuts: readonly string[] = [];
	private readonly diffListeners = new Set<(params: unknown) => void>();

	private readonly requests: RequestRecord;

	constructor(
		readonly found: FoundNeovim,
		private readonly hooks: { clock: Clock; changed: () => void; closed: (session: NeovimSession) => void },
	) {
		this.requests = new RequestRecord(hooks.clock, NEOVIM_REQUEST_TIMEOUT_MS);
	}

	get groupName(): string {
		return `pi_ide_${this.channel ?? 0}`;
	}

	/**
	 * Connects and reads the state once; false (with the reason in the report) when there is no connection.
	 * A Neovim in a prompt stays connected and undescribed until a later `refresh` finds it answering.
	 */
	async open(): Promise<boolean> {
		const rpc = await RpcConnection.open(this.found.socket, {
			clock: this.hooks.clock,
			timeoutMs: NEOVIM_REQUEST_TIMEOUT_MS,
			onNotification: (method, params) => this.onNotification(method, params),
		});
		if (typeof rpc === "string") {
			this.problem = rpc;
			return false;
		}
		this.rpc = rpc;
		void runInBackground("neovim closed", () =>
			rpc.whenClosed().then((reason) => {
				this.problem = reason;
				this.hooks.closed(this);
			}),
		);
		await this.refresh();
		return true;
	}

	get isOpen(): boolean {
		return this.rpc !== undefined && this.rpc.closed === undefined;
	}

	/** The latest reading, or undefined when Neovim has not described itself (yet) or described nonsense. */
	reading(): EditorReading | undefined {
		return this.readingNow;
	}

	get hasUi(): boolean {
		return this.snapshot?.ui === true;
	}

	/** Reads the state now (on connecting, and on `/ide`): skipped while Neovim is blocking. */
	async refresh(): Promise<void> {
		if (this.channel === undefined) {
			const channel = await this.ownChannel();
			if (typeof channel === "string") return;
			this.channel = channel;
		}
		const answer = await this.askWhenFree("state", lua(STATE_LUA));
		if (answer.ok) await this.take(answer.value);
	}

	/** Starts or stops Neovim's pushes; idempotent. `isPushing` says what Neovim confirmed. */
	async setPushing(on: boolean): Promise<void> {
		if (on === this.wantPushes || this.channel === undefined) return;
		this.wantPushes = on;
		const answer = on
			? await this.askWhenFree("push", lua(PUSH_LUA, this.channel, this.groupName, NEOVIM_PUSH_THROTTLE_MS))
			: await this.askWhenFree("stop pushes", lua(STOP_PUSHES_LUA, this.groupName));
		if (this.wantPushes !== on) return;
		if (answer.ok) this.pushing = on;
		// Not started: asked again on the next decision. Not stopped: the group deletes itself once pi is gone.
		else if (on) this.wantPushes = false;
	}

	get isPushing(): boolean {
		return this.pushing;
	}

	get isBlocked(): boolean {
		return this.blocking;
	}

	/**
	 * The files Neovim holds unsaved right now, or undefined when it cannot say by `deadlineMs` (the hooks' clock):
	 * its mode and the list share that one budget.
	 */
	async unsavedNow(deadlineMs: number): Promise<string[] | undefined> {
		const answer = await this.askWhenFree("unsaved list", lua(UNSAVED_LUA), deadlineMs);
		if (!answer.ok || !Array.isArray(answer.value)) return undefined;
		return answer.value.filter((file): file is string => typeof file === "string");
	}

	/** `silent checktime` of that file's buffer when loaded, unmodified, with `autoread` on. */
	async reload(realPath: string): Promise<ReloadResult> {
		const answer = await this.askWhenFree("reload", lua(RELOAD_LUA, realPath));
		if (!answer.ok) return this.blocking ? "blocking" : "failed";
		const result = answer.value;
		return result === "reloaded" || result === "modified" || result === "autoread-off" || result === "not-loaded"
			? result
			: "failed";
	}

	/** The review's way into this Neovim; undefined until pi knows its channel there, and once closed. */
	diffChannel(enclosing: boolean): NeovimDiffChannel | undefined {
		const rpc = this.rpc;
		const channel = this.channel;
		if (!rpc || rpc.closed !== undefined || channel === undefined) return undefined;
		const listeners = this.diffListeners;
		return {
			enclosing,
			channel,
			clock: this.hooks.clock,
			run: (what, chunk, args, deadlineMs) => this.askWhenFree(what, lua(chunk, ...args), deadlineMs),
			onDiffEvent(listener) {
				// Each subscription its own entry: the same function given twice is two subscriptions.
				const entry = (params: unknown) => listener(params);
				listeners.add(entry);
				return () => listeners.delete(entry);
			},
			whenClosed: () => rpc.whenClosed(),
		};
	}

	/** Deletes pi's group in Neovim (when it answers in time) and closes the socket. */
	async close(): Promise<void> {
		if (this.wantPushes && this.isOpen) await this.setPushing(false);
		this.rpc?.close();
	}

	report(): SessionReport {
		const buffer = this.snapshot?.buffer;
		return {
			pid: this.found.pid,
			socket: this.found.socket,
			blocking: this.blocking,
			pushing: this.pushing,
			...(this.snapshot && { ui: this.snapshot.ui, cwd: this.snapshot.cwd }),
			...(buffer?.file !== undefined && { file: buffer.file }),
			...(buffer && {
				autoread: buffer.autoread,
				diagnostics: countDiagnostics(buffer.diagnostics),
			}),
			...(this.requests.last && { lastRequest: this.requests.last }),
			...(this.problem !== undefined && { problem: this.problem }),
			...(this.cuts.length > 0 && { cuts: this.cuts }),
		};
	}

	private onNotification(method: string, params: unknown): void {
		if (method === "pi_ide_diff") {
			this.blocking = false;
			for (const listener of [...this.diffListeners]) void runInBackground("neovim diff event", () => listener(params));
			return;
		}
		if (method !== "pi_ide_state" || !Array.isArray(params)) return;
		// A push means Neovim runs Lua: it is not waiting for the user.
		this.blocking = false;
		void runInBackground("neovim push", () => this.take(params[0]));
	}

	/** A snapshot in: checked, turned into a reading; an older one finishing late never replaces a newer one. */
	private async take(raw: unknown): Promise<void> {
		const take = this.takes.start();
		const parsed = parseSnapshot(raw);
		if (!parsed.ok) {
			this.problem = parsed.reason;
			this.cuts = [];
			this.readingNow = undefined;
			this.hooks.changed();
			return;
		}
		const nowSeconds = this.hooks.clock.nowSeconds();
		const snapshot = parsed.snapshot;
		this.moment = selectionMoment(snapshot, this.moment, nowSeconds);
		const state = stateFromSnapshot(snapshot, { pid: this.found.pid, nowSeconds, moment: this.moment });
		const paths = await this.paths.pathsOf(state);
		if (!take.isNewest()) return;
		this.snapshot = snapshot;
		this.problem = undefined;
		this.cuts = parsed.cuts;
		this.readingNow = {
			origin: "neovim",
			pid: this.found.pid,
			state,
			paths,
			selectionFirstSeenSeconds: this.moment?.atSeconds ?? nowSeconds,
			writtenAtSeconds: nowSeconds,
			unsavedFiles: snapshot.unsaved,
			...(state.active_buffer?.selection && { wholeLineSelection: isWholeLineSelection(snapshot.selection) }),
		};
		this.hooks.changed();
	}

	/**
	 * pi's channel id in that Neovim: pi names itself (`nvim_set_client_info`, visible in `nvim_list_chans()`)
	 * with a token only this connection knows, then finds the channel carrying it.
	 */
	private async ownChannel(): Promise<number | string> {
		const token = randomBytes(8).toString("hex");
		const named = await this.askWhenFree("client info", [
			"nvim_set_client_info",
			[CLIENT_NAME, {}, "remote", {}, { token }],
		]);
		if (!named.ok) return named.reason;
		const found = await this.ask(...lua(CHANNEL_LUA, token));
		if (!found.ok) return found.reason;
		return typeof found.value === "number" && found.value > 0 ? found.value : "pi's channel was not found in Neovim";
	}

	/**
	 * `nvim_get_mode` first (it answers even in a prompt); the request only when Neovim is not blocking. Without a
	 * deadline each waits its own timeout; with one (the hooks' clock), both share what is left of it.
	 */
	private async askWhenFree(what: string, request: Request, deadlineMs?: number): Promise<RpcAnswer> {
		const left = () => this.requests.timeLeftMs(deadlineMs);
		if (left() === 0) return this.requests.failed(what, "no time left to ask");
		const mode = await this.ask("nvim_get_mode", [], left());
		// Not even the "fast" call answers: a busy loop. Ranked as blocking until Neovim pushes again.
		if (!mode.ok) {
			this.blocking = this.isOpen;
			return this.requests.failed(what, mode.reason);
		}
		this.blocking = (mode.value as { blocking?: unknown } | undefined)?.blocking === true;
		if (this.blocking) return this.requests.failed(what, "Neovim is waiting for the user (a prompt): not asked");
		if (left() === 0) return this.requests.failed(what, "no time left to ask");
		const answer = await this.ask(...request, left());
		if (!answer.ok) return this.requests.failed(what, answer.reason);
		this.requests.answered(what);
		return answer;
	}

	private ask(method: string, params: readonly unknown[], timeoutMs = NEOVIM_REQUEST_TIMEOUT_MS): Promise<RpcAnswer> {
		if (!this.rpc) return Promise.resolve({ ok: false, reason: "not connected" });
		return this.rpc.request(method, params, timeoutMs);
	}
}
