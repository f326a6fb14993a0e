/**
 * Group 16 of the benchmark: inline suggestions (issue 38), what pi adds to the model's own time. The real pi in
 * RPC mode on both lines, connected to a pi-ide.nvim-like IDE server in the bench process, the offline fake model
 * answering after a fixed `MODEL_LATENCY_MS`: request sent -> the model's HTTP request arrived, the model's last
 * bytes -> the answer arrived, a cancel sent -> the model's HTTP request closed.
 */
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import { max, median, percentile } from "./stats.ts";
import {
	type AnsweredTimes,
	CANCEL_AFTER_MS,
	type FieldsKind,
	MODEL_LATENCY_MS,
	REQUEST_GAP_MS,
	startSuggestionBench,
} from "./suggestion-scenarios.ts";

const ms = (value: number) =>
	Number.isFinite(value) ? `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms` : "n/a";
/** The promises: pi's share of a suggestion's time. */
const TO_MODEL_P50_MS = 5;
const TO_ANSWER_P50_MS = 5;
const CANCEL_MS = 50;

const FIELDS: Record<FieldsKind, string> = {
	nvim: "pi-ide.nvim's fields: 20 lines before the cursor and 10 after, a 3 000-character outline, a 40-line enclosing scope (~6 KB in all; the path, language and outline the same in every request, as while typing in one file, the rest new each time)",
	caps: "every field at pi's cap: the cursor's context 8 KB each side, the outline 12 000 characters, the enclosing scope 4 000 (~32 KB in all; the outline the same in every request, the cursor's context and the scope new each time)",
};

const shorts = (line: string) => [
	`suggestion: request to model request, pi-ide.nvim's fields, p50 / p95${line}`,
	`suggestion: request to model request, fields at their caps, p50 / p95${line}`,
	`suggestion: model's last byte to answer, p50 / p95${line}`,
	`suggestion: cancel to model request closed, p50 / p95 / max${line}`,
	`suggestion: the session's first request${line}`,
];

export async function suggestionRows(size: { requests: number; cancels: number }): Promise<ReportRow[]> {
	const rows: ReportRow[] = [];
	for (const line of piLines()) {
		const tag = line.name === "pi 0.73" ? "" : ` (${line.name})`;
		if (!line.node) rows.push(...shorts(tag).map((short) => skippedRow(16, short, line.skipReason ?? "not runnable")));
		else rows.push(...(await lineRows(line, tag, size)));
	}
	return rows;
}

async function lineRows(line: PiLine, tag: string, size: { requests: number; cancels: number }): Promise<ReportRow[]> {
	const bench = await startSuggestionBench(line);
	try {
		const first = await bench.answered("nvim");
		const times: Record<FieldsKind, AnsweredTimes[]> = { nvim: [], caps: [] };
		// The two kinds alternate: each shares the machine's moments with the other.
		for (let i = 0; i < size.requests; i++)
			for (const kind of ["nvim", "caps"] as const) times[kind].push(await bench.answered(kind));
		const cancels: number[] = [];
		for (let i = 0; i < size.cancels; i++) cancels.push(await bench.cancelled());
		const floors = await bench.floors(size.cancels);
		const floor = `hops alone: ${ms(median(floors.pingRoundTrip))} a ping's round trip through pi, ${ms(median(floors.benchFetch))} the bench's own fetch to the fake model (p50s of ${floors.pingRoundTrip.length})`;
		const [nvimShort, capsShort, answerShort, cancelShort, firstShort] = shorts(tag) as [
			string,
			string,
			string,
			string,
			string,
		];
		const setting = `the real ${line.name} (RPC) connected to a pi-ide.nvim-like IDE server in the bench process (its /ide picker, "suggestions": true, no rate limit reached), the offline fake model answering each request after ${MODEL_LATENCY_MS} ms, ${size.requests} requests of each kind alternating, ${REQUEST_GAP_MS} ms after the previous answer`;
		const toModelRow = (short: string, kind: FieldsKind): ReportRow => {
			const samples = times[kind].map((each) => each.toModel);
			const roundTrips = times[kind].map((each) => each.roundTrip - MODEL_LATENCY_MS);
			return {
				short,
				measure: `16. getSuggestions sent by the IDE server -> the model's HTTP request arrived at the fake model (both stamped with performance.now() in the bench process; the WebSocket and HTTP hops on loopback included, nothing subtracted), ${FIELDS[kind]}, ${setting}; p50 / p95 (the whole round trip less the model's ${MODEL_LATENCY_MS} ms: p50 ${ms(median(roundTrips))})`,
				ours: `${ms(median(samples))} / ${ms(percentile(samples, 95))}`,
				baseline: floor,
				ratio: "",
				target: `p50 <= ${TO_MODEL_P50_MS} ms`,
				met: median(samples) <= TO_MODEL_P50_MS,
				raw: { samples, roundTripsLessModel: roundTrips, floors },
			};
		};
		const toAnswer = [...times.nvim, ...times.caps].map((each) => each.toAnswer);
		return [
			toModelRow(nvimShort, "nvim"),
			toModelRow(capsShort, "caps"),
			{
				short: answerShort,
				measure: `16. the fake model about to write its answer's last bytes -> pi's answer (the suggestion parsed from it) arrived at the IDE server, every request of the two rows above (${toAnswer.length}), p50 / p95`,
				ours: `${ms(median(toAnswer))} / ${ms(percentile(toAnswer, 95))}`,
				baseline: "",
				ratio: "",
				target: `p50 <= ${TO_ANSWER_P50_MS} ms`,
				met: median(toAnswer) <= TO_ANSWER_P50_MS,
				raw: { samples: toAnswer },
			},
			{
				short: cancelShort,
				measure: `16. request_cancelled sent by the IDE server ${CANCEL_AFTER_MS} ms after the model's HTTP request arrived -> the fake model saw that request's connection close (each answered -32800), pi-ide.nvim's fields, ${cancels.length} cancels after the rows above, p50 / p95 / max`,
				ours: `${ms(median(cancels))} / ${ms(percentile(cancels, 95))} / ${ms(max(cancels))}`,
				baseline: "",
				ratio: "",
				target: `<= ${CANCEL_MS} ms`,
				met: max(cancels) <= CANCEL_MS,
				raw: { samples: cancels },
			},
			{
				short: firstShort,
				measure: `16. the session's first getSuggestions (pi-ide.nvim's fields), ${Math.round(bench.startedInMs)} ms after pi was spawned (its connection open): the credential scanner loaded on this first use; request -> model request, model's last byte -> answer`,
				ours: `${ms(first.toModel)}; ${ms(first.toAnswer)}`,
				baseline: "",
				ratio: "",
				target: "",
				met: undefined,
				raw: { first, startedInMs: bench.startedInMs },
			},
		];
	} finally {
		await bench.stop();
	}
}
