import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { NEOVIM_PUSH_THROTTLE_MS, NEOVIM_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { EditorReading } from "../core/editor.ts";
import { pidKey } from "../core/editor-key.ts";
import type { NeovimDiffChannel } from "../diff-channels.ts";
import type { EditorAsks } from "../editor-asks.ts";
import type { EditorRequests } from "../editor-source.ts";
import { ReadingState } from "../kit/core/reading-state.ts";
import { countDiagnostics } from "../kit/core/status-texts.ts";
import { NeovimAsks } from "./asks.ts";
import { LEAVE_LUA, PUSH_LUA, RELOAD_LUA, STATE_LUA, STOP_PUSHES_LUA, UNSAVED_LUA } from "./core/lua.ts";
import type { Snapshot } from "./core/snapshot.ts";
import type { NeovimEntry } from "./core/status.ts";
import type { FoundNeovim } from "./discovery.ts";
import { NeovimReadings } from "./readings.ts";
import { lua, NeovimRequests } from "./requests.ts";
import { RpcConnection } from "./rpc.ts";
import { type NeovimSuggestionOptions, NeovimSuggestions } from "./suggestions.ts";

/** What `/ide status` says of one Neovim, as far as its session knows. */
export type SessionReport = Omit<NeovimEntry, "enclosing" | "editor">;

export type ReloadResult = "reloaded" | "modified" | "autoread-off" | "not-loaded" | "blocking" | "failed";

/**
 * One Neovim's server, kept open: its state read once on connecting, then pushed by Neovim while pi wants
 * pushes from it. Every request asks `nvim_get_mode` first and sends nothing more while Neovim waits for the
 * user (a hit-enter prompt, `confirm()`); a prompt never waits on Neovim, it uses what was pushed last.
 */
export class NeovimSession {
	private rpc?: RpcConnection;
	private channel?: number;
	private readonly now = new ReadingState<Snapshot>();
	private pushing = false;
	private wantPushes = false;
	/** `close()` began: no decision starts pushes, ghost text or asks in Neovim any more. */
	private leaving = false;
	private readonly diffListeners = new Set<(params: unknown) => void>();

	private readonly requests: NeovimRequests;
	private readonly readings: NeovimReadings;
	/** Its ghost text, when pi has an answerer and the settings for it. */
	private readonly suggestions?: NeovimSuggestions;
	/** Its asks (`:Pi` and the rest), when pi takes asks. */
	private readonly asks?: NeovimAsks;

	constructor(
		readonly found: FoundNeovim,
		private readonly hooks: {
			clock: Clock;
			changed: () => void;
			closed: (session: NeovimSession) => void;
			requests?: EditorRequests;
			suggestions?: NeovimSuggestionOptions;
			/** Where this Neovim's asks go, pi's project as the list of pis in Neovim names it, pi in its terminal. */
			asks?: { asks: EditorAsks; project: () => string; piInside: () => boolean };
		},
	) {
		this.requests = new NeovimRequests(() => this.rpc, hooks.clock);
		this.readings = new NeovimReadings(hooks.clock);
		if (hooks.requests && hooks.suggestions)
			this.suggestions = new NeovimSuggestions({
				key: pidKey(found.pid),
				requests: hooks.requests,
				options: hooks.suggestions,
				clock: hooks.clock,
				channel: () => this.channel,
				run: (what, request) => this.requests.whenFree(what, request),
			});
		if (hooks.asks)
			this.asks = new NeovimAsks({
				asks: hooks.asks.asks,
				editor: { key: pidKey(found.pid), label: `Neovim ${found.pid}` },
				pi: { pid: process.pid, project: hooks.asks.project() },
				piInside: hooks.asks.piInside,
				clock: hooks.clock,
				channel: () => this.channel,
				run: (what, request, deadlineMs) => this.requests.whenFree(what, request, deadlineMs),
			});
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
			this.now.problem = rpc;
			return false;
		}
		this.rpc = rpc;
		void runInBackground("neovim closed", () =>
			rpc.whenClosed().then((reason) => {
				this.now.problem = reason;
				this.suggestions?.closed();
				this.asks?.closed();
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
		return this.now.reading;
	}

	get hasUi(): boolean {
		return this.now.snapshot?.ui === true;
	}

	/** Reads the state now (on connecting, and on `/ide`): skipped while Neovim is blocking. */
	async refresh(): Promise<void> {
		if (this.channel === undefined) {
			const channel = await this.requests.ownChannel();
			if (typeof channel === "string") return;
			this.channel = channel;
		}
		const answer = await this.requests.whenFree("state", lua(STATE_LUA));
		if (answer.ok) await this.take(answer.value);
	}

	/**
	 * Starts or stops Neovim's pushes; idempotent. `isPushing` says what Neovim confirmed. While pi leaves the
	 * group is the leave's to end: kept until then, it is what ends the rest of pi's if the leave never lands.
	 */
	async setPushing(on: boolean): Promise<void> {
		if (on === this.wantPushes || this.channel === undefined || this.leaving) return;
		this.wantPushes = on;
		// The ghost text rides on the pushes: it goes first (the pushes' end would end it anyway).
		if (!on) await this.suggestions?.set(false);
		const answer = on
			? await this.requests.whenFree("push", lua(PUSH_LUA, this.channel, this.groupName, NEOVIM_PUSH_THROTTLE_MS))
			: await this.requests.whenFree("stop pushes", lua(STOP_PUSHES_LUA, this.groupName));
		if (this.wantPushes !== on) return;
		if (answer.ok) this.pushing = on;
		// Not started: asked again on the next decision. Not stopped: the group deletes itself once pi is gone.
		else if (on) this.wantPushes = false;
	}

	get isPushing(): boolean {
		return this.pushing;
	}

	/**
	 * The ghost text on while pushes are live and `ownEditors()` (suggestions on), off otherwise; idempotent.
	 * Another pi's claim is asked about again every few seconds.
	 */
	async decideSuggestions(): Promise<void> {
		const on = this.pushing && this.wantPushes && this.staying && (this.hooks.requests?.ownEditors() ?? false);
		await this.suggestions?.set(on);
	}

	/** Asks registered in this Neovim while wanted (asks on, and it is in the project or connected). */
	async decideAsks(inProject: boolean, connected: boolean): Promise<void> {
		const on = this.staying && inProject && (this.hooks.asks?.asks.on() ?? false);
		await this.asks?.set(on, connected);
	}

	/** A run ended: this Neovim's buffers follow the disk (only where asks are registered). */
	async followDisk(deadlineMs: number): Promise<number | undefined> {
		return this.asks?.followDisk(deadlineMs);
	}

	get isBlocked(): boolean {
		return this.requests.blocking;
	}

	/**
	 * The files Neovim holds unsaved right now, or undefined when it cannot say by `deadlineMs` (the hooks' clock):
	 * its mode and the list share that one budget.
	 */
	async unsavedNow(deadlineMs: number): Promise<string[] | undefined> {
		const answer = await this.requests.whenFree("unsaved list", lua(UNSAVED_LUA), deadlineMs);
		if (!answer.ok || !Array.isArray(answer.value)) return undefined;
		return answer.value.filter((file): file is string => typeof file === "string");
	}

	/** `silent checktime` of that file's buffer when loaded, unmodified, with `autoread` on. */
	async reload(realPath: string): Promise<ReloadResult> {
		const answer = await this.requests.whenFree("reload", lua(RELOAD_LUA, realPath));
		if (!answer.ok) return this.requests.blocking ? "blocking" : "failed";
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
			run: (what, chunk, args, deadlineMs) => this.requests.whenFree(what, lua(chunk, ...args), deadlineMs),
			onDiffEvent(listener) {
				// Each subscription its own entry: the same function given twice is two subscriptions.
				const entry = (params: unknown) => listener(params);
				listeners.add(entry);
				return () => listeners.delete(entry);
			},
			whenClosed: () => rpc.whenClosed(),
		};
	}

	/**
	 * Takes pi out of Neovim (as far as it answers in time) and closes the socket. From the start no pushes, ghost
	 * text or asks of pi's start anew there (a push that lands meanwhile decides again); the last request, `leave`,
	 * takes whatever an earlier stop missed, and if it is missed too, the pushes' group (where pi pushes) does the
	 * same at its next, failed, push.
	 */
	async close(): Promise<void> {
		const open = this.isOpen;
		this.leaving = true;
		if (open) {
			// Both at once: a retry of either, due meanwhile, sees it is not wanted any more.
			await Promise.all([this.suggestions?.set(false), this.asks?.set(false, false)]);
			await this.leave();
		}
		this.rpc?.close();
	}

	report(): SessionReport {
		const buffer = this.now.snapshot?.buffer;
		const suggestions = this.suggestions?.report();
		const asks = this.asks?.report();
		return {
			pid: this.found.pid,
			socket: this.found.socket,
			blocking: this.requests.blocking,
			pushing: this.pushing,
			...(this.now.snapshot && { ui: this.now.snapshot.ui, cwd: this.now.snapshot.cwd }),
			...(buffer?.file !== undefined && { file: buffer.file }),
			...(buffer && {
				autoread: buffer.autoread,
				diagnostics: countDiagnostics(buffer.diagnostics),
			}),
			...(this.requests.lastRequest && { lastRequest: this.requests.lastRequest }),
			...this.now.reportFields(),
			...(suggestions && { suggestions }),
			...(asks && { asks }),
		};
	}

	/** Connected and not leaving: only then may a decision start pushes, ghost text or asks in Neovim. */
	private get staying(): boolean {
		return this.isOpen && !this.leaving;
	}

	/** One request: the pushes' group deleted and `User pi_ide_gone_<channel>` fired (core/lua.ts's LEAVE_LUA). */
	private async leave(): Promise<void> {
		this.wantPushes = false;
		this.pushing = false;
		if (this.channel !== undefined) await this.requests.whenFree("leave", lua(LEAVE_LUA, this.channel, this.groupName));
	}

	private onNotification(method: string, params: unknown): void {
		if (this.suggestions?.notification(method, params) || this.asks?.notification(method, params)) {
			// An ask or a cancel means Neovim runs Lua: it is not waiting for the user.
			this.requests.heardFrom();
			return;
		}
		if (method === "pi_ide_diff") {
			this.requests.heardFrom();
			for (const listener of [...this.diffListeners]) void runInBackground("neovim diff event", () => listener(params));
			return;
		}
		if (method !== "pi_ide_state" || !Array.isArray(params)) return;
		// A push means Neovim runs Lua: it is not waiting for the user.
		this.requests.heardFrom();
		void runInBackground("neovim push", () => this.take(params[0]));
	}

	/** A snapshot in (pushed or read): the reading it makes, or why there is none. */
	private async take(raw: unknown): Promise<void> {
		const taken = await this.readings.take(raw, this.found.pid);
		if (!taken) return;
		this.now.take(taken);
		this.hooks.changed();
	}
}
