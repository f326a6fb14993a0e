import type { IdeController } from "../connection/controller.ts";
import type { SessionReview } from "../review/session-review.ts";
import type { SuggestionService } from "../suggestions/suggestion-service.ts";
import { installVscodeClient } from "./client-install.ts";
import type { IdeCommandConnection } from "./ide-command.ts";

/**
 * The controller's, the review's and the suggestions' methods `/ide` calls, each bound; `moreStatus`: the later
 * features' parts of `/ide status` (the asks, the question mirror), in order.
 */
export function ideCommandConnection(
	controller: IdeController,
	review: SessionReview,
	suggestions: SuggestionService,
	moreStatus: readonly (() => string[])[],
): IdeCommandConnection {
	return {
		statusText: () =>
			[
				controller.statusText(),
				...review.statusLines(),
				...suggestions.statusLines(),
				...moreStatus.flatMap((lines) => lines()),
			].join("\n"),
		setReview: (on) => review.set(on),
		setSuggestions: (on) => suggestions.setForProcess(on),
		pickable: (all) => controller.pickable(all),
		liveEditors: () => controller.liveEditors(),
		connectedKey: () => controller.connectedEditor()?.key,
		connect: (editor, why) => controller.connect(editor, why),
		disconnect: (options) => controller.disconnect(options),
		noMatchText: () => controller.noMatchText(),
		nowSeconds: () => controller.nowSeconds(),
		lookAgain: () => controller.lookAgain(),
		installVscodeClient: () => installVscodeClient(process.env),
	};
}
