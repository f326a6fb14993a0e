/**
 * `npm run bench`: how fast pi follows the editor, what a prompt costs, how it scales, beside a polling
 * baseline measured in the same run on the same inputs. `--json` prints machine-readable results;
 * `--quick` runs smaller samples (for trying the harness, not for reporting).
 */
import { cpus } from "node:os";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../support/pi-cli.ts";
import { heapAfterGc, promptCost, startupTime } from "./in-process-scenarios.ts";
import {
	deathLatency,
	followLatency,
	freshnessFlipLag,
	type Implementation,
	idleCpu,
	memoryGrowth,
} from "./rpc-scenarios.ts";
import { max, median, percentile } from "./stats.ts";

const args = new Set(process.argv.slice(2));
const quick = args.has("--quick");
/** `--only=1,6` runs just those measurements (for working on one of them). */
const only = new Set(
	[...args]
		.find((arg) => arg.startsWith("--only="))
		?.slice("--only=".length)
		.split(",")
		.map(Number) ?? [1, 2, 3, 4, 5, 6, 7],
);
const size = {
	writes: quick ? 40 : 200,
	flips: quick ? 4 : 20,
	deaths: quick ? 5 : 20,
	prompts: quick ? 200 : 2000,
	idleSeconds: quick ? 10 : 60,
	memoryWrites: quick ? 2000 : 10_000,
	appearances: quick ? 200 : 1000,
	startupRepeats: quick ? 2 : 5,
};

const ours: Implementation = { name: "pi-ide-context", extension: PACKAGE_ROOT };
const baseline: Implementation = {
	name: "polling baseline (1 s)",
	extension: join(import.meta.dirname, "polling-baseline.ts"),
};
const bare: Implementation = { name: "pi without an extension", extension: null };
const floor: Implementation = {
	name: "pi with one empty 500 ms timer",
	extension: join(import.meta.dirname, "timer-floor.ts"),
};

interface Row {
	measure: string;
	ours: string;
	baseline: string;
	ratio: string;
	target: string;
	met: boolean | undefined;
	raw: Record<string, unknown>;
}

const rows: Row[] = [];
const ms = (value: number) =>
	Number.isFinite(value) ? `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms` : "n/a";
