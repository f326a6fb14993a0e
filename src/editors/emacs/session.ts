import { randomBytes } from "node:crypto";
import { dirname } from "node:path";
import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import { isFields } from "../../shared/core/fields.ts";
import { EMACS_PUSH_DEBOUNCE_MS, EMACS_PUSH_HELLO_TIMEOUT_MS } from "../../shared/core/timing.ts";
import type { EditorReading } from "../core/editor.ts";
import type { EmacsDiffChannel } from "../diff-channels.ts";
import type { EditorAsks } from "../editor-asks.ts";
import { ReadingState } from "../kit/core/reading-state.ts";
import { countDiagnostics } from "../kit/core/status-texts.ts";
import { EmacsAsks } from "./asks.ts";
import { PROBE_ELISP } from "./core/elisp/probe-elisp.ts";
import { INSTALL_ELISP, SET_PUSHING_ELISP } from "./core/elisp/push-elisp.ts";
import { RELOAD_ELISP, STATE_ELISP, UNSAVED_ELISP } from "./core/elisp/state-elisp.ts";
import { type ProbeAnswer, probeResultOf } from "./core/probe.ts";
import { EMACS_SNAPSHOT_CAPS, type EmacsSnapshot } from "./core/snapshot.ts";
import type { EmacsEntry } from "./core/status.ts";
import type { FoundEmacs } from "./discovery.ts";
import type { PushListener, PushPeer } from "./push/push-listener.ts";
import { PushSwitch } from "./push/push-switch.ts";
import { EmacsReadings } from "./readings.ts";
import { EmacsRequests } from "./requests.ts";
import { ReviewLines } from "./review-lines.ts";

/** What `/ide status` says of one Emacs, as far as its session knows. */
export type EmacsSessionReport = Omit<EmacsEntry, "enclosing" | "editor">;

/** An Emacs found with a server socket pi may speak to. */
export type ServedEmacs = FoundEmacs & { socket: string };

/** How opening went: connected and read (a daemon with no frame too: `hasUi` says), or not (`report().problem`). */
export type OpenResult = "open" | "failed";

/** What showing the model's write did (RELOAD_ELISP's answer; busy: asked again once heard from; failed). */
export type EmacsReloadResult = "reloaded" | "unchanged" | "modified" | "not-loaded" | "busy" | "failed";

const RELOAD_ANSWERS: ReadonlySet<unknown> = new Set(["reloaded", "unchanged", "modified", "not-loaded"]);

export interface EmacsSessionHooks {
	clock: Clock;
	/** pi's socket that the installed elisp connects back to. */
	listener: PushListener;
	/** The prefix of every symbol this install defines in that Emacs: `pi-ide-<pi pid>-<n>-`. */
	prefix: string;
	changed: () => void;
	closed: (session: EmacsSession) => void;
	/** Its process's cwd and launch arguments, as the system tells them (the process facts). */
	processOf: (pid: number, maxArgs: number) => Promise<{ cwd?: string; argv?: string[] }>;
	/** Where its asks go (asks/; none: no command there), and pi's project its registry of pis names. */
	asks?: EditorAsks;
	projectDir?: () => string;
}

/** Arguments pi reads of one process: enough for the files it was opened on. */
const MAX_ARGS = 64;

/**
 * One Emacs's server, with pi's elisp installed there: a connection back to pi that carries its pushes and
 * whose close is the death signal (kill -9, `C-x C-c`: pi sees EOF; nothing polls), and whose close by pi
 * removes everything pi put in that Emacs. Requests go over the server, one connection each, each with a
 * timeout: a busy Emacs (a long command) answers none of them, and a prompt never waits for it; it uses what
 * was pushed last.
 */
export class EmacsSession {
	private peer?: PushPeer;
	private closedReason?: string;
	private readonly closedWaiters: ((reason: string) => void)[] = [];
	private probe?: ProbeAnswer;
	/** Its process's cwd (undefined until read) and arguments, as the system tells them. */
	private proc: { cwd?: string; argv: string[] } = { argv: [] };
	private readonly now = new ReadingState<EmacsSnapshot>();
	private readonly pushSwitch: PushSwitch;
	private pushes: EmacsEntry["pushes"] = { count: 0 };
	private readonly reviewLines = new ReviewLines();
	/** The model's writes a busy Emacs could not revert when asked: its next line asks again. */
	private readonly reloadsDue = new Set<string>();

	private readonly requests: EmacsRequests;
	private readonly readings: EmacsReadings;
	/** pi's commands in that Emacs (`M-x pi-ask`), its asks and what pi tells it. */
	readonly asks: EmacsAsks;

