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
export type ZedFacts = Pick<SystemFacts, "named" | "executable" | "environment" | "launchArgs" | "workingDir">;

/**
 * This user's Zed processes: their binary, and the launch environment and arguments that say which data dir
 * they write. Names come from one cheap listing first; details only for Zeds. A scan runs at start and when a
 * database changes while no Zed is known, never on a timer. Undefined when the system cannot be asked (the
 * reason is in `/ide status`'s Processes line).
 */
export async function zedProcesses(uid: number, facts: ZedFacts): Promise<ProcessFacts[] | undefined> {
	const named = await facts.named((name) => ZED_PROCESS_NAMES.has(name), uid, undefined);
	if (typeof named === "string") return undefined;
	const found = await Promise.all(named.map(({ pid, name }) => zedProcess(pid, name, facts)));
	return found.filter((zed): zed is ProcessFacts => zed !== undefined);
}

async function zedProcess(pid: number, name: string, facts: ZedFacts): Promise<ProcessFacts | undefined> {
	const [binary, environ, argv] = await Promise.all([
		facts.executable(pid),
		facts.environment(pid, [...ZED_ENV_KEYS, TEST_SCOPE_VARIABLE]),
		facts.launchArgs(pid, MAX_ZED_ARGS),
	]);
	// Gone while it was read: no Zed. An environment pi may not read (a process that is not dumpable) still
	// leaves a Zed, of whichever data dir.
	if (environ === null) return undefined;
	// A relative `--user-data-dir` counts from that Zed's own working directory: read only then.
	const cwd =
		argv && userDataDirArg(argv) === undefined && argv.some((arg) => arg.startsWith("--user-data-dir"))
			? await facts.workingDir(pid)
			: undefined;
	const { [TEST_SCOPE_VARIABLE]: testScope, ...env } = environ ?? {};
	return {
		pid,
		name,
		...(testScope !== undefined && { testScope }),
		...(binary !== undefined && { binary }),
		...(environ !== undefined && { env }),
		...(argv !== undefined && { argv }),
		...(cwd !== undefined && { cwd }),
	};
}
