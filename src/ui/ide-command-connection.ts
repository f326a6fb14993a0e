import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import type { IdeController } from "../connection/controller.ts";
import type { SessionReview } from "../review/session-review.ts";
import type { SuggestionService } from "../suggestions/suggestion-service.ts";
import { installVscodeClient } from "./client-install.ts";
import { IDE_SUBCOMMANDS, type IdeCommandConnection, runIdeCommand } from "./ide-command.ts";

/** `/ide` on the session of the moment (`connection` starts one when none has yet; undefined: none could). */
export function registerIdeCommand(
	pi: ExtensionAPI,
	connection: (ctx: ExtensionCommandContext) => Promise<IdeCommandConnection | undefined>,
): void {
	pi.registerCommand("ide", {
		description:
			"Connect pi to an editor: /ide, /ide all, /ide off, /ide status, /ide review on|off, /ide suggestions on|off, /ide install vscode",
		getArgumentCompletions: (prefix) => {
			const matches = IDE_SUBCOMMANDS.filter((item) => item.value.startsWith(prefix.trim()));
			return matches.length > 0 ? matches.map((item) => ({ ...item })) : null;
		},
		handler: async (args, ctx) => {
			const connected = await connection(ctx);
			if (connected) await runIdeCommand(args, ctx, connected);
		},
	});
}

/**
 * The controller's, the review's and the suggestions' methods `/ide` calls, each bound; `moreStatus`: the later
 * features' parts of `/ide status` (the asks, the question mirror, pi-bridge's socket), in order.
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
