/** Group 14 of the benchmark: Emacs read over its own server, the idle row beside `"emacs": false` in the same run. */

import { emacsIdleCpu, emacsKeyToWidget, emacsPushCost, emacsSkipReason } from "./emacs-scenarios.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import { max, median, percentile } from "./stats.ts";

const ms = (value: number) =>
	Number.isFinite(value) ? `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms` : "n/a";
const SHORTS = [
	"Emacs key to widget p50 / p95 / max",
	"one push inside Emacs p50 / p95 / max",
	"one push after an edit, 100k-line file, p50 / p95 / max",
	"idle CPU per window, an Emacs pushing vs emacs false",
];

export async function emacsRows(size: {
	emacsKeys: number;
	emacsPushes: number;
	idleSeconds: number;
	idleWindows: number;
}): Promise<ReportRow[]> {
	const skip = emacsSkipReason();
	if (skip) return SHORTS.map((short) => skippedRow(14, short, skip));
	const rows: ReportRow[] = [];
	const keys = await emacsKeyToWidget(size.emacsKeys);
	rows.push({
		short: SHORTS[0] as string,
		measure: `14. a key in a real Emacs 28.2 (emacs -nw -Q in tmux, typed through a tmux control client) -> pi's widget shows what it did, ${keys.length} keys 100-250 ms apart growing the region by a line each (C-n), pi 0.73 RPC, p50 / p95 / max`,
		ours: `${ms(median(keys))} / ${ms(percentile(keys, 95))} / ${ms(max(keys))}`,
		baseline: "",
		ratio: "",
		target: "p50 <= 50 ms, p95 <= 150 ms",
		met: median(keys) <= 50 && percentile(keys, 95) <= 150,
		raw: { samples: keys },
	});
	const push = await emacsPushCost(size.emacsPushes);
	rows.push({
		short: SHORTS[1] as string,
		measure: `14. pi's push function run in Emacs (the snapshot of an 80-line file computed, JSON-encoded, compared, sent over pi's socket), timed in Emacs with float-time around each of ${push.ms.length} calls 20 ms apart, the cursor moved between them so each is sent (${push.sent} received by pi), p50 / p95 / max`,
		ours: `${ms(median(push.ms))} / ${ms(percentile(push.ms, 95))} / ${ms(max(push.ms))}`,
		baseline: "",
		ratio: "",
		target: "p95 <= 16 ms (within one 60 Hz frame: no visible hitch per key)",
		met: percentile(push.ms, 95) <= 16 && push.sent >= push.ms.length,
		raw: push,
	});
	const large = await emacsPushCost(size.emacsPushes, { lines: 100_000, edit: true });
	rows.push({
		short: SHORTS[2] as string,
		measure: `14. the same push function with the cursor at the end of a 100 000-line file and a character typed there before each of ${large.ms.length} calls (the line count kept through the edit by the change hooks, not counted again), ${large.sent} received by pi, p50 / p95 / max`,
		ours: `${ms(median(large.ms))} / ${ms(percentile(large.ms, 95))} / ${ms(max(large.ms))}`,
		baseline: "",
		ratio: "",
		target: "p95 <= 16 ms (as for the 80-line file: a big file costs no visible hitch)",
		met: percentile(large.ms, 95) <= 16 && large.sent >= large.ms.length,
		raw: large,
	});
	const [read, off, offAgain] = await Promise.all(
		[true, false, false].map((on) => emacsIdleCpu(size.idleSeconds, size.idleWindows, on)),
	);
	const above = (values: number[] = [], beside: number[] = []) =>
		median(values.map((value, window) => value - (beside[window] ?? 0)));
	const resolution = Math.abs(above(offAgain?.pi, off?.pi));
	const readAbove = above(read?.pi, off?.pi);
	rows.push({
		short: SHORTS[3] as string,
		measure: `14. idle CPU of the pi process over ${size.idleSeconds} s with an idle Emacs in the project, connected and pushing, against "emacs": false beside it (each with an Emacs of its own), median of ${size.idleWindows} windows' differences (a second "emacs": false process beside it: ${above(offAgain?.pi, off?.pi)} ms: the resolution); the Emacsen's own CPU ${read?.emacs.join(", ")} ms (read) against ${off?.emacs.join(", ")} ms (not read)`,
		ours: `${readAbove} ms above "emacs": false (samples ${read?.pi.join(", ")} against ${off?.pi.join(", ")})`,
		baseline: "",
		ratio: "",
		target: `within the resolution (${resolution} ms, at least the 10 ms tick)`,
		met: readAbove <= Math.max(resolution, 10),
		raw: { reading: read, notReading: off, notReadingAgain: offAgain },
	});
	return rows;
}
