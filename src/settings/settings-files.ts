import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDir } from "@mariozechner/pi-coding-agent";
import { firstTimeInProcess } from "../shared/process-memory.ts";
import { type IdeSettings, resolveSettings, type SettingsProblem } from "./core/settings.ts";
import { type SettingsFileRead, settingsFileValue, settingsProblemNotice } from "./core/settings-file.ts";

export interface SettingsFiles {
	global: string;
	project: string;
}

export function settingsFiles(cwd: string): SettingsFiles {
	return { global: join(getAgentDir(), "settings.json"), project: join(cwd, ".pi", "settings.json") };
}

/** No file (or no `.pi` dir) is no settings, as pi reads it; anything else that fails is named. */
function readText(path: string): SettingsFileRead {
	try {
		return { kind: "text", text: readFileSync(path, "utf8") };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
		return code === "ENOENT" || code === "ENOTDIR" ? { kind: "missing" } : { kind: "unreadable", code };
	}
}

/**
 * Both files, read here on both pi lines: which file said what matters (a project may not turn a guard off,
 * lists are joined), and pi 1.x's merged `getSettings()` keeps neither apart. A file that is there but cannot
 * be used counts as not set, and says so in `problems`.
 */
export function readSettings(files: SettingsFiles): IdeSettings {
	const global = settingsFileValue("global", files.global, readText(files.global));
	const project = settingsFileValue("project", files.project, readText(files.project));
	const problems = [global.problem, project.problem].filter((problem) => problem !== undefined);
	return resolveSettings(global.value, project.value, problems, files.project);
}

/** The warnings not yet given for these settings' problems, each given once per pi process. */
export function settingsWarnings(settings: IdeSettings): string[] {
	// Once per pi process: a new session (`/new`, `/resume`, `/reload`) does not warn again.
	const fresh = settings.problems.filter((problem) => firstTimeInProcess(problemKey(problem)));
	return fresh.map((problem) => settingsProblemNotice(problem, settings));
}

const problemKey = (problem: SettingsProblem) =>
	`settings problem\u0000${problem.file}\u0000${problem.reason}\u0000${problem.line}`;
