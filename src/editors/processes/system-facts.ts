import { chooseBackend, PROCESS_FACTS_VARIABLE } from "./core/backend-choice.ts";
import { ProcBackend } from "./proc-backend.ts";
import { procStatOf } from "./proc-files.ts";
import type { ProcessFacts } from "./process-facts.ts";
import { PsBackend } from "./ps-backend.ts";

/**
 * The process facts this pi uses, chosen once from its platform, whether `/proc` shows pi itself, and
 * `PI_IDE_PROCESS_FACTS`; what was ignored of that variable is said with the choice.
 */
export function systemProcessFacts(
	env: Readonly<Record<string, string | undefined>>,
	platform: string,
	nowMs: () => number,
): { facts: ProcessFacts; ignored?: string } {
	// An empty /proc (a tmpfs over it, a sandbox) lists nothing: readable means pi finds its own process there.
	const choice = chooseBackend(env[PROCESS_FACTS_VARIABLE], platform, procStatOf(process.pid) !== undefined);
	const facts =
		choice.backend === "proc" ? new ProcBackend(choice.why, nowMs) : new PsBackend(choice.why, platform, nowMs);
	return { facts, ...(choice.ignored !== undefined && { ignored: choice.ignored }) };
}

const FACTS_KEY = Symbol.for("pi-ide-context.process-facts");

/**
 * The process facts of this pi process, chosen at its first session and kept across sessions (on `globalThis`:
 * pi 0.73 imports the extension again per session): what `ps` recorded of each pid's start outlives a `/new`.
 */
export function processFactsOfThisPi(): { facts: ProcessFacts; ignored?: string } {
	const holder = globalThis as { [FACTS_KEY]?: { facts: ProcessFacts; ignored?: string } };
	holder[FACTS_KEY] ??= systemProcessFacts(process.env, process.platform, () => performance.now());
	return holder[FACTS_KEY];
}
