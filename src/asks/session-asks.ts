import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { IdeController } from "../connection/controller.ts";
import { mentionText } from "../references/shortcut.ts";
import { systemClock } from "../shared/clock.ts";
import { modelRefOf } from "../suggestions/model-call.ts";
import { AskService, type AskServiceParts } from "./ask-service.ts";
import type { PlaceholderContext } from "./placeholder-reader.ts";

/**
 * A session's asks from the editor, on pi's own functions: a prompt sent as a steered user message (it starts a
 * run when pi is idle), the session's model, its abort, and the connection of the moment. Print mode takes none.
 */
export function askServiceOf(
	pi: ExtensionAPI,
	ctx: ExtensionContext,
	session: {
		on: boolean;
		placeholders: PlaceholderContext;
		controller: () => IdeController | undefined;
		/** Text into pi's input (this session's surface); false once the session is gone. */
		insert: (text: string) => boolean;
		/** An editor's answer to one of pi's questions (questions/, a feature after this one). */
		questionReplied: AskServiceParts["questionReplied"];
	},
): AskService {
	const { controller } = session;
	return new AskService({
		on: () => session.on && ctx.hasUI,
		send: (text) => pi.sendUserMessage(text, { deliverAs: "steer" }),
		isIdle: () => ctx.isIdle(),
		model: () => modelRefOf(ctx.model),
		abort: () => ctx.abort(),
		insertInput: (file, lines) => {
			const project = controller()?.project;
			if (!ctx.hasUI || project === undefined) return undefined;
			const place = { cwd: ctx.cwd, projectDir: project, inputBefore: ctx.ui.getEditorText() };
			const text = mentionText({ file, ...(lines && { lines }) }, place);
			return session.insert(text) ? text : undefined;
		},
		connectAsked: (key, label) => controller()?.connectAsked(key, label) ?? false,
		followDisk: () => controller()?.followDisk() ?? Promise.resolve([]),
		placeholders: session.placeholders,
		questionReplied: session.questionReplied,
		clock: systemClock,
	});
}