	constructor(
		public found: ServedEmacs,
		private readonly hooks: EmacsSessionHooks,
	) {
		this.requests = new EmacsRequests(() => this.found, hooks.clock);
		this.readings = new EmacsReadings(hooks.clock);
		const { prefix, asks, projectDir = () => "/", clock } = hooks;
		const privateDir = dirname(hooks.listener.socketPath);
		const send = (value: unknown) => this.isOpen && this.peer?.send(value) === true;
		const { requests } = this;
		this.asks = new EmacsAsks({ pid: found.pid, prefix, privateDir, projectDir, asks, clock, send, requests });
		this.pushSwitch = new PushSwitch(async (push) => {
			const what = push ? "pushes on" : "pushes off";
			return this.isOpen && (await this.requests.ask(what, SET_PUSHING_ELISP, { prefix: hooks.prefix, push })).ok;
		});
	}

	/**
	 * The probe (is it that Emacs), then pi's elisp installed (pushes off) and the state read once. A daemon
	 * with no frame a user sees is installed in too: its frames' coming and going is pushed, and the connection
	 * is its death signal as any other's.
	 */
	async open(): Promise<OpenResult> {
		await this.readProc();
		const nonce = randomBytes(6).toString("hex");
		const probed = await this.requests.ask("probe", PROBE_ELISP, { probe: nonce });
		if (!probed.ok) return this.failedToOpen(probed.reason);
		const checked = probeResultOf(probed.value, this.found.pid);
		if (!checked.ok) return this.failedToOpen(checked.reason);
		if (!isFields(checked.probe.args) || checked.probe.args.probe !== nonce)
			return this.failedToOpen("the probe's arguments came back changed");
		this.probe = checked.probe;
		this.pushSwitch.framesSeen(checked.probe.frames);
		const peer = this.hooks.listener.expect({
			message: (value) => this.onMessage(value),
			closed: (reason) => this.onPeerClosed(reason),
		});
		this.peer = peer;
		const installed = await this.requests.ask("install", INSTALL_ELISP, {
			socket: this.hooks.listener.socketPath,
			token: peer.token,
			prefix: this.hooks.prefix,
			push: false,
			debounce_ms: EMACS_PUSH_DEBOUNCE_MS,
			caps: EMACS_SNAPSHOT_CAPS,
		});
		const connected = installed.ok && (await this.connectedBack(peer));
		if (!connected || this.closedReason !== undefined) {
			peer.close();
			this.peer = undefined;
			const why = installed.ok ? (this.closedReason ?? "pi's elisp did not connect back") : installed.reason;
			return this.failedToOpen(why);
		}
		await this.refresh();
		return this.isOpen ? "open" : "failed";
	}

	get isOpen(): boolean {
		return this.peer !== undefined && this.closedReason === undefined;
	}

	/** The latest reading, or undefined when Emacs has not described itself (yet) or described nonsense. */
	reading(): EditorReading | undefined {
		return this.now.reading;
	}

	/** A frame a user sees, as the latest snapshot says: a daemon with none is connected, not offered. */
	get hasUi(): boolean {
		return (this.now.snapshot?.frames ?? this.probe?.frames ?? 0) > 0;
	}

	get isBlocked(): boolean {
		return this.requests.busy;
	}

	get isPushing(): boolean {
		return this.isOpen && this.pushSwitch.on;
	}

	/** The server restarted under another name (`server-start` again): requests go there from now on. */
	useSocket(socket: string): void {
		this.found = { ...this.found, socket };
	}

	/**
	 * Reads the state now (on connecting, on `/ide`, for one not read yet on a re-check). A state pushed while
	 * the read was under way wins: the read's answer may have been made before it, and a later one is pushed.
	 */
	async refresh(): Promise<void> {
		if (!this.isOpen) return;
		await this.readProc();
		const pushesBefore = this.pushes.count;
		const answer = await this.requests.ask("state", STATE_ELISP, { caps: EMACS_SNAPSHOT_CAPS });
		if (!answer.ok || this.pushes.count !== pushesBefore) return;
		if (isFields(answer.value)) this.pushSwitch.framesSeen(answer.value.frames);
		await this.take(answer.value);
	}

	/** Turns the pushing hooks on or off without closing the connection (push-switch.ts: asked until known). */
	async setPushing(on: boolean): Promise<void> {
		if (this.isOpen) await this.pushSwitch.set(on);
	}

	/**
	 * The files Emacs holds unsaved right now, or undefined when it cannot say by `deadlineMs` (the hooks'
	 * clock): the guard then keeps the list Emacs pushed last.
	 */
	async unsavedNow(deadlineMs: number): Promise<string[] | undefined> {
		const answer = await this.requests.ask("unsaved list", UNSAVED_ELISP, {}, deadlineMs);
		if (!answer.ok || !isFields(answer.value) || !Array.isArray(answer.value.unsaved)) return undefined;
		return answer.value.unsaved.filter((file): file is string => typeof file === "string");
	}

