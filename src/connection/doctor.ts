import type { Editor, EditorFacts, ListedEditor } from "../editors/core/editor.ts";
import type { StateDir } from "../editors/state-dir/state-dir.ts";
import type { SecretFileMatch } from "../safety/core/secret-files.ts";
import type { IdeSettings } from "../settings/core/settings.ts";
import type { SettingsFiles } from "../settings/settings-files.ts";
import { backgroundFailures } from "../shared/background.ts";
import type { ConnectionMemory } from "../shared/process-memory.ts";
import { recentEvents, resourceCount } from "../shared/process-memory.ts";
import { type DirReport, formatStatus, type StatusEnvironment, type StatusInput } from "./core/status-report.ts";

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

/** `/ide status` from what the controller holds now: its config, its sources' sections, the connected editor's facts. */
export function controllerStatusText(parts: {
	config: {
		environment?: Omit<StatusEnvironment, "uid">;
		uid: number;
		settings: IdeSettings;
		settingsFiles?: SettingsFiles;
		memory: ConnectionMemory;
	};
	dirs: DirReport[];
	sources: string[];
	projectDir: string;
	connectedSecret: SecretFileMatch | undefined;
	facts: EditorFacts | undefined;
	nowSeconds: number;
}): string {
	const { config, facts } = parts;
	return processStatusText({
		environment: { ...config.environment, uid: config.uid },
		dirs: parts.dirs,
		sources: parts.sources,
		projectDir: parts.projectDir,
		autoconnect: config.settings.autoconnect,
		settings: config.settings,
		settingsFiles: config.settingsFiles,
		connectedSecret: parts.connectedSecret,
		suppressed: config.memory.suppressed,
		connected: config.memory.connected,
		connectedRejection: facts && !facts.reading ? facts.rejection : undefined,
		nowSeconds: parts.nowSeconds,
	});
}
