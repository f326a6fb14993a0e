import type { EditorChannel } from "../editors/diff-channels.ts";
import { type IdeSettings, type ReviewStanding, reviewStanding } from "../settings/core/settings.ts";
import { reviewMemory } from "../shared/process-memory.ts";
import { reviewToggledText } from "./core/review-status.ts";
import { showsText, targetOf } from "./hosts/target-of.ts";
import { ReviewGate, type ReviewGateInputs } from "./review-gate.ts";

/** What one session's review reads of the rest: the setting, the connected editor's channel, the guard. */
export interface SessionReviewInputs
	extends Pick<ReviewGateInputs, "guard" | "rpc" | "clock" | "isSecretFile" | "mirror" | "approvals"> {
	setting: IdeSettings["review"];
	/** Print mode: a project's `true` does not apply. */
	printMode: boolean;
	/** The connected editor's channel and its name as the user reads it. */
	connected: () => { channel: EditorChannel; editorName: string };
	/** Review was turned on or off: the widget and the event follow. */
	changed: () => void;
}

/**
 * Review for one session: on or off (the settings, `/ide review` for this pi process), the gate that runs each
 * review, and what `/ide status` says of it.
 */
export class SessionReview {
	readonly gate: ReviewGate;

	constructor(private readonly inputs: SessionReviewInputs) {
		this.gate = new ReviewGate({
			standing: () => this.standing(),
			target: async () => {
				const { channel, editorName } = inputs.connected();
				return targetOf(channel, editorName);
			},
			guard: inputs.guard,
			rpc: inputs.rpc,
			clock: inputs.clock,
			isSecretFile: inputs.isSecretFile,
			...(inputs.mirror && { mirror: inputs.mirror }),
			...(inputs.approvals && { approvals: inputs.approvals }),
		});
	}

	standing(): ReviewStanding {
		return reviewStanding(this.inputs.setting, reviewMemory().override, this.inputs.printMode);
	}

	/** `/ide review on|off`: for this pi process, over the settings; on asks again after "accept all". */
	set(on: boolean): string {
		reviewMemory().override = on;
		if (on) this.gate.askAgain();
		this.inputs.changed();
		return reviewToggledText(on);
	}

	statusLines(): string[] {
		const { channel, editorName } = this.inputs.connected();
		return this.gate.statusLines(showsText(channel, editorName));
	}
}
