import { homedir } from "node:os";
import { join } from "node:path";
import type { ProcessFacts } from "../editors/processes/process-facts.ts";
import { CLIENT_TIMEOUT_MARGIN_MS } from "../editors/state-dir/core/suggestion-offer.ts";
import { secretFilePatterns } from "../safety/core/secret-files.ts";
import { type IdeSettings, suggestionDebounceMs } from "../settings/core/settings.ts";
import type { SettingsFiles } from "../settings/settings-files.ts";
import { SUGGESTION_DEBOUNCE_MS, SUGGESTION_TIMEOUT_MS } from "../shared/core/timing.ts";
import type { SourcesConfig } from "./editor-sources.ts";

/**
 * The sources beyond the state dirs, as the user's settings and pi's environment make them: Zed's database,
 * Neovim's and Emacs's own servers, the IDE servers' lockfiles. A source turned off names the file that said so.
 */
export function editorSourcesOf(
	settings: IdeSettings,
	files: SettingsFiles,
	uid: number,
	env: NodeJS.ProcessEnv,
	{ facts, ignored }: { facts: ProcessFacts; ignored?: string },
): Pick<SourcesConfig, "zed" | "neovim" | "emacs" | "ideServers" | "facts" | "factsIgnored" | "vscodeSuggestions"> {
	const saidIn = (source: IdeSettings["zed"]["source"]) => (source === "project" ? files.project : files.global);
	const enabled = ({ on, source }: IdeSettings["zed"]) => ({ on, source: saidIn(source) });
	const testScope = env.PI_IDE_TEST_PROC_SCOPE;
	const dirs = { XDG_RUNTIME_DIR: env.XDG_RUNTIME_DIR, TMPDIR: env.TMPDIR };
	const debounceMs = suggestionDebounceMs(settings.suggestionDebounceMs, SUGGESTION_DEBOUNCE_MS);
	return {
		facts,
		...(ignored !== undefined && { factsIgnored: ignored }),
		// Offered only while suggestions are on (`ownEditors()`); the client applies the same secret-file globs.
		vscodeSuggestions: {
			debounceMs,
			timeoutMs: SUGGESTION_TIMEOUT_MS + CLIENT_TIMEOUT_MARGIN_MS,
			secretFiles: secretFilePatterns(settings.secretFiles),
		},
		zed: { enabled: enabled(settings.zed), env, home: homedir(), platform: process.platform, uid, testScope, facts },
		neovim: {
			enabled: enabled(settings.neovim),
			uid,
			platform: process.platform,
			env: { NVIM: env.NVIM, NVIM_LISTEN_ADDRESS: env.NVIM_LISTEN_ADDRESS, ...dirs },
			testScope,
			facts,
			// Drawn only while suggestions are on (`ownEditors()`), the source asks each time.
			suggestions: {
				debounceMs,
				keys: settings.suggestionKeys,
			},
		},
		emacs: {
			enabled: enabled(settings.emacs),
			uid,
			platform: process.platform,
			env: { INSIDE_EMACS: env.INSIDE_EMACS, ...dirs },
			testScope,
			facts,
		},
		ideServers: {
			mode: { mode: settings.ideServers.mode, source: saidIn(settings.ideServers.source) },
			uid,
			platform: process.platform,
			home: lockHome(env),
			facts,
			env: { ...lockDirEnv(env), CLAUDE_CODE_SSE_PORT: env.CLAUDE_CODE_SSE_PORT },
		},
	};
}

/** Where lock dirs are found: the user's home; a test's own root in tests (`PI_IDE_TEST_LOCK_ROOT`). */
function lockHome(env: NodeJS.ProcessEnv): string {
	const root = env.PI_IDE_TEST_LOCK_ROOT || (env.PI_IDE_TEST_FS_ROOT && join(env.PI_IDE_TEST_FS_ROOT, "home"));
	return root || homedir();
}

/** The lock dirs' variables; under a test's root only those inside it: a test never reads the developer's own. */
function lockDirEnv(env: NodeJS.ProcessEnv): { CLAUDE_CONFIG_DIR?: string; PI_IDE_LOCK_DIR?: string } {
	const root = env.PI_IDE_TEST_LOCK_ROOT || env.PI_IDE_TEST_FS_ROOT || undefined;
	const allowed = (value: string | undefined) =>
		root === undefined || value?.startsWith(`${root}/`) ? value : undefined;
	return { CLAUDE_CONFIG_DIR: allowed(env.CLAUDE_CONFIG_DIR), PI_IDE_LOCK_DIR: allowed(env.PI_IDE_LOCK_DIR) };
}
