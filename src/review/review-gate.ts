import { randomBytes } from "node:crypto";
import { relative } from "node:path";
import type {
	ExtensionContext,
	ToolCallEvent,
	ToolCallEventResult,
	ToolResultEvent,
} from "@mariozechner/pi-coding-agent";
import type { ReviewStanding } from "../settings/core/settings.ts";
import { guarded } from "../shared/background.ts";
import type { Clock } from "../shared/core/clock.ts";
import { type Applied, applyDecision } from "./apply-decision.ts";
import { type Approver, approvalsAllowed, type TurnApprovals } from "./approvals.ts";
import type { ChoicesMirror } from "./choices-mirror.ts";
import type { DiffView, ReviewedTool, ReviewTarget } from "./core/diff-host.ts";
import { normalizedText } from "./core/final-text.ts";
import { ABORTED_TEXT, NO_REVIEWER_TEXT, TURN_STOPPED_TEXT } from "./core/model-texts.ts";
import { MAX_REVIEW_RECORDS, type ReviewRecord, reviewStatusLines } from "./core/review-status.ts";
import { lineCounts, selectTitle } from "./core/select-texts.ts";
import { type Decision, decide } from "./decide.ts";
import { type Proposal, proposalOf } from "./proposal.ts";

const REVIEWED_TOOLS: ReadonlySet<string> = new Set<ReviewedTool>(["write", "edit"]);

/** What the gate reads of the rest of pi-ide: the standing, the connected editor's host, the unsaved guard. */
export interface ReviewGateInputs {
	standing: () => ReviewStanding;
	target: () => Promise<ReviewTarget>;
	/** The unsaved guard, asked again after the decision: the user may have started editing meanwhile. */
	guard: (event: ToolCallEvent, ctx: ExtensionContext) => Promise<ToolCallEventResult | undefined>;
	/** RPC mode: the host's dialog gets a timeout (pi cannot withdraw it). */
	rpc: () => boolean;
	/** A secret file's changes are not shown to the model (the diff would carry lines it never saw). */
	isSecretFile: (file: string) => boolean;
	/** pi's question mirror: the choices also in the editor a run came from, when it shows no diff. */
	mirror?: ChoicesMirror;
	/** Who approves the running turn's writes beside pi (pi-bridge.nvim for its turns), when anyone does. */
	approvals?: () => TurnApprovals | undefined;
	clock: Clock;
}

/**
 * The review of the model's `write` and `edit`, one session's: shown in the connected editor and asked in pi at
 * once, decided by the first answer, then the call goes on as accepted (the user's version when they changed it)
 * or is blocked with what the model should know. pi's own tool is the only writer.
 */
export class ReviewGate {
	/** What accepted calls of the running message leave per file, until pi ran them: a later edit builds on it. */
	private readonly pending = new Map<string, { text: string; toolCallId: string }>();
	/** The note for the model on a call the user changed, added to its result. */
	private readonly changedNotes = new Map<string, string>();
	private readonly records: ReviewRecord[] = [];
	private acceptingAll = false;
	/** Files an approver's `all` took out of review for the rest of the session. */
	private readonly approvedFiles = new Set<string>();
	/** Reviews under way, each with what stops it: the session's end closes them. */
	private readonly running = new Set<{ stop: AbortController; done: Promise<Decision> }>();
	/** The session ended: a call still on its way to a review opens nothing. */
	private closed = false;
	/** The user stopped the turn (Esc): the message's other calls are not shown, until the turn ends. */
	private turnStopped = false;

	constructor(private readonly inputs: ReviewGateInputs) {}

	async toolCall(event: ToolCallEvent, ctx: ExtensionContext): Promise<ToolCallEventResult | undefined> {
		if (!REVIEWED_TOOLS.has(event.toolName) || this.acceptingAll) return undefined;
		const standing = this.inputs.standing();
		const approver = approvalsAllowed(standing) ? this.inputs.approvals?.()?.approver() : undefined;
		if (!standing.on && !approver) return undefined;
		if (this.turnStopped) return { block: true, reason: TURN_STOPPED_TEXT };
		const tool = event.toolName as ReviewedTool;
		const made = await proposalOf(
			tool,
			event.input as Record<string, unknown>,
			ctx.cwd,
			(file) => this.pending.get(file)?.text,
		);
		// pi's own tool fails on this call without writing: nothing to review.
		if (!made.ok) return undefined;
		const proposal = made.proposal;
		// The plugin's `all` is for its own turns: a turn typed into pi with review on is reviewed as ever.
		if (approver && this.approvedFiles.has(proposal.file)) return undefined;
		const displayName = displayNameOf(proposal.file, ctx.cwd);
		// Review off, the plugin's turn: its picker and pi's select, no editor's diff.
		const target = standing.on ? await this.inputs.target() : { none: `asked in ${approver?.name}` };
		if (this.closed) return { block: true, reason: ABORTED_TEXT };
		if (!ctx.hasUI && "none" in target) return this.blocked(proposal, displayName, NO_REVIEWER_TEXT);
		const decision = await this.decideOn(proposal, displayName, target, ctx, approver);
		const decidedAt = decision.kind === "accept" || decision.kind === "reject" ? decision.at : undefined;
		const where = decidedAt ?? ("host" in target ? target.host.editorName : "pi");
		if (decision.kind === "accept" && decision.file) this.approvedFiles.add(proposal.file);
		const secretFile = this.inputs.isSecretFile(proposal.file);
		const applied = await applyDecision(
			decision,
			{ event, ctx, proposal, displayName, where, secretFile },
			this.inputs.guard,
		);
		this.afterDecision(applied, event.toolCallId, proposal.file, ctx);
		const by = decision.kind === "accept" || decision.kind === "reject" ? decision.by : undefined;
		this.record({
			atSeconds: this.inputs.clock.nowSeconds(),
			tool,
			displayName,
			outcome: applied.outcome,
			where,
			...(by && { by }),
		});
		return applied.result;
	}

