import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDir } from "@mariozechner/pi-coding-agent";
import { type IdeSettings, resolveSettings } from "./core/settings.ts";

function readJson(path: string): unknown {
	try {
		return JSON.parse(readFileSync(path, "utf8"));
	} catch {
		return undefined;
	}
}

export interface SettingsFiles {
	global: string;
	project: string;
}

export function settingsFiles(cwd: string): SettingsFiles {
	return { global: join(getAgentDir(), "settings.json"), project: join(cwd, ".pi", "settings.json") };
}

/**
 * Both files, read here on both pi lines: which file said what matters (a project may not turn a guard off,
 * lists are joined), and pi 1.x's merged `getSettings()` keeps neither apart.
 */
export function readSettings(files: SettingsFiles): IdeSettings {
	return resolveSettings(readJson(files.global), readJson(files.project));
}
