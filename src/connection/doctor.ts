import type { Editor, ListedEditor } from "../editors/core/editor.ts";
import type { StateDir } from "../editors/state-dir/state-dir.ts";
import type { DirReport } from "./core/status-report.ts";

/** What `/ide status` and `/ide` say of each state dir: its standing, and each file's editor matched. */
export function dirReports(dirs: readonly StateDir[], withMatch: (editor: ListedEditor) => Editor): DirReport[] {
	return dirs.map((dir) => ({
		...dir.standing(),
		files: dir.files().map(({ editor, ...file }) => ({ ...file, ...(editor && { editor: withMatch(editor) }) })),
	}));
}
