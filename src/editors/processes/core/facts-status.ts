import { show } from "../../../shared/core/display-text.ts";
import type { ProcessFactsBackend } from "./backend-choice.ts";

/** What `/ide status` is told of the process facts (`ProcessFacts.status()`). */
export interface FactsStatusInput {
	backend: ProcessFactsBackend;
	why: string;
	lsofVersion?: string;
	lastScanMs?: number;
	unknown: readonly string[];
	/** A `PI_IDE_PROCESS_FACTS` value that was not understood. */
	ignored?: string;
}

const BACKEND_NAMES: Record<ProcessFactsBackend, string> = { proc: "procfs", ps: "ps + lsof" };

/** `Processes: ps + lsof 4.95.0 (no /proc on darwin); last scan 23 ms`, then what could not be known. */
export function factsStatusLines(status: FactsStatusInput): string[] {
	const version = status.backend === "ps" && status.lsofVersion ? ` ${show(status.lsofVersion, 20)}` : "";
	const scan = status.lastScanMs === undefined ? "no scan yet" : `last scan ${Math.round(status.lastScanMs)} ms`;
	return [
		`Processes: ${BACKEND_NAMES[status.backend]}${version} (${show(status.why, 80)}); ${scan}`,
		...(status.ignored ? [`  ${show(status.ignored, 120)}`] : []),
		...status.unknown.map((fact) => `  unknown: ${show(fact, 200)}`),
	];
}
