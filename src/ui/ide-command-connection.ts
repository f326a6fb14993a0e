import type { AskService } from "../asks/ask-service.ts";
import type { IdeController } from "../connection/controller.ts";
import type { SessionReview } from "../review/session-review.ts";
import type { SuggestionService } from "../suggestions/suggestion-service.ts";
import { installVscodeClient } from "./client-install.ts";
import type { IdeCommandConnection } from "./ide-command.ts";

/** The controller's, the review's, the suggestions' and the asks' methods `/ide` calls, each bound. */
export function ideCommandConnection(
	controller: IdeController,
	review: SessionReview,
	suggestions: SuggestionService,
	asks: AskService,
): IdeCommandConnection {
	return {
		statusText: () =>
			[controller.statusText(), ...review.statusLines(), ...suggestions.statusLines(), ...asks.statusLines()].join(
				"\n",
			),
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
