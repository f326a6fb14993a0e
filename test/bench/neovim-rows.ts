/** Group 10 of the benchmark: Neovim read over its own server, each row beside `"neovim": false` in the same run. */

import { startupTime } from "./in-process-scenarios.ts";
import {
	extraProcesses,
	neovimIdleCpu,
	neovimKeyToWidget,
	neovimPromptCost,
	neovimSkipReason,
} from "./neovim-scenarios.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import type { Implementation } from "./rpc-scenarios.ts";
import { max, median, percentile } from "./stats.ts";

const ms = (value: number) =>
	Number.isFinite(value) ? `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms` : "n/a";
const SHORTS = [
	"Neovim key to widget p50 / p95 / max",
	"prompt cost, Neovim vs a state file, p50 / p99",
	"idle CPU per 60 s, three Neovims elsewhere",
	"start-up with 500 more processes to scan",
];

export async function neovimRows(
	ours: Implementation,
	size: { neovimKeys: number; prompts: number; idleSeconds: number; idleWindows: number; startupRepeats: number },
): Promise<ReportRow[]> {
	const skip = neovimSkipReason();
	if (skip) {
		return SHORTS.map((short) => skippedRow(10, short, skip));
	}
	const rows: ReportRow[] = [];
	const keys = await neovimKeyToWidget(size.neovimKeys);
	rows.push({
		short: SHORTS[0] as string,
		measure: `10. a key in a real Neovim 0.7.2 with a UI (nvim_input, as typed) -> pi's widget shows what it did, ${keys.length} keys 100-250 ms apart growing a linewise selection, pi 0.73 RPC, p50 / p95 / max`,
		ours: `${ms(median(keys))} / ${ms(percentile(keys, 95))} / ${ms(max(keys))}`,
		baseline: "",
		ratio: "",
		target: "p50 <= 50 ms, p95 <= 150 ms",
		met: median(keys) <= 50 && percentile(keys, 95) <= 150,
		raw: { samples: keys },
	});
	const prompt = await neovimPromptCost(ours, size.prompts);
	const [neovimP50, fileP50] = [median(prompt.neovim), median(prompt.stateFile)];
	rows.push({
		short: SHORTS[1] as string,
		measure: `10. before_agent_start per prompt (${size.prompts} prompts each), the connected editor a Neovim read over its server against the same file from a state file with "neovim": false, p50 / p99`,
		ours: `Neovim ${ms(neovimP50)} / ${ms(percentile(prompt.neovim, 99))}; state file ${ms(fileP50)} / ${ms(percentile(prompt.stateFile, 99))}`,
		baseline: "",
		ratio: "",
		target: "unchanged: Neovim p50 <= state file p50 + 0.05 ms",
		met: neovimP50 <= fileP50 + 0.05,
		raw: prompt,
	});
	const [read, off, offAgain] = await Promise.all(
		[true, false, false].map((on) => neovimIdleCpu(size.idleSeconds, size.idleWindows, on)),
	);
	const above = (values: number[] = [], beside: number[] = []) =>
		median(values.map((value, window) => value - (beside[window] ?? 0)));
	const resolution = Math.abs(above(offAgain, off));
	const readAbove = above(read, off);
	rows.push({
		short: SHORTS[2] as string,
		measure: `10. idle CPU of the pi process over ${size.idleSeconds} s with three plain Neovims running in other dirs (read once, no pushes), Neovim read against "neovim": false beside it, median of ${size.idleWindows} windows' differences (a second "neovim": false process beside it: ${above(offAgain, off)} ms: the resolution)`,
		ours: `${readAbove} ms above "neovim": false (samples ${read?.join(", ")} against ${off?.join(", ")})`,
		baseline: "",
		ratio: "",
		target: `within the resolution (${resolution} ms, at least the 10 ms tick)`,
		met: readAbove <= Math.max(resolution, 10),
		raw: { readingNeovim: read, notReading: off, notReadingAgain: offAgain },
	});
	const stop = extraProcesses(500);
	// The row is about the scan: the machine's own Neovims (each a connection) stay out of it.
	const scope = process.env.PI_IDE_TEST_PROC_SCOPE;
	process.env.PI_IDE_TEST_PROC_SCOPE = `pi-ide-bench-startup-${process.pid}`;
	try {
		const on: number[] = [];
		const offStart: number[] = [];
		for (let i = 0; i < size.startupRepeats; i++) {
			on.push(await startupTime(ours, 1));
			offStart.push(await startupTime(ours, 1, { "pi-ide": { neovim: false } }));
		}
		const extra = median(on) - median(offStart);
		rows.push({
			short: SHORTS[3] as string,
			measure: `10. session_start -> connected (one state file) with 500 more processes running, the Neovim source's /proc scan against "neovim": false (median of ${size.startupRepeats} each)`,
			ours: `${ms(median(on))} against ${ms(median(offStart))}: ${ms(extra)} more`,
			baseline: "",
			ratio: "",
			target: "<= 20 ms more",
			met: extra <= 20,
			raw: { neovim: on, neovimOff: offStart },
		});
	} finally {
		stop();
		if (scope === undefined) delete process.env.PI_IDE_TEST_PROC_SCOPE;
		else process.env.PI_IDE_TEST_PROC_SCOPE = scope;
	}
	return rows;
}
