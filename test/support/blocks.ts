import { contextMessage } from "../../src/core/context-message.ts";
import { editorNow, freshSelectionSource } from "../../src/core/editor-now.ts";
import { NO_KNOWLEDGE } from "../../src/core/model-knowledge.ts";
import { cutForPrompt, sentSelection } from "../../src/core/selection-payload.ts";
import type { EditorState } from "../../src/core/state-schema.ts";
import type { IdeController } from "../../src/shell/ide-controller.ts";
import { PromptContext, prepareSelection } from "../../src/shell/prompt-context.ts";

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
