import { hasExited } from "../processes/core/proc-stat.ts";
import {
	cmdlineOf,
	commOf,
	cwdOf,
	environOf,
	exeOf,
	ownerOf,
	processIds,
	procStatOf,
	TEST_SCOPE_VARIABLE,
} from "../processes/proc-files.ts";
import type { ZedEnv } from "./core/data-dirs.ts";
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

/**
 * This user's `zed-editor` processes, from `/proc` (Linux): their binary, and the launch environment and
 * arguments that say which data dir they write. Names come from `comm` first; details only for Zeds. A scan
 * runs at start and when a database changes while no Zed is known, never on a timer. Elsewhere there is no
 * `/proc`: undefined, and `/ide status` says so.
 */
export async function zedProcesses(uid: number): Promise<ProcessFacts[] | undefined> {
	const pids = processIds();
	if (pids === undefined) return undefined;
	const named = pids.filter((pid) => ZED_PROCESS_NAMES.has(commOf(pid).trimEnd()));
	const found = await Promise.all(named.map((pid) => zedProcess(pid, uid)));
	return found.filter((facts): facts is ProcessFacts => facts !== undefined);
}

async function zedProcess(pid: number, uid: number): Promise<ProcessFacts | undefined> {
	const procStat = procStatOf(pid);
	// A Zed that quit but is not reaped yet has no environment left: it would pass for the Zed of any database.
	if (!procStat || !ZED_PROCESS_NAMES.has(procStat.name) || hasExited(procStat)) return undefined;
	const name = procStat.name;
	if ((await ownerOf(pid)) !== uid) return undefined;
	const [binary, environ, argv] = await Promise.all([exeOf(pid), environOf(pid), cmdlineOf(pid, MAX_ZED_ARGS)]);
	// Gone while it was read: no Zed. An environment pi may not read (a process that is not dumpable) still
	// leaves a Zed, of whichever data dir.
	if (environ === null) return undefined;
	// A relative `--user-data-dir` counts from that Zed's own working directory: read only then.
	const cwd =
		argv && userDataDirArg(argv) === undefined && argv.some((arg) => arg.startsWith("--user-data-dir"))
			? await cwdOf(pid)
			: undefined;
	const { env, testScope } = environ === undefined ? {} : readEnviron(environ);
	return {
		pid,
		name,
		...(testScope !== undefined && { testScope }),
		...(binary !== undefined && { binary }),
		...(env !== undefined && { env }),
		...(argv !== undefined && { argv }),
		...(cwd !== undefined && { cwd }),
	};
}

/** The variables that say where that Zed keeps its data, and the test-only scope, in one pass. */
function readEnviron(environ: Buffer): { env: ZedEnv; testScope?: string } {
	const env: Record<string, string> = {};
	let testScope: string | undefined;
	for (const entry of environ.toString("utf8").split("\0")) {
		const equals = entry.indexOf("=");
		const key = entry.slice(0, equals);
		if (equals <= 0) continue;
		if (key === TEST_SCOPE_VARIABLE) testScope = entry.slice(equals + 1);
		else if ((ZED_ENV_KEYS as readonly string[]).includes(key)) env[key] = entry.slice(equals + 1);
	}
	return { env, ...(testScope !== undefined && { testScope }) };
}
