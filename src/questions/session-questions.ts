import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AskingEditor } from "../editors/editor-asks.ts";
import type { ChoicesMirror } from "../review/choices-mirror.ts";
import type { IdeSettings } from "../settings/core/settings.ts";
import { QuestionMirror } from "./question-mirror.ts";
import { unmirrored, wrapUi } from "./ui-wrap.ts";

/** One session's question mirror: `ctx.ui` wrapped at the session's start, unwrapped at its end. */
export interface SessionQuestions {
	mirror: QuestionMirror;
	/** Mirroring is on for this session. */
	on: boolean;
	/** What the review is handed (an earlier feature: the port it declares). */
	choices: ChoicesMirror;
	close(): void;
}

/**
 * The mirror on this session's `ctx.ui` (print mode has none: nothing is wrapped). On while asks are on, unless
 * either settings file says `"mirrorQuestions": false`.
 */
export function sessionQuestions(
	ctx: ExtensionContext,
	settings: Pick<IdeSettings, "asks" | "mirrorQuestions">,
	runEditors: () => readonly AskingEditor[],
): SessionQuestions {
	const on = settings.asks.on && settings.mirrorQuestions.on && ctx.hasUI;
	const offReason = !settings.asks.on
		? `asks from editors are off (${settings.asks.source} settings)`
		: !settings.mirrorQuestions.on
			? `"mirrorQuestions": false in the ${settings.mirrorQuestions.source} settings`
			: "print mode has no dialogs";
	const mirror = new QuestionMirror({ on: () => on, ...(!on && { offReason }), runEditors });
	const unwrap = on ? wrapUi(ctx.ui, mirror) : () => {};
	return {
		mirror,
		on,
		choices: { choose: (title, choices, signal) => mirror.choose(title, choices, signal), unmirrored },
		close: () => {
			mirror.close();
			unwrap();
		},
	};
}