	/** `(revert-buffer t t t)` of an unmodified buffer visiting that file, point kept in every window. */
	async reload(realPath: string): Promise<EmacsReloadResult> {
		const answer = await this.requests.ask("reload", RELOAD_ELISP, { file: realPath });
		if (!answer.ok) {
			// Asked again once Emacs is heard from: a revert is harmless whenever it runs (unmodified buffers only).
			if (this.requests.busy) this.reloadsDue.add(realPath);
			return this.requests.busy ? "busy" : "failed";
		}
		const result = isFields(answer.value) ? answer.value.result : undefined;
		return RELOAD_ANSWERS.has(result) ? (result as EmacsReloadResult) : "failed";
	}

	/** The review's way into this Emacs; undefined once closed. */
	diffChannel(enclosing: boolean): EmacsDiffChannel | undefined {
		if (!this.isOpen) return undefined;
		return this.reviewLines.channel({
			enclosing,
			prefix: this.hooks.prefix,
			privateDir: dirname(this.hooks.listener.socketPath),
			clock: this.hooks.clock,
			run: (what, elispFunction, args, deadlineMs) => this.requests.ask(what, elispFunction, args, deadlineMs),
			whenClosed: () => this.whenClosed(),
		});
	}

	/** Resolves with the reason once pi's connection with that Emacs is gone. */
	whenClosed(): Promise<string> {
		if (this.closedReason !== undefined) return Promise.resolve(this.closedReason);
		return new Promise((resolve) => this.closedWaiters.push(resolve));
	}

	/** Closes pi's connection: the elisp's sentinel removes its hooks, advice, timer, functions and variables. */
	async close(): Promise<void> {
		this.peer?.close();
		this.onPeerClosed("pi closed the connection");
	}

	report(): EmacsSessionReport {
		const snapshot = this.now.snapshot;
		return {
			pid: this.found.pid,
			socket: this.found.socket,
			daemon: this.probe?.daemon ?? this.found.daemon,
			busy: this.requests.busy,
			pushing: this.isPushing,
			pushes: this.pushes,
			...(this.proc.cwd !== undefined && { cwd: this.proc.cwd }),
			...(this.probe && { version: this.probe.version }),
			...((snapshot || this.probe) && { frames: snapshot?.frames ?? this.probe?.frames }),
			...(snapshot && { mode: snapshot.mode, minibuffer: snapshot.minibuffer }),
			...(snapshot?.file != null && {
				file: snapshot.file,
				diagnostics: countDiagnostics(snapshot.diagnostics),
			}),
			...(this.requests.lastRequest && { lastRequest: this.requests.lastRequest }),
			asks: this.asks.report(),
			...this.now.reportFields(),
		};
	}

	/**
	 * The install wrote its token before it answered, but the two arrive on two connections in either order:
	 * waited for briefly (the listener drops a connection without a token after the same time).
	 */
	private async connectedBack(peer: PushPeer): Promise<boolean> {
		let cancel = () => {};
		const late = new Promise<boolean>((settle) => {
			cancel = this.hooks.clock.after(EMACS_PUSH_HELLO_TIMEOUT_MS, () => settle(false));
		});
		const connected = await Promise.race([peer.whenConnected, late]);
		cancel();
		return connected;
	}

	/** cwd and argv as the system says (PROTOCOL.md's cwd), never a buffer's `default-directory`. */
	private async readProc(): Promise<void> {
		const { cwd, argv } = await this.hooks.processOf(this.found.pid, MAX_ARGS);
		this.proc = { cwd: cwd ?? this.proc.cwd, argv: argv ?? this.proc.argv };
	}

	private onMessage(value: unknown): void {
		if (!isFields(value)) return;
		// Any line means Emacs runs Lisp again: it is not busy.
		this.requests.heardFrom();
		for (const file of this.reloadsDue) {
			this.reloadsDue.delete(file);
			void runInBackground("emacs reload", () => this.reload(file));
		}
		if (value.kind === "review") this.reviewLines.deliver(value);
		if (value.kind === "ask" || value.kind === "followed") this.asks.line(value);
		if (value.kind !== "state") return;
		this.pushes = { count: this.pushes.count + 1, lastAtSeconds: this.hooks.clock.nowSeconds() };
		this.pushSwitch.pushed(isFields(value.state) ? value.state.frames : undefined);
		void runInBackground("emacs push", () => this.take(value.state));
	}

	private onPeerClosed(reason: string): void {
		if (this.closedReason !== undefined) return;
		this.closedReason = reason;
		if (this.peer) this.now.problem = reason;
		for (const waiter of this.closedWaiters.splice(0)) waiter(reason);
		this.asks.close();
		if (this.peer) this.hooks.closed(this);
	}

	/** A snapshot in (pushed or read): the reading it makes, or why there is none. */
	private async take(raw: unknown): Promise<void> {
		const { cwd = "/", argv } = this.proc;
		const taken = await this.readings.take(raw, { pid: this.found.pid, cwd, argv });
		if (!taken) return;
		this.now.take(taken);
		this.hooks.changed();
	}

	private failedToOpen(reason: string): OpenResult {
		this.now.problem = reason;
		return "failed";
	}
}
