import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runInBackground } from "../../shared/background.ts";
import type { Clock } from "../../shared/core/clock.ts";
import type { Fields } from "../../shared/core/fields.ts";
import { EMACS_REQUEST_TIMEOUT_MS } from "../../shared/core/timing.ts";
import { pidKey } from "../core/editor-key.ts";
import type { AskingEditor, AskNews, EditorAsks } from "../editor-asks.ts";
import {
	type AsksDefined,
	type AsksState,
	asksDefinedOf,
	asksLineOf,
	EMACS_ASK_CAPS,
	questionLineOf,
	questionsInstalledOf,
} from "./core/asks.ts";
import { ASKS_INSTALL_ELISP } from "./core/elisp/asks-elisp.ts";
import { QUESTIONS_INSTALL_ELISP } from "./core/elisp/question-elisp.ts";
import type { EvalAnswer } from "./server-client.ts";

/** What one Emacs's asks need of its session: its requests, its push connection, and what pi hands the asks. */
export interface EmacsAsksParts {
	pid: number;
	/** The install's prefix: `<prefix>send-ask` carries the asks' lines, `<prefix>asks-close` takes them out. */
	prefix: string;
	/** pi's own dir (0700) beside its push socket: a reply's text crosses as a 0600 file there. */
	privateDir: string;
	/** pi's project (real path): the registry names this pi by it, and the list of pis shows it. */
	projectDir: () => string;
	/** Where the asks go; none (or off): no command is defined. */
	asks: EditorAsks | undefined;
	clock: Clock;
	/** The session's requests (the install): each with its timeout. */
	requests: { ask(what: string, elisp: string, args: unknown, deadlineMs?: number): Promise<EvalAnswer> };
	/** One JSON line to that Emacs on pi's push connection; false when it is not open. */
	send(value: unknown): boolean;
}

/**
 * One Emacs's asks: pi's commands there (core/elisp/asks-elisp.ts) for as long as pi reads it, the asks it
 * pushes handed to asks/, and what asks/ tells it: lines on pi's push connection (core/elisp/ask-news-elisp.ts),
 * fire and forget, never a request to its server (a C-g typed meanwhile would quit the request and be lost); a
 * busy Emacs reads them once free, one gone drops them.
 */
export class EmacsAsks {
	readonly editor: AskingEditor;
	private state: AsksState = { kind: "outside" };
	/** This pi's connected flag as Emacs's registry holds it (the install's, or the last line that said so). */
	private installedConnected?: boolean;
	private wanted?: boolean;
	/** pi runs in this Emacs's own terminal (`M-x shell`, vterm): its questions show there without focus. */
	private piInside = false;
	private asking?: Promise<void>;
	/** The last install failed: not asked again until `retry`. */
	private waiting = false;
	private lastProblem?: string;
	/** Why `*pi question*` is not there (its install failed): pi's questions of this Emacs's runs stay in pi. */
	private questionsProblem?: string;
	private closed = false;
	private follows = 0;
	private readonly followWaiters = new Map<number, (notReloaded: number) => void>();
	/** The reply's latest text not yet written, and whether one is being written (one file at a time). */
	private replyDue?: { text: string; streaming: boolean };
	private replying = false;
	private replyFiles = 0;
	/** The one reply file pi keeps: the latest (Emacs skips an older one it finds gone). */
	private replyFile?: string;

	constructor(private readonly parts: EmacsAsksParts) {
		const asks = this;
		this.editor = {
			key: pidKey(parts.pid),
			label: `Emacs ${parts.pid}`,
			tell: (news) => this.tell(news),
			get noQuestions() {
				return asks.questionsProblem;
			},
		};
	}

	get installed(): boolean {
		return this.state.kind === "installed";
	}

	/** What `/ide status` says of them. */
	report(): { state: AsksState; lastProblem?: string } {
		return { state: this.state, ...(this.lastProblem !== undefined && { lastProblem: this.lastProblem }) };
	}

	/** Asks are off in pi: nothing is installed (an install there stays until pi's connection ends). */
	off(): void {
		if (!this.installed) this.state = { kind: "off" };
	}

	/**
	 * The commands there, with this pi connected or not: installed (one request, then one for `*pi question*`:
	 * core/elisp/question-elisp.ts), then a change of connection told on the push connection. Every push decides again: an install that failed waits for `retry`.
	 * `piInside`: pi runs in this Emacs's own terminal.
	 */
	want(connected: boolean, piInside = false): Promise<void> {
		this.piInside = piInside;
		this.wanted = connected;
		if (this.installedConnected === connected) return this.asking ?? Promise.resolve();
		if (this.installed) {
			this.installedConnected = connected;
			this.parts.send({ kind: "connected", connected });
			return Promise.resolve();
		}
		if (this.asking || this.waiting) return this.asking ?? Promise.resolve();
		this.asking = this.install().finally(() => {
			this.asking = undefined;
		});
		return this.asking;
	}

