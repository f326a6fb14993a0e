import type { AskMethod, NotSent } from "../editors/core/ask-methods.ts";
import type { AskingEditor, DiskFollowed, EditorAsks } from "../editors/editor-asks.ts";
import { referenceSections } from "../references/core/sections.ts";
import { runInBackground } from "../shared/background.ts";
import type { Cancel, Clock } from "../shared/core/clock.ts";
import { show, withoutControlCharactersKeepingLines } from "../shared/core/display-text.ts";
import { ASK_START_WAIT_MS } from "../shared/core/timing.ts";
import { AskLedger, type AskSent, type RunAsker } from "./core/ask-ledger.ts";
import { type Add, type Ask, parseAskMessage } from "./core/ask-messages.ts";
import { askedFrom, askText, doneText, notSentReason } from "./core/ask-texts.ts";
import { planAsk } from "./core/placeholders.ts";
import { assistantText, userText } from "./core/reply-text.ts";
import { diagnosticsOfAsk, type PlaceholderContext, resolvePlaceholders } from "./placeholder-reader.ts";
import { ReplyViews } from "./reply-views.ts";

/** What the asks need of pi and of the connection, each a function (the service holds no pi object). */
export interface AskServiceParts {
	/** Asks on (the settings) and this pi can run them (not print mode). */
	on: () => boolean;
	/** `pi.sendUserMessage(text, { deliverAs: "steer" })`: starts a run when idle, steers the run otherwise. */
	send: (text: string) => void;
	isIdle: () => boolean;
	/** The session's model as `provider/id`, or undefined when it has none. */
	model: () => string | undefined;
	abort: () => void;
	/** A reference into pi's input, as an IDE's "send to agent" puts it; none without a UI. */
	insertInput?: (file: string, lines?: { start: number; end: number }) => string | undefined;
	/** Connects pi to the asking editor (`asked from <editor>`) when it is connected elsewhere or paused. */
	connectAsked: (key: string, label: string) => boolean;
	/** Every source that reads editors of the project makes their buffers follow the disk (a run ended). */
	followDisk: () => Promise<readonly DiskFollowed[]>;
	placeholders: PlaceholderContext;
	/** An editor's answer to one of pi's questions (a choice's number), or its copy dismissed (no choice). */
	questionReplied: (editor: AskingEditor, reply: { id: number; choice?: number }) => void;
	clock: Clock;
}

/** `/ide status`'s part: what was asked lately and how it went. */
interface AskCounts {
	asked: number;
	sent: number;
	refused: number;
	malformed: number;
}

/**
 * Asks from the editor: a prompt typed there runs in pi as one user message (the user's words, each
 * placeholder a reference, the referenced lines after them), steered into a run under way; the editor is told
 * when pi works and when it is done, and why an ask was not sent. Knows no editor: a source hands it messages
 * with a way to tell that editor (`EditorAsks`).
 */
export class AskService {
	private readonly ledger = new AskLedger();
	private readonly editors = new Map<string, AskingEditor>();
	private readonly replies: ReplyViews;
	private readonly timers = new Set<Cancel>();
	private compacting = false;
	private ending = false;
	private lastProblem?: string;
	private readonly counts: AskCounts = { asked: 0, sent: 0, refused: 0, malformed: 0 };

	constructor(private readonly parts: AskServiceParts) {
		this.replies = new ReplyViews(parts.clock, (key, text, streaming) =>
			this.editors.get(key)?.tell({ kind: "reply", text, streaming }),
		);
	}

	/** What the editors' side is given (`SourceHooks.asks`). */
	forEditors(): EditorAsks {
		return {
			on: () => this.parts.on(),
			received: (editor, method, params) => this.received(editor, method, params),
			gone: (key) => {
				this.editors.delete(key);
				this.replies.closed(key);
			},
		};
	}

