import { homedir } from "node:os";
import type { ExtensionContext, ToolCallEvent, ToolCallEventResult } from "@mariozechner/pi-coding-agent";
import { clip, sanitizeForDisplay } from "../core/display-text.ts";
import { absoluteFile } from "../core/editor-view.ts";
import { resolveToolPath } from "../core/tool-path.ts";
import { FILE_WRITING_TOOLS, unsavedBlockNotice, unsavedBlockReason } from "../core/unsaved-guard.ts";
import type { IdeController } from "./ide-controller.ts";
import { realFile } from "./path-evidence.ts";

/**
 * `tool_call` handler: a `write` or `edit` of the file the connected editor shows with unsaved changes is
 * blocked, decided on the editor's latest write (a pending read of its state file is flushed first, as for
 * a prompt). Paths compare as real paths, resolved the way pi's own tools resolve the model's string.
 */
export async function guardUnsavedWrite(
	event: ToolCallEvent,
	ctx: ExtensionContext,
	controller: IdeController,
): Promise<ToolCallEventResult | undefined> {
	if (!FILE_WRITING_TOOLS.has(event.toolName)) return undefined;
	const raw = (event.input as { path?: unknown } | undefined)?.path;
	if (typeof raw !== "string" || raw === "") return undefined;
	const view = await controller.connectedView();
	if (view.kind !== "editor" || view.state.active_buffer?.modified !== true) return undefined;
	const editorFile = absoluteFile(view.state);
	if (editorFile === undefined) return undefined;
	const [target, open] = await Promise.all([
		realFile(resolveToolPath(raw, ctx.cwd, homedir())),
		view.realFile ?? realFile(editorFile),
	]);
	if (target !== open) return undefined;
	if (ctx.hasUI) {
		const name = clip(sanitizeForDisplay(view.state.active_buffer?.name || editorFile), 120);
		ctx.ui.notify(unsavedBlockNotice(name, event.toolName), "warning");
	}
	return { block: true, reason: unsavedBlockReason(editorFile) };
}
