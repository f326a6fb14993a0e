/** Group 18 of the benchmark: asks from Neovim, a real Neovim 0.7.2 with a UI in tmux and the real pi 0.73. */

import { vscodeHost } from "../support/vscode-host.ts";
import { askIdleCost, askLatencies, vscodeAskLatencies } from "./ask-scenarios.ts";
import { neovimSkipReason } from "./neovim-scenarios.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import { max, median, percentile } from "./stats.ts";

const ms = (value: number) =>
	Number.isFinite(value) ? `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms` : "n/a";
const SHORTS = [
	"an ask from Neovim -> the run started p50 / p95 / max",
	"the run's end -> pi: done drawn in Neovim p50 / p95 / max",
	"pi's idle CPU with asks on",
	"an ask from VS Code -> the run started p50 / p95 / max",
];

export async function askRows(size: {
	askSamples: number;
	askIdleSeconds: number;
	askSettleSeconds: number;
}): Promise<ReportRow[]> {
	const skip = neovimSkipReason();
	if (skip) return SHORTS.map((short) => skippedRow(18, short, skip));
	const { started, done } = await askLatencies(size.askSamples);
	const idle = await askIdleCost(size.askIdleSeconds, size.askSettleSeconds);
	const noise = Math.abs(idle.offAgain - idle.off);
	return [...neovimRows(started, done, idle, noise, size.askIdleSeconds), await vscodeRow(size.askSamples)];
}

async function vscodeRow(samples: number): Promise<ReportRow> {
	const short = SHORTS[3] as string;
	const skip = vscodeHost().skipReason;
	if (skip) return skippedRow(18, short, skip);
	const started = await vscodeAskLatencies(Math.max(5, Math.round(samples / 2)));
	return {
		short,
		measure: `18. Enter in the input box of "pi: Ask…" in a real VS Code (code-server, chromium) with the shipped client -> pi 1.x's agent_start on its RPC output: the client's request over its socket, pi's checks, sendUserMessage, the input hook, the run's start, ${started.length} asks, p50 / p95 / max`,
		ours: `${ms(median(started))} / ${ms(percentile(started, 95))} / ${ms(max(started))}`,
		baseline: "",
		ratio: "",
		target: "p50 <= 100 ms",
		met: median(started) <= 100,
		raw: { samples: started },
	};
}

function neovimRows(
	started: number[],
	done: number[],
	idle: { off: number; on: number; offAgain: number; windows: number[][] },
	noise: number,
	idleSeconds: number,
): ReportRow[] {
	return [
		{
			short: SHORTS[0] as string,
			measure: `18. ":Pi bench ask n" typed into a real Neovim 0.7.2 (nvim_input) -> pi 0.73's agent_start on its RPC output: Neovim's notification, pi's checks and reading, sendUserMessage, the input hook, the run's start, ${started.length} asks, p50 / p95 / max`,
			ours: `${ms(median(started))} / ${ms(percentile(started, 95))} / ${ms(max(started))}`,
			baseline: "",
			ratio: "",
			target: "p50 <= 100 ms",
			met: median(started) <= 100,
			raw: { samples: started },
		},
		{
			short: SHORTS[1] as string,
			measure: `18. pi 0.73's agent_end on its RPC output -> "pi: done" flushed to Neovim's UIs (a UI of the bench's beside tmux's): the buffers following the disk, pi's words sent, Neovim's drawing, ${done.length} runs, p50 / p95 / max`,
			ours: `${ms(median(done))} / ${ms(percentile(done, 95))} / ${ms(max(done))}`,
			baseline: "",
			ratio: "",
			target: "p50 <= 50 ms, max <= 100 ms",
			met: median(done) <= 50 && max(done) <= 100,
			raw: { samples: done },
		},
		{
			short: SHORTS[2] as string,
			measure: `18. CPU time (user + system, /proc) of idle pis 0.73 connected to one Neovim, three at once over the same windows of ${idleSeconds} s after they settled (the least of three windows each), asks on (commands registered) against two with asks off (their difference: the noise)`,
			ours: `on ${idle.on} ms; off ${idle.off} ms and ${idle.offAgain} ms`,
			baseline: "",
			ratio: "",
			target: `unchanged within the noise: on <= the lower off + max(noise ${noise} ms, 20 ms)`,
			met: idle.on <= Math.min(idle.off, idle.offAgain) + Math.max(noise, 20),
			raw: idle,
		},
	];
}
