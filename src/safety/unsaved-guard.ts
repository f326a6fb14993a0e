import { homedir } from "node:os";
import type { ExtensionContext, ToolCallEvent, ToolCallEventResult } from "@mariozechner/pi-coding-agent";
import type { IdeController } from "../connection/controller.ts";
import { absoluteFile } from "../editors/core/active-buffer.ts";
import { realFile } from "../editors/real-paths.ts";
import { clip, sanitizeForDisplay } from "../shared/core/display-text.ts";
import { resolveToolPath } from "./core/tool-path.ts";
import { FILE_WRITING_TOOLS, unsavedBlockNotice, unsavedBlockReason } from "./core/unsaved-texts.ts";

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
	if (view.kind !== "editor") return undefined;
	// The active file when modified, and every other file the editor says is unsaved (Zed tells each tab's).
	const active = view.state.active_buffer?.modified === true ? absoluteFile(view.state) : undefined;
	const unsaved = [...(active === undefined ? [] : [active]), ...(view.unsavedFiles ?? [])];
	if (unsaved.length === 0) return undefined;
	const target = await realFile(resolveToolPath(raw, ctx.cwd, homedir()));
	const opens = await Promise.all(
		unsaved.map((file) => (file === active && view.realFile ? view.realFile : realFile(file))),
	);
	const index = opens.indexOf(target);
	const editorFile = unsaved[index];
	if (editorFile === undefined) return undefined;
	if (ctx.hasUI) {
		const name = clip(
			sanitizeForDisplay(editorFile === active ? view.state.active_buffer?.name || editorFile : editorFile),
			120,
		);
		ctx.ui.notify(unsavedBlockNotice(name, event.toolName), "warning");
	}
	return { block: true, reason: unsavedBlockReason(editorFile) };
}
