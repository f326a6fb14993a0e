import type { Editor, ListedEditor } from "../editors/core/editor.ts";
import type { StateDir } from "../editors/state-dir/state-dir.ts";
import { backgroundFailures } from "../shared/background.ts";
import { recentEvents, resourceCount } from "../shared/process-memory.ts";
import { type DirReport, formatStatus, type StatusInput } from "./core/status-report.ts";

/** What `/ide status` and `/ide` say of each state dir: its standing, and each file's editor matched. */
export function dirReports(dirs: readonly StateDir[], withMatch: (editor: ListedEditor) => Editor): DirReport[] {
	return dirs.map((dir) => ({
		...dir.standing(),
		files: dir.files().map(({ editor, ...file }) => ({ ...file, ...(editor && { editor: withMatch(editor) }) })),
	}));
}

/** `/ide status`: what the session's controller knows, and what this pi process holds across sessions. */
export function processStatusText(session: Omit<StatusInput, "resources" | "events" | "background">): string {
	return formatStatus({
		...session,
		resources: resourceCount(),
		events: recentEvents(),
		background: backgroundFailures(),
	});
}
