import { homedir } from "node:os";
import type { ToolResultEvent } from "@mariozechner/pi-coding-agent";
import { resolveToolPath } from "../safety/core/tool-path.ts";
import { FILE_WRITING_TOOLS } from "../safety/core/unsaved-texts.ts";
import { runInBackground } from "../shared/background.ts";

/**
 * `tool_result` handler: after the model's successful `write` or `edit`, the connected editor is told the file
 * changed (a Neovim or an Emacs reloads it when that is safe). Not awaited by the agent: the editor never holds
 * up a run, and what it did (reloaded, left alone, busy) is shown nowhere: the buffer itself shows it.
 */
export function showModelWrite(
	event: ToolResultEvent,
	cwd: string,
	afterModelWrite: (path: string) => Promise<unknown>,
): void {
	if (event.isError || !FILE_WRITING_TOOLS.has(event.toolName)) return;
	const raw = event.input.path;
	if (typeof raw !== "string" || raw === "") return;
	void runInBackground("show the model's write", () => afterModelWrite(resolveToolPath(raw, cwd, homedir())));
}