	private received(editor: AskingEditor, method: AskMethod, params: unknown): void {
		this.editors.set(editor.key, editor);
		const parsed = parseAskMessage(method, params);
		if (!parsed.ok) {
			this.counts.malformed++;
			this.lastProblem = `${editor.label}: ${parsed.reason}`;
			editor.tell({ kind: "status", text: askText.refused(parsed.reason), level: "error" });
			return;
		}
		const message = parsed.value;
		if (message.method === "ask") void runInBackground("ask", () => this.ask(editor, message.ask));
		else if (message.method === "add") this.add(editor, message.add);
		else if (message.method === "stop") this.stop(editor);
		else if (message.method === "answer")
			this.parts.questionReplied(editor, { id: message.id, choice: message.choice });
		else if (message.method === "dismiss") this.parts.questionReplied(editor, { id: message.id });
		else if (message.method === "reply") {
			if (!this.replies.opened(editor.key)) editor.tell({ kind: "status", text: askText.noReply, level: "info" });
		} else this.replies.closed(editor.key);
	}

	/** Why an ask cannot be taken now, or undefined. */
	private refusal(): NotSent | undefined {
		if (!this.parts.on()) return "off";
		if (this.ending) return "ending";
		if (this.compacting) return "compacting";
		if (this.parts.model() === undefined) return "noModel";
		return undefined;
	}

	private ask(editor: AskingEditor, ask: Ask): Promise<void> {
		return this.prompted(editor, () => this.composed(ask));
	}

	/**
	 * A prompt an editor's client composed itself (pi-bridge.nvim inlines its code; pi-bridge/ checked it):
	 * sent as an ask is, or refused with the reason, the refusal's kind in `notSent`.
	 */
	async prompted(
		editor: AskingEditor,
		compose: () => Promise<{ ok: true; text: string } | { ok: false; reason: string }>,
	): Promise<void> {
		this.editors.set(editor.key, editor);
		this.counts.asked++;
		const refused = this.refusal();
		if (refused) {
			this.notSent(editor, refused);
			return;
		}
		const composed = await compose();
		if (!composed.ok) {
			this.notSent(editor, "failed", composed.reason);
			return;
		}
		const text = composed.text;
		// The checks again: the redaction took a moment.
		const late = this.refusal();
		if (late) {
			this.notSent(editor, late);
			return;
		}
		const from = askedFrom(editor.label, this.parts.connectAsked(editor.key, editor.label));
		const idle = this.parts.isIdle();
		// A steered message shows as pi shows any: its first line names the editor.
		const body = idle ? text : `[${from}]\n${text}`;
		const { id, sent } = this.ledger.sending({
			key: editor.key,
			label: editor.label,
			from,
			text: body,
			idle,
			sentAtMs: this.parts.clock.nowMs(),
		});
		try {
			this.parts.send(sent);
		} catch (error) {
			this.ledger.forget(id);
			this.notSent(editor, "failed", error instanceof Error ? error.message : String(error));
			return;
		}
		this.counts.sent++;
		if (idle) this.watchStart();
	}

	/** The user's words with their references, then the referenced lines, as one message. */
	private async composed(ask: Ask): Promise<{ ok: true; text: string }> {
		const plan = planAsk({ ...ask, prompt: typedText(ask.prompt) });
		const context = this.parts.placeholders;
		const [resolved, diagnostics] = await Promise.all([
			resolvePlaceholders(plan, context),
			diagnosticsOfAsk(plan, context),
		]);
		const sections = referenceSections(resolved, plan.notes, { alreadySent: new Set() }).sections;
		if (diagnostics !== undefined) sections.push(`<editor-diagnostics>\n${diagnostics}\n</editor-diagnostics>`);
		return { ok: true, text: [plan.text, ...sections].join("\n\n") };
	}

	/** An idle ask must start a run within the wait; a compaction before the run (both lines do one) waits too. */
	private watchStart(): void {
		const cancel = this.parts.clock.after(ASK_START_WAIT_MS, () => {
			this.timers.delete(cancel);
			if (this.compacting) {
				this.watchStart();
				return;
			}
			for (const ask of this.ledger.expired(this.parts.clock.nowMs(), ASK_START_WAIT_MS))
				this.notSentAsk(ask, "noStart");
		});
		this.timers.add(cancel);
	}

	private notSentAsk(ask: AskSent, kind: NotSent): void {
		const editor = this.editors.get(ask.key);
		if (editor) this.notSent(editor, kind);
	}

	/** `why`: a failure's own words (`failed`); the others say their reason. */
	private notSent(editor: AskingEditor, kind: NotSent, why = kind === "failed" ? "" : notSentReason[kind]): void {
		this.counts.refused++;
		this.lastProblem = `${editor.label}: not sent: ${why}`;
		editor.tell({ kind: "status", text: askText.notSent(why), level: "error", notSent: kind });
	}

