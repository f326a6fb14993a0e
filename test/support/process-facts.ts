import type { ProcessFactsBackend } from "../../src/editors/processes/core/backend-choice.ts";
import type { ProcessFacts } from "../../src/editors/processes/process-facts.ts";
import { systemProcessFacts } from "../../src/editors/processes/system-facts.ts";

/**
 * The real process facts a test's source asks (no stand-in): `/proc` by default, `ps` and `lsof` when the test
 * names that backend or the run sets `PI_IDE_PROCESS_FACTS=ps`.
 */
export function testProcessFacts(backend?: ProcessFactsBackend): ProcessFacts {
	const forced = backend ?? process.env.PI_IDE_PROCESS_FACTS ?? "proc";
	return systemProcessFacts({ PI_IDE_PROCESS_FACTS: forced }, process.platform, () => performance.now()).facts;
}

/** A client channel target's `listeningPaths`, from those facts. */
export function listeningPathsOf(
	facts: ProcessFacts = testProcessFacts(),
): (pid: number) => Promise<readonly string[]> {
	return async (pid) => (await facts.listeningUnixPaths([pid])).byPid.get(pid) ?? [];
}

/** A push listener's `startOf`: when the process on a pid started, from those facts. */
export function startOfProcess(facts: ProcessFacts = testProcessFacts()): (pid: number) => Promise<number | undefined> {
	return (pid) => facts.startOf(pid);
}

/** An Emacs session's `processOf`: its cwd and launch arguments, from those facts. */
export function processOfEmacs(
	facts: ProcessFacts = testProcessFacts(),
): (pid: number, maxArgs: number) => Promise<{ cwd?: string; argv?: string[] }> {
	return async (pid, maxArgs) => {
		const [cwds, args] = await Promise.all([facts.workingDirs([pid]), facts.launchArgs([pid], maxArgs)]);
		const [cwd, argv] = [cwds.get(pid), args.get(pid)];
		return { ...(cwd !== undefined && { cwd }), ...(argv !== undefined && { argv }) };
	};
}
