import { type ProcessFacts as SystemFacts, TEST_SCOPE_VARIABLE } from "../processes/process-facts.ts";
import { userDataDirArg } from "./core/data-dirs.ts";
import { type ProcessFacts, ZED_PROCESS_NAMES } from "./core/which-zed.ts";

const ZED_ENV_KEYS = [
	"HOME",
	"FLATPAK_XDG_DATA_HOME",
	"XDG_DATA_HOME",
	"XDG_CONFIG_HOME",
	"LOCALAPPDATA",
	"ZED_STATELESS",
] as const;

/** Launch arguments read at most: enough for `--user-data-dir` among a Zed's few. */
const MAX_ZED_ARGS = 64;

/** What a look for Zeds asks of the system's processes. */
export type ZedFacts = Pick<SystemFacts, "named" | "executables" | "environments" | "launchArgs" | "workingDirs">;

/**
 * This user's Zed processes: their binary, and the launch environment and arguments that say which data dir
 * they write. Names come from one cheap listing first; details only for Zeds, each asked of all at once. A scan
 * runs at start and when a database changes while no Zed is known, never on a timer. Undefined when the system
 * cannot be asked (the reason is in `/ide status`'s Processes line).
 */
export async function zedProcesses(uid: number, facts: ZedFacts): Promise<ProcessFacts[] | undefined> {
	const named = await facts.named((name) => ZED_PROCESS_NAMES.has(name), uid, undefined);
	if (typeof named === "string") return undefined;
	if (named.length === 0) return [];
	const pids = named.map(({ pid }) => pid);
	const [binaries, environments, launchArgs] = await Promise.all([
		facts.executables(pids),
		facts.environments(pids, [...ZED_ENV_KEYS, TEST_SCOPE_VARIABLE]),
		facts.launchArgs(pids, MAX_ZED_ARGS),
	]);
	// A relative `--user-data-dir` counts from that Zed's own working directory: read only for those.
	const relative = pids.filter((pid) => {
		const argv = launchArgs.get(pid);
		return argv && userDataDirArg(argv) === undefined && argv.some((arg) => arg.startsWith("--user-data-dir"));
	});
	const cwds = relative.length > 0 ? await facts.workingDirs(relative) : new Map<number, string>();
	const found: ProcessFacts[] = [];
	for (const { pid, name } of named) {
		// Gone while it was read: no Zed. An environment pi may not read (a process that is not dumpable) still
		// leaves a Zed, of whichever data dir.
		if (!environments.has(pid)) continue;
		const environ = environments.get(pid);
		const { [TEST_SCOPE_VARIABLE]: testScope, ...env } = environ ?? {};
		const [binary, argv, cwd] = [binaries.get(pid), launchArgs.get(pid), cwds.get(pid)];
		found.push({
			pid,
			name,
			...(testScope !== undefined && { testScope }),
			...(binary !== undefined && { binary }),
			...(environ !== undefined && { env }),
			...(argv !== undefined && { argv }),
			...(cwd !== undefined && { cwd }),
		});
	}
	return found;
}
