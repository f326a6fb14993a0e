import { homedir } from "node:os";
import { secretFileMatcher, secretFilePatterns } from "../safety/core/secret-files.ts";
import type { IdeSettings } from "../settings/core/settings.ts";

/** How references are read this session: against pi's cwd and home, with the session's secret-file rules. */
export function referenceOptions(cwd: string, settings: IdeSettings) {
	return {
		cwd,
		home: homedir(),
		secretFile: secretFileMatcher(secretFilePatterns(settings.secretFiles)),
		redactSecrets: settings.redactSecrets.on,
	};
}