const ratioOf = (slow: number, fast: number) => (fast > 0 ? `${(slow / fast).toFixed(1)}x` : "n/a");
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function main(): Promise<void> {
	const started = performance.now();
	log(`${cpus().length} cores, Node ${process.versions.node}${quick ? ", quick mode" : ""}`);

	if (only.has(1)) {
		log("1/7 follow latency");
		const followOurs = await followLatency(ours, size.writes);
		const followBase = await followLatency(baseline, size.writes);
		const f = { p50: median(followOurs), p95: percentile(followOurs, 95), max: max(followOurs) };
		const fb = { p50: median(followBase), p95: percentile(followBase, 95), max: max(followBase) };
		rows.push({
			measure: `1. follow latency, write -> widget (${size.writes} writes) p50 / p95 / max`,
			ours: `${ms(f.p50)} / ${ms(f.p95)} / ${ms(f.max)}`,
			baseline: `${ms(fb.p50)} / ${ms(fb.p95)} / ${ms(fb.max)}`,
			ratio: ratioOf(fb.p50, f.p50),
			target: "p50 <= 15 ms, p95 <= 40 ms, >= 20x",
			met: f.p50 <= 15 && f.p95 <= 40 && fb.p50 / f.p50 >= 20,
			raw: { ours: f, baseline: fb },
		});
	}
	if (only.has(2)) {
		log("2/7 freshness flip (both at once)");
		const [flipOurs, flipBase] = await Promise.all([
			freshnessFlipLag(ours, size.flips),
			freshnessFlipLag(baseline, size.flips),
		]);
		rows.push({
			measure: `2. freshness flip, lag after expiry (${size.flips} runs) p50 / max`,
			ours: `${ms(median(flipOurs))} / ${ms(max(flipOurs))}`,
			baseline: `${ms(median(flipBase))} / ${ms(max(flipBase))}`,
			ratio: ratioOf(median(flipBase), median(flipOurs)),
			target: "<= 50 ms",
			met: max(flipOurs) <= 50,
			raw: { ours: flipOurs, baseline: flipBase },
		});
	}
	if (only.has(3)) {
		log("3/7 kill -9 to widget cleared (both at once)");
		const [deathOurs, deathBase] = await Promise.all([
			deathLatency(ours, size.deaths),
			deathLatency(baseline, size.deaths),
		]);
		rows.push({
			measure: `3. kill -9 -> widget cleared (${size.deaths} runs) p50 / max`,
			ours: `${ms(median(deathOurs))} / ${ms(max(deathOurs))}`,
			baseline: `${ms(median(deathBase))} / ${ms(max(deathBase))}`,
			ratio: ratioOf(median(deathBase), median(deathOurs)),
			target: "<= 1000 ms",
			met: max(deathOurs) <= 1000,
			raw: { ours: deathOurs, baseline: deathBase },
		});
	}
	if (only.has(4)) {
		log("4/7 prompt cost");
		const promptP50s: number[] = [];
		for (const files of [1, 100, 5000]) {
			const o = await promptCost(ours, files, size.prompts);
			const b = await promptCost(baseline, files, size.prompts);
			promptP50s.push(median(o));
			rows.push({
				measure: `4. before_agent_start per prompt, ${files} files, p50 / p99`,
				ours: `${ms(median(o))} / ${ms(percentile(o, 99))}`,
				baseline: `${ms(median(b))} / ${ms(percentile(b, 99))}`,
				ratio: ratioOf(median(b), median(o)),
				target: "p50 <= 0.2 ms, flat in files",
				met: median(o) <= 0.2,
				raw: {
					files,
					ours: { p50: median(o), p99: percentile(o, 99) },
					baseline: { p50: median(b), p99: percentile(b, 99) },
				},
			});
		}
		const flat = Math.max(...promptP50s) <= 2 * Math.min(...promptP50s) + 0.05;
		rows.push({
			measure: "4. prompt cost flat from 1 to 5 000 files",
			ours: promptP50s.map((v) => ms(v)).join(" -> "),
			baseline: "",
			ratio: "",
			target: "flat",
			met: flat,
			raw: { p50s: promptP50s },
		});
	}
	if (only.has(5)) {
		log("5/7 startup");
		const startups: { files: number; ours: number; baseline: number }[] = [];
		for (const files of [1, 100, 1000, 10_000]) {
			const o: number[] = [];
			const b: number[] = [];
			for (let i = 0; i < size.startupRepeats; i++) {
				o.push(await startupTime(ours, files));
				b.push(await startupTime(baseline, files));
			}
			startups.push({ files, ours: median(o), baseline: median(b) });
			rows.push({
				measure: `5. session_start -> connected, ${files} files (median of ${size.startupRepeats})`,
				ours: ms(median(o)),
				baseline: ms(median(b)),
				ratio: ratioOf(median(b), median(o)),
				target: files === 1000 ? "<= 100 ms" : files === 10_000 ? "linear or better" : "",
				met: files === 1000 ? median(o) <= 100 : undefined,
				raw: { files, ours: o, baseline: b },
			});
		}
		const [s1000, s10000] = [startups[2], startups[3]];
		if (s1000 && s10000) {
			const growth = s10000.ours / s1000.ours;
			const last = rows.at(-1);
			if (last) {
				last.target = `linear or better (x${growth.toFixed(1)} for 10x files)`;
				last.met = growth <= 10 * 1.2;
			}
		}
	}
	if (only.has(6)) {
		log(`6/7 idle CPU over ${size.idleSeconds} s (four pi processes at once)`);
		const [idleOurs, idleBase, idleBare, idleFloor] = await Promise.all([
			idleCpu(ours, size.idleSeconds),
			idleCpu(baseline, size.idleSeconds),
			idleCpu(bare, size.idleSeconds),
			idleCpu(floor, size.idleSeconds),
		]);
		rows.push({
			measure: `6. idle CPU of the pi process over ${size.idleSeconds} s, 5 editors + 1 000 dead files (pi alone: ${idleBare} ms; pi with only an empty 500 ms timer: ${idleFloor} ms)`,
			ours: `${idleOurs} ms (${idleOurs - idleBare} ms above pi alone)`,
			baseline: `${idleBase} ms (${idleBase - idleBare} ms above pi alone)`,
			ratio: `${ratioOf(idleBase, idleOurs)} (net ${ratioOf(idleBase - idleBare, idleOurs - idleBare)})`,
			target:
				idleBare * 10 > idleBase
					? `<= 1/10 of the baseline: out of reach, pi alone already uses ${idleBare} ms > ${Math.round(idleBase / 10)} ms`
					: "<= 1/10 of the baseline",
			met: idleOurs * 10 <= idleBase,
			raw: { ours: idleOurs, baseline: idleBase, piAlone: idleBare, emptyTimerFloor: idleFloor },
		});
	}
	if (only.has(7)) {
		log("7/7 memory (both at once)");
		const [memOurs, memBase] = await Promise.all([
			memoryGrowth(ours, size.memoryWrites, size.appearances),
			memoryGrowth(baseline, size.memoryWrites, size.appearances),
		]);
		const growth = (m: Awaited<ReturnType<typeof memoryGrowth>>) => {
			const [first = Number.NaN, second = Number.NaN] = m.afterRoundsKiB;
			return {
				warmUp: m.afterWarmUpKiB - m.startKiB,
				first: first - m.afterWarmUpKiB,
				second: second - first,
				of: second,
			};
		};
		const o = growth(memOurs);
		const b = growth(memBase);
		const heapOurs = await heapAfterGc(ours, size.memoryWrites, size.appearances, 2);
		const heapBase = await heapAfterGc(baseline, size.memoryWrites, size.appearances, 2);
		const heapGrowth = (heaps: number[]) => heaps.slice(1).map((heap, i) => heap - (heaps[i] as number));
		const [h1 = Number.NaN, h2 = Number.NaN] = heapGrowth(heapOurs);
		const [hb1 = Number.NaN, hb2 = Number.NaN] = heapGrowth(heapBase);
		rows.push({
			measure: `7. pi session heap after GC, growth per round of ${size.memoryWrites} writes + ${size.appearances} editors (in-process, after a warm-up round): round 1 / round 2`,
			ours: `${h1} / ${h2} KiB (heap ${heapOurs.at(-1)} KiB)`,
			baseline: `${hb1} / ${hb2} KiB (heap ${heapBase.at(-1)} KiB)`,
			ratio: "",
			target: "flat: < 256 KiB per round",
			met: h1 < 256 && h2 < 256,
			raw: { ours: heapOurs, baseline: heapBase },
		});
		rows.push({
			measure: `7. pi process RSS after GC, growth per round of ${size.memoryWrites} writes + ${size.appearances} editors coming and going (after a warm-up round): round 1 / round 2`,
			ours: `${o.first} / ${o.second} KiB (warm-up ${o.warmUp} KiB, RSS ${o.of} KiB; without GC ${memOurs.rawAfterRoundsKiB.join(", ")} KiB)`,
			baseline: `${b.first} / ${b.second} KiB (warm-up ${b.warmUp} KiB, RSS ${b.of} KiB; without GC ${memBase.rawAfterRoundsKiB.join(", ")} KiB)`,
			ratio: "",
			target: "flat within noise (grows < 2% of RSS per round)",
			// A round that gives memory back is not growth.
			met: o.first < 0.02 * o.of && o.second < 0.02 * o.of,
			raw: { ours: memOurs, baseline: memBase },
		});
	}
	const seconds = (performance.now() - started) / 1000;
	const machine = { cores: cpus().length, node: process.versions.node, seconds: Math.round(seconds), quick };
	if (args.has("--json")) {
		process.stdout.write(`${JSON.stringify({ machine, rows }, null, 2)}\n`);
		return;
	}
	printTable(machine);
}

function printTable(machine: { cores: number; node: string; seconds: number; quick: boolean }): void {
	const header = ["measure", "pi-ide-context", "polling baseline", "baseline/ours", "target", "met"];
	const body = rows.map((row) => [
		row.measure,
		row.ours,
		row.baseline,
		row.ratio,
		row.target,
		row.met === undefined ? "" : row.met ? "yes" : "NO",
	]);
	const lines = [
		`pi-ide-context benchmark: ${machine.cores} cores, Node ${machine.node}, ${machine.seconds} s${machine.quick ? " (quick mode: small samples)" : ""}`,
		"",
		`| ${header.join(" | ")} |`,
		`|${header.map(() => "---").join("|")}|`,
		...body.map((cells) => `| ${cells.join(" | ")} |`),
	];
	process.stdout.write(`${lines.join("\n")}\n`);
}

await main();
process.exit(0);
