import { readdir, readFile, readlink, stat } from "node:fs/promises";
import { hasExited, parseProcStat } from "../core/proc-stat.ts";
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

/** Processes read at once while scanning `/proc`: a few hundred at most, never thousands of open reads. */
const SCAN_BATCH = 64;

/**
 * This user's `zed-editor` processes, from `/proc` (Linux): their binary, and the launch environment and
 * arguments that say which data dir they write. A scan runs at start and when a database changes while no
 * Zed is known, never on a timer. Elsewhere there is no `/proc`: undefined, and `/ide status` says so.
 */
export async function zedProcesses(uid: number): Promise<ProcessFacts[] | undefined> {
	let pids: number[];
	try {
		pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name)).map(Number);
	} catch {
		return undefined;
	}
	const found: ProcessFacts[] = [];
	for (let index = 0; index < pids.length; index += SCAN_BATCH) {
		const batch = await Promise.all(pids.slice(index, index + SCAN_BATCH).map((pid) => zedProcess(pid, uid)));
		for (const facts of batch) if (facts) found.push(facts);
	}
	return found;
}

async function zedProcess(pid: number, uid: number): Promise<ProcessFacts | undefined> {
	const procStat = parseProcStat(await readFile(`/proc/${pid}/stat`, "utf8").catch(() => ""));
	// A Zed that quit but is not reaped yet has no environment left: it would pass for the Zed of any database.
	if (!procStat || !ZED_PROCESS_NAMES.has(procStat.name) || hasExited(procStat)) return undefined;
	const name = procStat.name;
	const owner = await stat(`/proc/${pid}`).catch(() => undefined);
	if (owner?.uid !== uid) return undefined;
	const [binary, environ, cmdline] = await Promise.all([
		readlink(`/proc/${pid}/exe`).catch(() => undefined),
		readFile(`/proc/${pid}/environ`).catch((error: NodeJS.ErrnoException) => (gone(error) ? null : undefined)),
		readFile(`/proc/${pid}/cmdline`).catch(() => undefined),
	]);
	// Gone while it was read: no Zed. An environment pi may not read (a process that is not dumpable) still
	// leaves a Zed, of whichever data dir.
	if (environ === null) return undefined;
	const argv = cmdline?.toString("utf8").split("\0").filter(Boolean).slice(0, 64);
	// A relative `--user-data-dir` counts from that Zed's own working directory: read only then.
	const cwd =
		argv && userDataDirArg(argv) === undefined && argv.some((arg) => arg.startsWith("--user-data-dir"))
			? await readlink(`/proc/${pid}/cwd`).catch(() => undefined)
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

/** Test-only: a test's pi sees only the Zeds started with the same value (see `ZedSourceOptions.testScope`). */
const TEST_SCOPE_KEY = "PI_IDE_TEST_PROC_SCOPE";

const gone = (error: NodeJS.ErrnoException) => error.code === "ESRCH" || error.code === "ENOENT";

/** The variables that say where that Zed keeps its data, and the test-only scope, in one pass. */
function readEnviron(environ: Buffer): { env: ZedEnv; testScope?: string } {
	const env: Record<string, string> = {};
	let testScope: string | undefined;
	for (const entry of environ.toString("utf8").split("\0")) {
		const equals = entry.indexOf("=");
		const key = entry.slice(0, equals);
		if (equals <= 0) continue;
		if (key === TEST_SCOPE_KEY) testScope = entry.slice(equals + 1);
		else if ((ZED_ENV_KEYS as readonly string[]).includes(key)) env[key] = entry.slice(equals + 1);
	}
	return { env, ...(testScope !== undefined && { testScope }) };
}
