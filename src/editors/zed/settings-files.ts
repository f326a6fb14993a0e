import { posix } from "node:path";
import { type ZedEnv, zedConfigDir } from "./core/data-dirs.ts";
import { workspaceRestoresUnsaved, type ZedSettingsFacts, zedUserSettings } from "./core/settings.ts";
import type { RunningZed } from "./core/which-zed.ts";
import { changedFileTexts } from "./file-texts.ts";

/** A settings file larger than this is not read: settings are a few KiB, and the read is on pi's path. */
const MAX_SETTINGS_BYTES = 1024 * 1024;
/** The user's file and a few workspaces' `.zed/settings.json`: a few KiB each. */
const SETTINGS_CACHE_BYTES = 4 * 1024 * 1024;

/**
 * Zed's own settings files, as far as they change what pi sees: the user's (`settings.json` in the running
 * Zed's config dir) and a workspace's `.zed/settings.json`. Each is read again only when its size or mtime moved.
 */
export class ZedSettingsFiles {
	private readonly files = changedFileTexts(MAX_SETTINGS_BYTES, SETTINGS_CACHE_BYTES);

	/** The running Zed's user settings (Zed's defaults where there is no file), and where they were looked for. */
	async user(
		zed: RunningZed | undefined,
		where: { env: ZedEnv; home: string; platform: string },
	): Promise<{ facts: ZedSettingsFacts; file: string }> {
		const configDir = zed?.configDir ?? zedConfigDir(where.env, where.home, undefined, where.platform);
		const file = posix.join(configDir, "settings.json");
		return { facts: zedUserSettings(await this.files.read(file)), file };
	}

	/** Whether Zed keeps unsaved text for a workspace: its first root's `.zed/settings.json` may say. */
	async restoresUnsaved(user: ZedSettingsFacts, roots: readonly string[]): Promise<boolean> {
		const root = roots[0];
		const text = root === undefined ? undefined : await this.files.read(posix.join(root, ".zed", "settings.json"));
		return workspaceRestoresUnsaved(user, text);
	}
}