	/** A changed proposal's note goes with pi's own result; the file now holds what was accepted. */
	toolResult(event: ToolResultEvent): { content: ToolResultEvent["content"] } | undefined {
		for (const [file, entry] of this.pending) if (entry.toolCallId === event.toolCallId) this.pending.delete(file);
		const note = this.changedNotes.get(event.toolCallId);
		this.changedNotes.delete(event.toolCallId);
		if (note === undefined || event.isError) return undefined;
		return { content: [...event.content, { type: "text", text: note }] };
	}

	/** The message's calls have all run (or never will): nothing is pending any more. */
	turnEnded(): void {
		this.pending.clear();
		this.changedNotes.clear();
		this.turnStopped = false;
	}

	/** `/ide review on` asks again after "accept all", and about the files the plugin's `all` took out. */
	askAgain(): void {
		this.acceptingAll = false;
		this.approvedFiles.clear();
	}

	statusLines(shows: string): string[] {
		return reviewStatusLines({
			standing: this.inputs.standing(),
			shows,
			acceptingAll: this.acceptingAll,
			records: this.records,
			nowSeconds: this.inputs.clock.nowSeconds(),
		});
	}

	private async decideOn(
		proposal: Proposal,
		displayName: string,
		target: ReviewTarget,
		ctx: ExtensionContext,
		approver: Approver | undefined,
	): Promise<Decision> {
		const counts = lineCounts(
			proposal.before === undefined ? undefined : normalizedText(proposal.before),
			normalizedText(proposal.proposed),
		);
		const call = { tool: proposal.tool, displayName, ...counts };
		let view: DiffView | undefined;
		if ("host" in target)
			view = target.host.open({
				id: randomBytes(3).toString("hex"),
				file: proposal.file,
				displayName,
				onDisk: proposal.before,
				proposed: proposal.proposed,
			});
		const stop = new AbortController();
		const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
		const request = { tool: proposal.tool, file: proposal.file, before: proposal.before, proposed: proposal.proposed };
		const approval = approver && { name: approver.name, answer: approver.ask(request, signal) };
		const deciding = decide({
			...(ctx.hasUI && { ui: this.inputs.mirror?.unmirrored(ctx.ui) ?? ctx.ui }),
			// The approver's picker is the plugin's copy of the question: never also as a mirrored question.
			...(this.inputs.mirror && !approval && { mirror: this.inputs.mirror }),
			...(approval && { approval }),
			rpc: this.inputs.rpc(),
			...(view && "host" in target && { view: { editor: target.host.editorName, hint: target.hint, diff: view } }),
			...("none" in target && { unshown: target.none }),
			signal,
			title: (note) => selectTitle(call, note),
			clock: this.inputs.clock,
		}).finally(() => {
			// The first answer decided: the approver's request is withdrawn (its `approval_resolved`).
			stop.abort();
			view?.close();
		});
		const running = { stop, done: deciding };
		this.running.add(running);
		try {
			return await deciding;
		} finally {
			this.running.delete(running);
		}
	}

	/** The session ends: every review under way stops undecided (nothing written) and its view closes, awaited. */
	async close(): Promise<void> {
		this.closed = true;
		const running = [...this.running];
		for (const review of running) review.stop.abort();
		await Promise.allSettled(running.map((review) => review.done));
	}

	private afterDecision(applied: Applied, toolCallId: string, file: string, ctx: ExtensionContext): void {
		if (applied.acceptAll) this.acceptingAll = true;
		if (applied.note !== undefined) this.changedNotes.set(toolCallId, applied.note);
		if (applied.accepted !== undefined && applied.result === undefined)
			this.pending.set(file, { text: applied.accepted, toolCallId });
		if (!applied.stopTurn) return;
		this.turnStopped = true;
		// After this handler returned its block: the turn stops with it.
		setImmediate(guarded("stop the turn", () => ctx.abort()));
	}

	private blocked(proposal: Proposal, displayName: string, reason: string): ToolCallEventResult {
		this.record({
			atSeconds: this.inputs.clock.nowSeconds(),
			tool: proposal.tool,
			displayName,
			outcome: "blocked",
			where: "print mode",
		});
		return { block: true, reason };
	}

	private record(record: ReviewRecord): void {
		this.records.push(record);
		if (this.records.length > MAX_REVIEW_RECORDS) this.records.shift();
	}
}

/** Relative to pi's cwd inside it (how the model named it, mostly), else absolute. */
function displayNameOf(file: string, cwd: string): string {
	const inside = relative(cwd, file);
	return inside && !inside.startsWith("..") && !inside.startsWith("/") ? inside : file;
}
