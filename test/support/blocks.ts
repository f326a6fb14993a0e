import type { IdeController } from "../../src/connection/controller.ts";
import type { EditorState } from "../../src/editors/core/protocol-state.ts";
import { contextMessage } from "../../src/prompt/core/context-message.ts";
import { NO_KNOWLEDGE } from "../../src/prompt/core/model-knowledge.ts";
import { editorNow, freshSelectionSource } from "../../src/prompt/core/prompt-editor.ts";
import { cutForPrompt, sentSelection } from "../../src/prompt/core/selection-payload.ts";
import { PromptContext, prepareSelection } from "../../src/prompt/message-builder.ts";

/** The block a first prompt would carry for `state` (nothing in the model's context yet), or undefined. */
export function firstBlockFor(
	state: EditorState,
	selectionFirstSeenSeconds: number,
	nowSeconds: number,
	projectDir = "/nonexistent-project",
): string | undefined {
	const fresh = freshSelectionSource(state, selectionFirstSeenSeconds, nowSeconds);
	const selection = fresh && sentSelection(fresh, cutForPrompt(fresh.selection), 0);
	return contextMessage(editorNow(state, projectDir, selection), NO_KNOWLEDGE)?.content;
}

/** What the controller's connected editor would put in a first prompt right now, through the real prompt path. */
export async function controllerBlock(controller: IdeController): Promise<string | undefined> {
	const prompts = new PromptContext(() => controller.project, prepareSelection({ redactSecrets: true }));
	const message = await prompts.message(await controller.connectedView(), NO_KNOWLEDGE);
	return message?.content;
}
