/** Group 19 of the benchmark: pi's questions in the editor a run came from (a real Neovim 0.7.2, the real pi 0.73). */

import { neovimSkipReason } from "./neovim-scenarios.ts";
import { questionLatencies, wrapCost } from "./question-scenarios.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import { max, median, percentile } from "./stats.ts";

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "n/a");
const micros = (value: number) => `${value.toFixed(3)} µs`;
const SHORT_DRAWN = "a question asked -> drawn in Neovim p50 / p95 / max";

export async function questionRows(size: { questionSamples: number; wrapCalls: number }): Promise<ReportRow[]> {
	const cost = await wrapCost(size.wrapCalls);
	const noise = Math.abs(cost.ownAgain - cost.own);
	const added = cost.wrapped - Math.min(cost.own, cost.ownAgain);
	const wrapRow: ReportRow = {
		short: "a typed turn's dialog through the wrap",
		measure: `19. in-process: ctx.ui.confirm on a dialog that answers at once, ${size.wrapCalls} awaited calls (the least of 5 rounds), through the question mirror's wrap with no editor's run (a turn typed into pi) against pi's own function twice (their difference ${micros(noise)}: the measure's noise), µs per call`,
		ours: `wrapped ${micros(cost.wrapped)}; own ${micros(cost.own)} and ${micros(cost.ownAgain)} (added ${micros(added)})`,
		baseline: "",
		ratio: "",
		target: "added <= 1 µs per dialog (pi draws a dialog in milliseconds: nothing a user or a run can notice)",
		met: added <= 1,
		raw: cost,
	};
	const skip = neovimSkipReason();
	if (skip) return [skippedRow(19, SHORT_DRAWN, skip), wrapRow];
	const drawn = await questionLatencies(size.questionSamples);
	return [
		{
			short: SHORT_DRAWN,
			measure: `19. the test extension's tool asks confirm("Allow qN?") in a turn asked with ":Pi guard qN" from a real Neovim 0.7.2 -> the question flushed to Neovim's UIs (a UI of the bench's beside tmux's); the start is pi 0.73's own dialog request on its RPC output, sent as the extension asks: the mirror's queue, nvim_get_mode, the float's Lua, Neovim's drawing, ${drawn.length} questions, p50 / p95 / max`,
			ours: `${ms(median(drawn))} / ${ms(percentile(drawn, 95))} / ${ms(max(drawn))}`,
			baseline: "",
			ratio: "",
			target: "p50 <= 50 ms",
			met: median(drawn) <= 50,
			raw: { samples: drawn },
		},
		wrapRow,
	];
}
