/**
 * Group 11 of the benchmark: the package's VS Code client in a real VS Code (code-server driven by chromium),
 * read by the real pi 1.x: a selection's way to pi's widget, and what the client does while nobody types.
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { type PiLine, piLines } from "../support/pi-cli.ts";
import { vscodeHost } from "../support/vscode-host.ts";
import { VscodeSession } from "../support/vscode-session.ts";
import { waitFor } from "../support/wait-for.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import { seededRandom } from "./rpc-scenarios.ts";
import { max, median, percentile } from "./stats.ts";

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "n/a");
const sleep = (milliseconds: number) => new Promise((done) => setTimeout(done, milliseconds));
const SHORTS = ["VS Code selection to widget p50 / p95 / max", "VS Code client writes while idle"];

export async function vscodeRows(size: { selections: number; idleSeconds: number }): Promise<ReportRow[]> {
	const pi1 = piLines()[1] as PiLine;
	const host = vscodeHost();
	const skip = host.skipReason ?? (pi1.node ? undefined : pi1.skipReason);
	if (skip) return SHORTS.map((short) => skippedRow(11, short, skip));
	const ws = await E2eWorkspace.create();
	const lines = Array.from({ length: 120 }, (_, i) => `line ${i + 1}`).join("\n");
	writeFileSync(join(ws.project, "src", "main.ts"), `${lines}\n`);
	const vscode = await VscodeSession.start(ws, pi1, host as Required<Omit<typeof host, "skipReason">>);
	try {
		await vscode.open("main.ts");
		await vscode.rpc.waitForWidget("in main.ts", 30_000);
		const random = seededRandom(23);
		const latencies: number[] = [];
		while (latencies.length < size.selections) {
			await vscode.goToLine(1);
			await vscode.rpc.waitForWidget("in main.ts", 5000);
			for (let selected = 1; selected <= 100 && latencies.length < size.selections; selected++) {
				await sleep(300 + random() * 200);
				const seen = vscode.rpc.widgetEvents().length;
				const expected = `${selected === 1 ? "1 line" : `${selected} lines`} selected in main.ts`;
				const started = performance.now();
				// Shift+Down from a line's start selects whole lines: the first press one line, each next one more.
				await vscode.page.keyboard.press("Shift+ArrowDown");
				const event = await waitFor(
					`the widget "${expected}"`,
					() =>
						vscode.rpc
							.widgetEvents()
							.slice(seen)
							.find((update) => update.text === expected),
					5000,
					1,
				);
				latencies.push(event.at - started);
			}
		}
		const stateFile = join(ws.stateDir, `${vscode.written()?.pid}.json`);
		await sleep(2000);
		const before = statSync(stateFile).mtimeMs;
		await sleep(size.idleSeconds * 1000);
		const writesWhileIdle = statSync(stateFile).mtimeMs === before ? 0 : 1;
		return [
			{
				short: SHORTS[0] as string,
				measure: `11. a selection made in a real VS Code 1.139.1 (code-server, Shift+Down in headless chromium) -> pi 1.x's widget shows it (${latencies.length} selections 300-500 ms apart: the client's 100 ms debounce, its write, pi's follow) p50 / p95 / max`,
				ours: `${ms(median(latencies))} / ${ms(percentile(latencies, 95))} / ${ms(max(latencies))}`,
				baseline: "",
				ratio: "",
				target: "p50 <= 300 ms",
				met: median(latencies) <= 300,
				raw: { samples: latencies },
			},
			{
				short: SHORTS[1] as string,
				measure: `11. the client's state file over ${size.idleSeconds} s with nobody typing (VS Code open on the file): written again or not`,
				ours: writesWhileIdle === 0 ? "not written" : "written",
				baseline: "",
				ratio: "",
				target: "no write while idle",
				met: writesWhileIdle === 0,
				raw: { writesWhileIdle },
			},
		];
	} finally {
		await vscode.stop();
		await ws.cleanup();
	}
}
