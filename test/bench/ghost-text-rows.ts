/** Group 17 of the benchmark: Neovim's ghost text, a real Neovim 0.7.2 with a UI in tmux and the real pi 0.73. */

import { GHOST_MODEL_LATENCY_MS, ghostKeystrokes, ghostTextDrawn } from "./ghost-text-scenarios.ts";
import { neovimSkipReason } from "./neovim-scenarios.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import { max, median, percentile } from "./stats.ts";

const ms = (value: number) =>
	Number.isFinite(value) ? `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms` : "n/a";
const SHORTS = ["ghost text drawn after the model's answer p50 / p95 / max", "a key's cost in Neovim, ghost text on"];

export async function ghostTextRows(size: { ghostSamples: number; ghostKeys: number }): Promise<ReportRow[]> {
	const skip = neovimSkipReason();
	if (skip) return SHORTS.map((short) => skippedRow(17, short, skip));
	const drawn = await ghostTextDrawn(size.ghostSamples);
	const rows: ReportRow[] = [
		{
			short: SHORTS[0] as string,
			measure: `17. the fake model's last byte -> the ghost text flushed to Neovim's UIs (a UI of the bench's beside tmux's), a digit typed at a line's end in a real Neovim 0.7.2, the 300 ms pause, pi 0.73 RPC asking a model of ${GHOST_MODEL_LATENCY_MS} ms; pi's reading of the answer, the parse, its mode request and nvim_exec_lua and Neovim's drawing are in it, ${drawn.length} suggestions, p50 / p95 / max`,
			ours: `${ms(median(drawn))} / ${ms(percentile(drawn, 95))} / ${ms(max(drawn))}`,
			baseline: "",
			ratio: "",
			target: "p95 <= 20 ms",
			met: percentile(drawn, 95) <= 20,
			raw: { samples: drawn },
		},
	];
	const keys = await ghostKeystrokes(size.ghostKeys);
	const [off, on, offAgain] = [median(keys.off), median(keys.on), median(keys.offAgain)];
	const noise = Math.abs(offAgain - off);
	const above = on - Math.min(off, offAgain);
	rows.push({
		short: SHORTS[1] as string,
		measure: `17. a character typed in Insert mode (nvim_input) -> flushed to Neovim's UIs, ${keys.on.length} keys 100-250 ms apart (inside the pause: nothing asked), pi 0.73 connected and pushing, its ghost text on against "suggestions" unset before and after it (the two unset runs' difference: the noise), p50 / p95`,
		ours: `on ${ms(on)} / ${ms(percentile(keys.on, 95))}; unset ${ms(off)} / ${ms(percentile(keys.off, 95))}, again ${ms(offAgain)} / ${ms(percentile(keys.offAgain, 95))}`,
		baseline: "",
		ratio: "",
		target: `unchanged within the noise: on p50 <= the lower unset p50 + max(noise ${ms(noise)}, 0.5 ms)`,
		met: above <= Math.max(noise, 0.5),
		raw: keys,
	});
	return rows;
}
