import { homedir } from "node:os";
import type { ExtensionContext, ToolCallEvent, ToolCallEventResult } from "@mariozechner/pi-coding-agent";
import { realFile } from "../editors/real-paths.ts";
import { clip, sanitizeForDisplay } from "../shared/core/display-text.ts";
import { resolveToolPath } from "./core/tool-path.ts";
import type { UnsavedBuffer } from "./core/unsaved-buffers.ts";
import { FILE_WRITING_TOOLS, unsavedBlockNotice, unsavedBlockReason } from "./core/unsaved-texts.ts";

/**
 * `tool_call` handler: a `write` or `edit` of a file the connected editor holds with unsaved changes is
 * blocked, decided on the editor's latest write (`unsavedAfterPendingRead` waits for a read of it under
 * way, as a prompt does). Paths compare as real paths, resolved the way pi's own tools resolve the model's string.
 */
export async function guardUnsavedWrite(
	event: ToolCallEvent,
	ctx: ExtensionContext,
	unsavedAfterPendingRead: (target: string) => Promise<readonly UnsavedBuffer[]>,
): Promise<ToolCallEventResult | undefined> {
	if (!FILE_WRITING_TOOLS.has(event.toolName)) return undefined;
	const raw = (event.input as { path?: unknown } | undefined)?.path;
	if (typeof raw !== "string" || raw === "") return undefined;
	const target = await realFile(resolveToolPath(raw, ctx.cwd, homedir()));
	const unsaved = await unsavedAfterPendingRead(target);
	if (unsaved.length === 0) return undefined;
	const reals = await Promise.all(unsaved.map((buffer) => buffer.realFile ?? realFile(buffer.file)));
	const hit = unsaved[reals.indexOf(target)];
	if (hit === undefined) return undefined;
	if (ctx.hasUI) ctx.ui.notify(unsavedBlockNotice(clip(sanitizeForDisplay(hit.name), 120), event.toolName), "warning");
	return { block: true, reason: unsavedBlockReason(hit.file) };
}
