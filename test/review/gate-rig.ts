import type { ExtensionContext, ToolCallEvent } from "@mariozechner/pi-coding-agent";
import type { TurnApprovals } from "../../src/review/approvals.ts";
import type { ChoicesMirror } from "../../src/review/choices-mirror.ts";
import type {
	DiffHost,
	DiffRequest,
	EditorAnswer,
	ReviewTarget,
	ShownResult,
} from "../../src/review/core/diff-host.ts";
import { ReviewGate } from "../../src/review/review-gate.ts";
import type { ReviewStanding } from "../../src/settings/core/settings.ts";
import { ManualClock } from "../support/clocks.ts";

/** An editor that shows what it is asked and answers when the test says: the host contract, nothing faked below it. */
export class ScriptedHost implements DiffHost {
	readonly editorName = "Neovim";
	readonly requests: DiffRequest[] = [];
	closed = 0;
	private answers: ((answer: EditorAnswer) => void)[] = [];

	/** `never`: the editor never says it shows the diff. */
	constructor(private readonly shown: ShownResult | "never" = { ok: true, where: "tab page 2" }) {}

	open(request: DiffRequest) {
		this.requests.push(request);
		const answer = new Promise<EditorAnswer>((done) => this.answers.push(done));
		const shown = this.shown === "never" ? new Promise<ShownResult>(() => {}) : Promise.resolve(this.shown);
		return { shown, answer, close: async () => void this.closed++ };
	}

	answer(answer: EditorAnswer): void {
		this.answers.shift()?.(answer);
	}
}

/** pi's dialogs as the gate calls them; each select waits for the test's answer. */
export class ScriptedUi {
	readonly titles: string[] = [];
	readonly options: { timeout?: number }[] = [];
	withdrawn = 0;
	private pending: ((answer: string | undefined) => void)[] = [];
	inputAnswer: string | undefined = "too clever";

	constructor(private readonly clock: ManualClock) {}

	/** As pi's dialogs do: withdrawn by the signal, ended by the timeout (on the test's clock). */
	select = (title: string, _choices: string[], options?: { signal?: AbortSignal; timeout?: number }) => {
		this.titles.push(title);
		this.options.push({ ...(options?.timeout !== undefined && { timeout: options.timeout }) });
		return new Promise<string | undefined>((done) => {
			this.pending.push(done);
			if (options?.timeout !== undefined)
				this.clock.after(options.timeout, () => {
					this.pending = this.pending.filter((waiting) => waiting !== done);
					done(undefined);
				});
			options?.signal?.addEventListener("abort", () => {
				this.withdrawn++;
				this.pending = this.pending.filter((waiting) => waiting !== done);
				done(undefined);
			});
		});
	};

	input = async () => this.inputAnswer;

	async choose(answer: string | undefined): Promise<void> {
		await waitUntil(() => this.pending.length > 0);
		this.pending.shift()?.(answer);
	}
}

export async function waitUntil(condition: () => boolean): Promise<void> {
	for (let round = 0; round < 400 && !condition(); round++) await new Promise((done) => setTimeout(done, 5));
	if (!condition()) throw new Error("condition never held");
}

let gateCalls = 0;

/** A gate on a temp dir, pi's dialogs and the editor scripted by the test. */
export function gateRig(
	dir: string,
	options: {
		target?: ReviewTarget;
		hasUI?: boolean;
		standing?: ReviewStanding;
		rpc?: boolean;
		host?: ScriptedHost;
		secret?: boolean;
		approvals?: TurnApprovals;
		mirror?: ChoicesMirror;
	} = {},
) {
	const clock = new ManualClock();
	const host = options.host ?? new ScriptedHost();
	const ui = new ScriptedUi(clock);
	let aborted = 0;
	const controller = new AbortController();
	const target = options.target ?? { host, hint: ":w accepts" };
	const gate = new ReviewGate({
		standing: () => options.standing ?? { on: true, source: "global" },
		target: async () => target,
		guard: async () => undefined,
		rpc: () => options.rpc ?? false,
		isSecretFile: () => options.secret ?? false,
		...(options.approvals && { approvals: () => options.approvals }),
		...(options.mirror && { mirror: options.mirror }),
		clock,
	});
	const ctx = {
		cwd: dir,
		hasUI: options.hasUI ?? true,
		ui,
		signal: controller.signal,
		abort: () => void aborted++,
	} as unknown as ExtensionContext;
	const call = (toolName: string, input: Record<string, unknown>) => {
		const event = { type: "tool_call", toolName, toolCallId: `call-${++gateCalls}`, input } as ToolCallEvent;
		return { event, result: gate.toolCall(event, ctx) };
	};
	return { gate, host, ui, clock, call, aborted: () => aborted, abortTurn: () => controller.abort() };
}
