import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ExtensionAPI, getAgentDir } from "@mariozechner/pi-coding-agent";
import { resolveAutoconnect } from "../core/settings.ts";

function readJson(path: string): unknown {
	try {
		return JSON.parse(readFileSync(path, "utf8"));
	} catch {
		return undefined;
	}
}

/** pi 1.x merges global and project settings for us; pi 0.73 has no `getSettings`, so read both files. */
export function readAutoconnect(pi: ExtensionAPI, cwd: string): boolean {
	const getSettings = (pi as { getSettings?: () => unknown }).getSettings;
	if (typeof getSettings === "function") {
		try {
			return resolveAutoconnect(undefined, getSettings.call(pi));
		} catch {
			// Fall through to the files: a settings error must not take the extension down.
		}
	}
	return resolveAutoconnect(
		readJson(join(getAgentDir(), "settings.json")),
		readJson(join(cwd, ".pi", "settings.json")),
	);
}
