import { parseJsonc } from "../../../shared/core/jsonc.ts";

/**
 * What Zed's own settings mean for what pi can see. Zed writes no selection rows under
 * `"restore_on_startup": "empty_tab"` (alias `"none"`), so pi knows the file but never the cursor; with
 * `"session": { "restore_unsaved_buffers": false }` it stores no unsaved text, so a dirty buffer looks saved
 * and its positions index text pi cannot see (they are read against the file on disk).
 */
export interface ZedSettingsFacts {
	/** `restore_on_startup` as Zed reads it (`none` is `empty_tab`); `last_session` by default. */
	restoreOnStartup: string;
	/** `session.restore_unsaved_buffers`: true by default. */
	restoreUnsavedBuffers: boolean;
	/** Why the file could not be read as settings (the defaults stand then). */
	problem?: string;
}

export const ZED_DEFAULT_SETTINGS: ZedSettingsFacts = { restoreOnStartup: "last_session", restoreUnsavedBuffers: true };

/** The restore modes under which Zed records no cursor for pi to read. */
const NO_CURSOR_MODES: ReadonlySet<string> = new Set(["empty_tab"]);

const section = (value: unknown, key: string): Record<string, unknown> | undefined => {
	const inner = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
	return typeof inner === "object" && inner !== null && !Array.isArray(inner)
		? (inner as Record<string, unknown>)
		: undefined;
};

/** The user's `settings.json` (undefined: no file) as the facts pi needs. */
export function zedUserSettings(text: string | undefined): ZedSettingsFacts {
	if (text === undefined || text.trim() === "") return ZED_DEFAULT_SETTINGS;
	const parsed = parseJsonc(text);
	if (!parsed.ok) return { ...ZED_DEFAULT_SETTINGS, problem: parsed.reason };
	const root =
		typeof parsed.value === "object" && parsed.value !== null ? (parsed.value as Record<string, unknown>) : {};
	const mode = root.restore_on_startup;
	const unsaved = section(root, "session")?.restore_unsaved_buffers;
	return {
		restoreOnStartup:
			typeof mode === "string" ? (mode === "none" ? "empty_tab" : mode) : ZED_DEFAULT_SETTINGS.restoreOnStartup,
		restoreUnsavedBuffers: typeof unsaved === "boolean" ? unsaved : ZED_DEFAULT_SETTINGS.restoreUnsavedBuffers,
	};
}

/** A workspace's `.zed/settings.json` may set `session.restore_unsaved_buffers` for its own buffers. */
export function workspaceRestoresUnsaved(user: ZedSettingsFacts, workspaceText: string | undefined): boolean {
	if (workspaceText === undefined) return user.restoreUnsavedBuffers;
	const parsed = parseJsonc(workspaceText);
	const unsaved = parsed.ok ? section(parsed.value, "session")?.restore_unsaved_buffers : undefined;
	return typeof unsaved === "boolean" ? unsaved : user.restoreUnsavedBuffers;
}

export const recordsCursor = (facts: ZedSettingsFacts) => !NO_CURSOR_MODES.has(facts.restoreOnStartup);

/** `/ide status`'s words for the settings that limit what pi sees, one line each; none when nothing does. */
export function zedSettingsLines(facts: ZedSettingsFacts, file: string): string[] {
	const lines: string[] = [];
	if (facts.problem) lines.push(`  Zed settings ${file}: ${facts.problem}; Zed's defaults assumed`);
	if (!recordsCursor(facts))
		lines.push(
			`  Zed settings: "restore_on_startup": "${facts.restoreOnStartup}": Zed records no cursor or selection, pi sees the file only`,
		);
	if (!facts.restoreUnsavedBuffers)
		lines.push(
			'  Zed settings: "session": { "restore_unsaved_buffers": false }: Zed stores no unsaved text, so unsaved changes look saved, positions are against the file on disk, and the guard cannot see them',
		);
	return lines;
}