	private add(editor: AskingEditor, add: Add): void {
		const lines = add.startLine === undefined ? undefined : { start: add.startLine, end: add.endLine ?? add.startLine };
		const inserted = this.parts.on() ? this.parts.insertInput?.(add.file, lines) : undefined;
		if (inserted === undefined) this.notSent(editor, this.parts.on() ? "noUi" : "off");
		else editor.tell({ kind: "status", text: askText.added(inserted.trim()), level: "info" });
	}

	private stop(editor: AskingEditor): void {
		const idle = this.parts.isIdle();
		if (!idle) this.parts.abort();
		editor.tell({ kind: "status", text: idle ? askText.nothingToStop : askText.stopping, level: "info" });
	}

	// pi's events, handed in by index.ts.

	/** `input`: an ask's text with its token taken off (the transform), or undefined when it is not an ask. */
	input(text: string, idleNow: boolean): string | undefined {
		return this.ledger.inputSeen(text, idleNow)?.text;
	}

	/** `before_agent_start`: where an ask starting this run came from, as the transcript's dim line says it. */
	promptFrom(prompt: string): string | undefined {
		return this.ledger.promptAsk(prompt)?.from;
	}

	agentStarted(): void {
		this.working(this.ledger.runStarted());
	}

	messageStarted(message: unknown): void {
		const text = userText(message);
		if (text !== undefined) this.working(this.ledger.userMessage(text));
	}

	messageUpdated(message: unknown, finished: boolean): void {
		const text = assistantText(message);
		if (text === undefined) return;
		this.replies.streamed(
			this.ledger.askers().map((asker) => asker.key),
			text,
			finished,
		);
	}

	/** The editors whose asks the running run carries (delivered, a steered one included), until its end. */
	runEditors(): AskingEditor[] {
		return this.ledger.askers().flatMap((asker) => this.editors.get(asker.key) ?? []);
	}

	/** The model wrote or edited a file (pi's own tools): named in `pi: done`. */
	fileChanged(path: string): void {
		this.ledger.fileChanged(path);
	}

	/** The run is over (`agent_end` on pi 0.73, `agent_settled` on pi 1.x): buffers follow the disk, then done. */
	async runEnded(outcome: { error?: string; aborted: boolean }): Promise<void> {
		const run = this.ledger.runEnded();
		const followed = await this.parts.followDisk().catch(() => [] as const);
		this.replies.ended(run.askers.map((asker) => asker.key));
		for (const asker of run.askers) {
			const notReloaded = followed.find((entry) => entry.key === asker.key)?.notReloaded ?? 0;
			const text = doneText({ files: run.files, ...outcome }, notReloaded);
			this.editors.get(asker.key)?.tell({ kind: "status", text, level: outcome.error ? "error" : "info" });
		}
	}

	/** pi compacts its context (pi 1.x refuses even a steer meanwhile). */
	setCompacting(on: boolean): void {
		this.compacting = on;
	}

	private working(askers: readonly RunAsker[]): void {
		const text = askText.working(this.parts.model());
		for (const asker of askers) {
			this.replies.started(asker.key);
			this.editors.get(asker.key)?.tell({ kind: "status", text, level: "working" });
		}
	}

	statusLines(): string[] {
		const { asked, sent, refused, malformed } = this.counts;
		const head = this.parts.on()
			? `Asks from editors: on (${asked} asked, ${sent} sent, ${refused} not sent, ${malformed} malformed)`
			: "Asks from editors: off";
		return [head, ...(this.lastProblem ? [`  last problem: ${show(this.lastProblem, 200)}`] : [])];
	}

	/** The session ends: every ask not delivered is told so; nothing more is sent to the editors. */
	close(): void {
		this.ending = true;
		for (const ask of this.ledger.clear()) this.notSentAsk(ask, "ending");
		for (const cancel of this.timers) cancel();
		this.timers.clear();
		this.replies.close();
		this.editors.clear();
	}
}

/** The user's words as sent: line ends made LF, escape sequences and other control characters dropped. */
const typedText = (prompt: string) => withoutControlCharactersKeepingLines(prompt.replace(/\r\n?/g, "\n"));