	/** The re-check tick or /ide: an install that failed is tried again at the next decision. */
	retry(): void {
		this.waiting = false;
	}

	/** A line of the asks' Emacs pushed: an ask handed to asks/ as it came (asks/ checks its params), or a follow's answer. */
	line(value: Fields): void {
		const line = asksLineOf(value);
		if (line.kind === "bad") this.lastProblem = line.reason;
		else if (line.kind === "followed") this.followWaiters.get(line.id)?.(line.notReloaded);
		else if (this.parts.asks?.on()) this.parts.asks.received(this.editor, line.method, line.params);
	}

	/**
	 * A run ended: the buffers that changed on disk follow it; the files left as the buffer had them, or
	 * undefined when the commands are not there. A busy Emacs is waited for up to the request timeout (0 then):
	 * it follows the disk all the same once free.
	 */
	async followDisk(): Promise<number | undefined> {
		if (!this.installed || this.closed) return undefined;
		const id = ++this.follows;
		const answered = new Promise<number>((settle) => {
			const cancel = this.parts.clock.after(EMACS_REQUEST_TIMEOUT_MS, () => finish(0));
			const finish = (notReloaded: number) => {
				cancel();
				this.followWaiters.delete(id);
				settle(notReloaded);
			};
			this.followWaiters.set(id, finish);
		});
		if (!this.parts.send({ kind: "follow", id })) this.followWaiters.get(id)?.(0);
		return answered;
	}

	/** pi's connection with that Emacs ended: nothing more is told it. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		for (const finish of [...this.followWaiters.values()]) finish(0);
		this.replyDue = undefined;
		if (this.replyFile) void rm(this.replyFile, { force: true }).catch(() => {});
		this.parts.asks?.gone(this.editor.key);
	}

	private async install(): Promise<void> {
		const connected = this.wanted === true;
		const answer = await this.parts.requests.ask("asks install", ASKS_INSTALL_ELISP, {
			prefix: this.parts.prefix,
			pid: process.pid,
			project: this.parts.projectDir(),
			connected,
			caps: EMACS_ASK_CAPS,
		});
		const defined: AsksDefined | string = answer.ok ? asksDefinedOf(answer.value) : answer.reason;
		if (typeof defined === "string") {
			// Commands Emacs made before (an install that ran late) stay as they were; installed again on `retry`.
			this.state = { kind: "failed", reason: defined };
			this.waiting = true;
			return;
		}
		this.state = { kind: "installed", defined };
		this.installedConnected = connected;
		const questions = await this.parts.requests.ask("questions install", QUESTIONS_INSTALL_ELISP, {
			prefix: this.parts.prefix,
		});
		this.questionsProblem = questionsInstalledOf(questions);
		// The connection changed while it installed: told now.
		if (this.wanted !== undefined && this.wanted !== connected) this.want(this.wanted);
	}

	private tell(news: AskNews): void {
		if (this.closed) return;
		if (news.kind === "status") {
			this.parts.send({ kind: "status", text: news.text, level: news.level });
			return;
		}
		if (news.kind !== "reply") {
			this.parts.send(questionLineOf(news, this.piInside));
			return;
		}
		this.replyDue = { text: news.text, streaming: news.streaming };
		if (!this.replying) void runInBackground("emacs reply", () => this.writeReplies());
	}

	/** The reply's latest text as a 0600 file of pi's dir (a line is no place for 256 KiB), the older one removed. */
	private async writeReplies(): Promise<void> {
		this.replying = true;
		try {
			for (let due = this.replyDue; due && !this.closed; due = this.replyDue) {
				this.replyDue = undefined;
				const file = join(this.parts.privateDir, `reply-${this.parts.pid}-${++this.replyFiles}.txt`);
				const written = await writeFile(file, due.text, { mode: 0o600, flag: "wx" }).then(
					() => true,
					() => false,
				);
				if (!written) continue;
				const older = this.replyFile;
				this.replyFile = file;
				if (older) await rm(older, { force: true }).catch(() => {});
				if (this.closed || !this.parts.send({ kind: "reply", file, streaming: due.streaming }))
					await rm(file, { force: true }).catch(() => {});
			}
		} finally {
			this.replying = false;
		}
	}
}
