/**
 * Test fixture, run on a Node with node:sqlite (the pi 1.x toolchain's) through jiti: the real ZedSource on
 * the real `/proc` (or `ps` and `lsof`: `PI_IDE_PROCESS_FACTS`) and a real database, without pi, told it runs on
 * the platform given (Linux by default). Prints one JSON line per change of what it lists and per
 * event; reads one JSON command per stdin line (`{"cmd":"report"}`, `{"cmd":"flush","key":…}`, `{"cmd":"close"}`).
 */
import { createInterface } from "node:readline";
import { MergedSources } from "../../src/editors/merged-sources.ts";
import { ZedSource } from "../../src/editors/zed/source.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { LIVENESS_CHECK_MS } from "../../src/shared/core/timing.ts";
import { testProcessFacts } from "./process-facts.ts";

const [dataHome = "", home = "", testScope, platform = "linux"] = process.argv.slice(2);
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const uid = process.getuid?.() ?? 0;

const source: ZedSource = new ZedSource(
	{
		enabled: { on: true, source: "test" },
		env: { XDG_DATA_HOME: dataHome },
		home,
		platform,
		uid,
		testScope,
		facts: testProcessFacts(),
	},
	{
		clock: systemClock,
		changed: () => print({ kind: "listed", editors: source.editors(), reads: source.report().reads }),
		event: (event) => print({ kind: "event", event }),
		notify: (message) => print({ kind: "notice", message }),
		settled: () => {},
	},
);
// The controller's tick, as pi runs it: liveness every tick, the slow fallback every few.
const sources = new MergedSources([source], systemClock);
await source.start();
const stopTick = systemClock.every(LIVENESS_CHECK_MS, () => {
	if (sources.checkLiveness()) print({ kind: "listed", editors: source.editors(), reads: source.report().reads });
	void sources.recheckDue()?.();
});
print({ kind: "started", report: source.report() });

for await (const line of createInterface({ input: process.stdin })) {
	const command = JSON.parse(line) as { cmd: string; key?: string };
	if (command.cmd === "report")
		print({ kind: "report", report: source.report(), facts: source.facts(command.key ?? "") });
	if (command.cmd === "flush") {
		await source.flush(command.key ?? "");
		print({ kind: "flushed", editors: source.editors() });
	}
	if (command.cmd === "close") break;
}
stopTick();
await source.close();
print({ kind: "closed" });
