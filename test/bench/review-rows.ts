import { REVIEW_SHOWN_WAIT_MS } from "../../src/shared/core/timing.ts";
/**
 * Group 13 of the benchmark: the review of the model's edits (issue 29). How soon the diff is on screen after the
 * model's tool call, in a real Neovim and a real VS Code, and what a review accepted at once adds to the edit.
 */
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { vscodeHost } from "../support/vscode-host.ts";
import { neovimSkipReason } from "./neovim-scenarios.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import { type NeovimReviewTimes, neovimReviews, type VscodeReviewTimes, vscodeReviews } from "./review-scenarios.ts";
import { max, median, percentile } from "./stats.ts";

const ms = (value: number) =>
	Number.isFinite(value)
		? `${value.toFixed(1)} ms`
		: value === Number.POSITIVE_INFINITY
			? `over ${REVIEW_SHOWN_WAIT_MS / 1000} s`
			: "n/a";
const SHORTS = [
	"review: tool call to diff shown in Neovim p50 / p95 / max",
	"review: tool call to diff shown in VS Code p50 / p95 / max",
	"review accepted at once: cost over the edit alone",
];
/** The promises: the diff on screen this soon after the model's call. */
const NEOVIM_SHOWN_MS = 200;
const VSCODE_SHOWN_MS = 1000;
/**
 * An accepted review may add what showing the diff may take in Neovim and no more: the rest of a review is the
 * user's reading time.
 */
const ACCEPTED_COST_MS = NEOVIM_SHOWN_MS;

const figures = (samples: number[]) => `${ms(median(samples))} / ${ms(percentile(samples, 95))} / ${ms(max(samples))}`;

export async function reviewRows(size: { reviewPairs: number; vscodeReviews: number }): Promise<ReportRow[]> {
	const [pi073, pi1] = piLines() as [PiLine, PiLine];
	const neovimSkip = neovimSkipReason() ?? (pi073.node ? undefined : pi073.skipReason);
	const neovim = neovimSkip ? undefined : await neovimReviews(size.reviewPairs);
	const host = vscodeHost();
	const vscodeSkip = host.skipReason ?? (pi1.node ? undefined : pi1.skipReason);
	const vscode = vscodeSkip
		? undefined
		: await vscodeReviews(pi1, host as Required<Omit<typeof host, "skipReason">>, size.vscodeReviews);
	return [
		neovim ? neovimShownRow(neovim) : skippedRow(13, SHORTS[0] as string, neovimSkip ?? ""),
		vscode ? vscodeShownRow(vscode) : skippedRow(13, SHORTS[1] as string, vscodeSkip ?? ""),
		neovim ? acceptedCostRow(neovim) : skippedRow(13, SHORTS[2] as string, neovimSkip ?? ""),
	];
}

function neovimShownRow(times: NeovimReviewTimes): ReportRow {
	const shown = times.shownMs;
	return {
		short: SHORTS[0] as string,
		measure: `13. the model's edit of one line of an 80-line file, review on, through pi 0.73 (RPC) connected to a real Neovim 0.7.2 with a UI in tmux over its server: from the fake model server's answer with the edit call (just before its SSE is written) to the first redraw Neovim flushes to its UIs showing the proposal (a UI of the bench's attached beside tmux's, on the same grid: "(proposed)" in the proposal window's status line), ${shown.length} reviews 250-450 ms apart, each accepted by :w at once, p50 / p95 / max (from pi's tool_execution_start record's arrival instead: p50 ${ms(median(times.shownFromStartMs))}; the first review: ${ms(shown[0] ?? Number.NaN)})`,
		ours: figures(shown),
		baseline: "",
		ratio: "",
		target: `p50 <= ${NEOVIM_SHOWN_MS} ms`,
		met: median(shown) <= NEOVIM_SHOWN_MS,
		raw: { samples: shown, fromToolExecutionStart: times.shownFromStartMs },
	};
}

function vscodeShownRow(times: VscodeReviewTimes): ReportRow {
	const shown = times.shownMs;
	return {
		short: SHORTS[1] as string,
		measure: `13. the model's edit of one line of an 80-line file, review on, through pi 1.x (RPC) connected to the package's client in a real VS Code 1.139.1 (code-server, headless chromium; src/main.ts open): from the fake model server's answer with the edit call to pi's select saying the diff is shown (raised the moment the client's pi/diffShown reaches pi over the client's socket; the client sends it once the proposal is among VS Code's visible editors), each rejected in the select at once, ${shown.length} reviews 500-800 ms apart, p50 / p95 / max (the first review: ${ms(shown[0] ?? Number.NaN)}; not said shown within pi's ${REVIEW_SHOWN_WAIT_MS / 1000} s wait, counted as over it: ${shown.filter((value) => value === Number.POSITIVE_INFINITY).length})`,
		ours: figures(shown),
		baseline: "",
		ratio: "",
		target: `p50 <= ${VSCODE_SHOWN_MS} ms`,
		met: median(shown) <= VSCODE_SHOWN_MS,
		raw: { samples: shown },
	};
}

function acceptedCostRow(times: NeovimReviewTimes): ReportRow {
	const [on, off] = [times.acceptedMs, times.unreviewedMs];
	const cost = median(on) - median(off);
	return {
		short: SHORTS[2] as string,
		measure: `13. what a review accepted at once adds to the model's edit: the same one-line edits through pi 0.73 and Neovim as in the first review row, from the fake model server's answer with the edit call to pi's tool_execution_end record (the file written), review on with the bench's :w sent in the proposal the moment its UI got the diff's redraw, against review off (/ide review off) in the same pi, ${on.length} edits each in ABBA order, p50 on - p50 off (on p50 / p95 / max; off p50 / p95 / max)`,
		ours: `${ms(cost)} (on ${figures(on)}; off ${figures(off)})`,
		baseline: "",
		ratio: "",
		target: `<= ${ACCEPTED_COST_MS} ms (Neovim's show budget: the rest of a review is the user's time)`,
		met: cost <= ACCEPTED_COST_MS,
		raw: { reviewOn: on, reviewOff: off },
	};
}
