import type { IdeController } from "../../src/connection/controller.ts";
import type { EditorState } from "../../src/editors/core/protocol-state.ts";
import { contextMessage } from "../../src/prompt/core/context-message.ts";
import { editorForPrompt, freshSelectionSource } from "../../src/prompt/core/editor-for-prompt.ts";
import { NO_KNOWLEDGE } from "../../src/prompt/core/model-knowledge.ts";
import { cutForPrompt, sentSelection } from "../../src/prompt/core/selection-payload.ts";
import { MessageBuilder, prepareSelection } from "../../src/prompt/message-builder.ts";

/**
 * The core's composition for a first prompt (nothing in the model's context yet, no redaction): what the
 * core tests pin exact texts against, and the property tests check for raw control characters. Never the
 * expected value of a test: a test of pi's output compares it with a pinned text.
 */
export function firstBlockFor(
	state: EditorState,
	selectionFirstSeenSeconds: number,
	nowSeconds: number,
	projectDir = "/nonexistent-project",
): string | undefined {
	const fresh = freshSelectionSource(state, selectionFirstSeenSeconds, nowSeconds);
	const selection = fresh && sentSelection(fresh, cutForPrompt(fresh.selection), 0);
	return contextMessage(editorForPrompt(state, projectDir, selection), NO_KNOWLEDGE)?.content;
}

/** What the controller's connected editor would put in a first prompt right now, through the real prompt path. */
export async function controllerBlock(controller: IdeController): Promise<string | undefined> {
	const builder = new MessageBuilder(() => controller.project, prepareSelection({ redactSecrets: true }));
	const references = {
		cwd: controller.project,
		home: "/nonexistent-home",
		secretFile: () => undefined,
		redactSecrets: true,
	};
	const view = await controller.viewAfterPendingRead();
	const message = await builder.forPrompt(view, NO_KNOWLEDGE, { texts: [], mode: "auto", references });
	return message?.content;
}
