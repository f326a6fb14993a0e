/**
 * Group 15 of the benchmark: the process facts' `ps` + `lsof` backend (macOS's) against the `/proc` one, on
 * this Linux: a scan with ten real Neovims among ~300 processes, and an idle pi that must spawn nothing.
 */
import { join } from "node:path";
import { E2eWorkspace } from "../support/e2e-workspace.ts";
import { neovimSkipReason } from "./neovim-scenarios.ts";
import {
	COUNTED_SCANS,
	fillProcesses,
	idleWithBackend,
	NEOVIMS,
	PROCESSES,
	processCount,
	SCAN_GAP_MS,
	type ScanFigures,
	type ScanKind,
	startNeovims,
	timedScans,
} from "./process-facts-scenarios.ts";
import { type ReportRow, skippedRow } from "./report.ts";
import { median, percentile } from "./stats.ts";

const ms = (value: number) =>
	Number.isFinite(value) ? `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms` : "n/a";
const SHORTS = [
	"Neovim scan, ps backend vs /proc, p50 / p95",
	"scan of every kind, ps backend vs /proc, p50 / p95",
	"ps backend while idle: spawns, idle CPU per 60 s",
];
/** What a scan may cost on the `ps` backend: `ps` once for the listing, `lsof` once for the candidates' sockets. */
const SPAWNS_PER_SCAN = 2;

export async function processFactsRows(size: {
	scans: number;
	idleSeconds: number;
	idleWindows: number;
}): Promise<ReportRow[]> {
	const skip = process.platform === "linux" ? neovimSkipReason() : "the /proc backend is Linux's";
	if (skip) return SHORTS.map((short) => skippedRow(15, short, skip));
	const ws = await E2eWorkspace.create();
	const neovims = await startNeovims(ws);
	const fill = fillProcesses();
	try {
		const rows: ReportRow[] = [];
		const scans: [ScanKind, string][] = [
			["neovim", "scanForNeovims (one listing of names, then the sockets of those named nvim)"],
			["all", "scanForNeovims, scanForEmacsen and zedProcesses at once, as the sources scan at start"],
		];
		for (const [index, [kind, what]] of scans.entries()) {
			const figures = await timedScans(kind, size.scans, join(ws.root, `count-${kind}`));
			rows.push(scanRow(SHORTS[index] as string, what, figures, fill.added, kind));
		}
		const [ps, proc] = await Promise.all(
			(["ps", "proc"] as const).map((backend) =>
				idleWithBackend(ws, backend, neovims.pids, size.idleSeconds, size.idleWindows),
			),
		);
		if (!ps || !proc) throw new Error("an idle pi gave no figures");
		const idleTotal = size.idleSeconds * size.idleWindows;
		/** The windows' mean CPU per 60 s (two windows have no median worth the name). */
		const perMinute = (cpu: number[]) =>
			Math.round((cpu.reduce((sum, value) => sum + value, 0) * 60) / (cpu.length * size.idleSeconds));
		rows.push({
			short: SHORTS[2] as string,
			measure: `15. the real pi 0.73 (RPC) with PI_IDE_PROCESS_FACTS=ps and counting ps/lsof wrappers first on its PATH, ${NEOVIMS} headless Neovims read (one in the project), idle over ${size.idleWindows} window(s) of ${size.idleSeconds} s after a 10 s settle: ps/lsof runs in the windows, and the pi process's CPU (the windows' mean, per 60 s), beside a pi with PI_IDE_PROCESS_FACTS=proc run at the same time (${ps.startSpawns} ps/lsof runs from the ps pi's start to the windows: its start-up scans and the /ide status calls that waited for the ${NEOVIMS} Neovims; ${ps.processesLine})`,
			ours: `spawns while idle: ${ps.idleRuns.length} over ${idleTotal} s; idle CPU ${perMinute(ps.cpu)} ms per 60 s (samples ${ps.cpu.join(", ")} ms per ${size.idleSeconds} s${ps.idleRuns.length > 0 ? `; ran: ${ps.idleRuns.slice(0, 5).join("; ")}` : ""})`,
			baseline: `/proc backend: idle CPU ${perMinute(proc.cpu)} ms per 60 s, ${proc.idleRuns.length} spawns while idle (samples ${proc.cpu.join(", ")} ms per ${size.idleSeconds} s; ${proc.startSpawns} ps/lsof runs from its start)`,
			ratio: "",
			target: "0 spawns while idle",
			met: ps.idleRuns.length === 0,
			raw: { ps, proc, idleSeconds: size.idleSeconds, idleWindows: size.idleWindows },
		});
		return rows;
	} finally {
		fill.stop();
		neovims.stop();
		await ws.cleanup();
	}
}

function scanRow(short: string, what: string, figures: ScanFigures, added: number, kind: ScanKind): ReportRow {
	const { ms: samples, spawnsPerScan, psRuns, found, processes } = figures;
	const psP50 = median(samples.ps);
	const procP50 = median(samples.proc);
	const perScan = (runs: number) => Number((runs / COUNTED_SCANS).toFixed(1));
	const listings = perScan(psRuns.filter((run) => /^ps .*-A\b/.test(run)).length);
	const morePs = perScan(psRuns.filter((run) => run.startsWith("ps ")).length) - listings;
	const lsofs = psRuns.filter((run) => run.startsWith("lsof "));
	const everyLsofAboutPids = lsofs.every((run) => / -p /.test(run));
	const breakdown = `${listings} ps listing of every process, ${Number(morePs.toFixed(1))} more ps, ${perScan(lsofs.length)} lsof -p`;
	const others = found.ps.neovim - NEOVIMS;
	const foundText =
		kind === "neovim"
			? `${found.ps.neovim} Neovims found${others > 0 ? ` (the bench's ${NEOVIMS} and ${others} of this machine's: unscoped, as a user's pi scans)` : ""}`
			: `found ${found.ps.neovim} Neovims, ${found.ps.emacs} Emacsen, ${found.ps.zed} Zeds (the bench's ${NEOVIMS} Neovims and what else this machine ran: unscoped, as a user's pi scans; /proc found ${found.proc.neovim}, ${found.proc.emacs}, ${found.proc.zed})`;
	return {
		short,
		measure: `15. ${what}, ${samples.ps.length} scans on each backend ${SCAN_GAP_MS} ms apart, alternating which goes first, with ${NEOVIMS} headless Neovims listening and ${processes} processes on the machine (${added} sleeps added to reach ~${PROCESSES}; ${foundText}), ps backend vs /proc backend, p50 / p95; spawns per scan counted over ${COUNTED_SCANS} more scans each with counting ps/lsof wrappers first on the PATH`,
		ours: `${ms(psP50)} / ${ms(percentile(samples.ps, 95))}, spawns per scan: ${spawnsPerScan.ps} (${breakdown})`,
		baseline: `${ms(procP50)} / ${ms(percentile(samples.proc, 95))}, spawns per scan: ${spawnsPerScan.proc} (/proc backend)`,
		ratio: `${procP50 > 0 ? (psP50 / procP50).toFixed(1) : "n/a"}x the /proc scan`,
		target:
			kind === "neovim"
				? `${SPAWNS_PER_SCAN} spawns per scan (one ps listing, one lsof -p for every nvim)`
				: "one ps listing per scan (shared by the three), lsof only about candidates' pids (-p)",
		met:
			spawnsPerScan.proc === 0 &&
			listings === 1 &&
			everyLsofAboutPids &&
			(kind === "all" || spawnsPerScan.ps <= SPAWNS_PER_SCAN),
		raw: { ...figures, processCountAtEnd: processCount() },
	};
}
