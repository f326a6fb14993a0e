import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { latencyPlotSvg } from "./latency-plot.ts";

export interface Machine {
	cores: number;
	node: string;
	commit: string;
	seconds: number;
	quick: boolean;
}

export interface ReportRow {
	short: string;
	measure: string;
	ours: string;
	baseline: string;
	ratio: string;
	target: string;
	met: boolean | undefined;
	raw: Record<string, unknown>;
}

const metText = (met: boolean | undefined) => (met === undefined ? "" : met ? "yes" : "NO");
/** A table cell keeps the figure; what follows in parentheses goes to the list below the table. */
const headline = (cell: string) => cell.split(" (")[0] ?? cell;

const HOW_TO_READ = `## How to read it

- **Baseline.** A minimal polling implementation of the same protocol, in the same pi, on the same inputs, in
  the same run: every 1 000 ms it lists the dir, asks \`kill(pid, 0)\` of each pid and reads every live
  editor's file. Ratios are baseline / ours.
- **Follow latency** is timed from just before the editor's write to the widget showing it, through the real
  pi in RPC mode. Bursts are three writes 5-15 ms apart, inside chokidar's 50 ms throttle: the trailing
  re-read (or a raw event) catches the last one.
- **Kill and expiry** happen at moments of chance, not lined up with any timer. A killed editor is noticed at
  the next liveness check (every 500 ms, so about 250 ms on average); a selection stops counting within a few
  ms of its 60 s expiry, where a 1 s poller takes half a second on average.
- **Prompt cost** is the extension's \`before_agent_start\` handler, in process, with a connected editor. A new
  64 KiB selection is cut, scanned for credentials and hashed once; later prompts reuse the result. In a long
  session, what the model already has is remembered from the previous prompt and advanced by the entries
  appended since.
- **Start-up** is \`session_start\` until connected, with that many state files of dead pids beside one live
  editor: dead pids' files are skipped before they are even stat-ed.
- **Idle CPU** is the CPU time of the whole pi process over 60 s (median of five consecutive windows, at the
  kernel's 10 ms tick), next to pi with no extension and pi with one empty 500 ms timer. An idle tick asks
  \`kill(pid, 0)\` of the editors believed alive and starts nothing (no task, no promise); every fourth tick
  the sources re-check their own standing (a stat of each dir they watch). The
  1/10-of-the-baseline target is out of reach as stated whenever pi by itself uses more than a tenth of the
  baseline. The side-dir and Zed rows compare two processes running side by side, window by window; a third,
  set up like the first, shows how far two identical processes differ: the resolution of those rows.
- **Memory** is judged by the slope over rounds after a warm-up round, not by one step. The heap is counted
  outside V8's code space: compiled code grows for a while as V8 optimises more functions (heap snapshots of
  two rounds showed only code and deopt data growing) and is V8's to bound, not pi-ide's data. Every editor that comes in a round is a
  new process with a pid pi has never seen (a \`sleep\`), so what pi keeps per editor shows as growth; the
  heap's bound is absolute, in bytes per new editor, and RSS is reported beside it.
- **Zed reads** are timed by pi itself (\`/ide status\`): the read transaction and the shown texts turned into
  positions, the part of a read that holds pi's thread. Only the shown tabs' unsaved texts are copied out of
  the database; a large session's read is bounded by that copy.
- **Conversation** compares send-once with the same code sending the whole block every prompt.
- **Neovim** rows run Debian's Neovim 0.7.2 with a UI in tmux, read over its own server. A key is sent with
  \`nvim_input\` (as typed) and timed to the widget update's arrival in the real pi (RPC); Neovim pushes on the
  throttle's leading edge, so a key 100 ms or more after the last is not held back. The idle row runs three
  plain Neovims in other dirs (read once, never asked to push) beside a \`"neovim": false\` pi and a second one
  for the resolution; the start-up row adds 500 sleeping processes for the \`/proc\` scan to read.
- **Emacs** (group 14) runs Debian's Emacs 28.2 (\`emacs -nw -Q\`) in tmux with its server, read by the real pi
  (RPC). A key is typed through one tmux control-mode client kept open (no process started per key) and timed
  to the widget update's arrival; Emacs pushes through one 10 ms timer. The push row times pi's own push
  function inside Emacs with \`float-time\`, called from a timer with Emacs idle between calls (pi's
  acknowledgements read), the cursor moved so every state is sent. The idle row compares a pi connected to an
  idle Emacs with two \`"emacs": false\` ones beside it, window by window, each beside an Emacs of its own.
- **IDE servers** (group 12) are the fakes of \`test/support/fake-ide-server.ts\` in the bench process, found
  by their lockfiles under a lock root of the run's own and spoken to over a loopback WebSocket (MCP). A
  JetBrains-like server pushes \`selection_changed\`, timed to the widget update's arrival in the real pi
  (RPC, \`"ideServers": "auto"\`). Its prompt cost is set beside a state file editor showing the same file and
  cursor, in halves (state file, IDE, IDE, state file) so that neither side gets all of the warmer code; a
  VS Code-like server pushes nothing on a file switch, so each prompt asks it first (capped at 250 ms). The idle
  row compares a connected pi with two \`"ideServers": false\` ones beside it, window by window, as the Neovim
  row does.
- **Process facts** (group 15) set the \`ps\` + \`lsof\` backend (macOS's; here Debian's procps and lsof, forced
  with \`PI_IDE_PROCESS_FACTS=ps\`) beside the \`/proc\` one, with ten headless Neovims (\`--listen\`) and
  \`sleep\`s filling the machine to ~300 processes. Scans are unscoped, as a user's pi scans, so the machine's
  other editors count too (the row says how many were found). Spawns are counted by shell wrappers first on the
  PATH that append a line to a file and exec the real tool (timed scans run without them); the idle row runs
  the real pi with them on its PATH and counts what ran while it was idle.
- **Review** (group 13) times the model's \`edit\` of one line through the real pi in RPC mode from the moment
  the fake model server answers with the call, on the bench's own clock. Neovim's diff counts as shown when
  Neovim flushes the redraw that draws it to its UIs: the bench attaches a UI of its own beside tmux's, on the
  same grid, and reads the screen from the redraw events. VS Code's counts as shown when pi raises its select
  saying so, which it does the moment the client's \`pi/diffShown\` arrives. The accepted review's cost sets the
  same edits with review on (\`:w\` sent the moment the diff is drawn) against review off in the same pi, in
  ABBA order, to pi's \`tool_execution_end\`.
`;

/**
 * Writes `docs/benchmarks.md` (or wherever asked) and its latency plot beside it: the figures of this run,
 * straight from the rows, so nobody copies them by hand.
 */
export function writeMarkdownReport(path: string, machine: Machine, rows: readonly ReportRow[]): void {
	mkdirSync(dirname(path), { recursive: true });
	const plotName = `${basename(path, ".md")}-follow-latency.svg`;
	const follow = rows.find((row) => row.raw.samples !== undefined)?.raw.samples as
		| { ours: number[]; baseline: number[] }
		| undefined;
	if (follow) {
		const svg = latencyPlotSvg(`Follow latency, ${follow.ours.length} writes (commit ${machine.commit})`, [
			{ label: "pi-ide-context (file-system events)", color: "#1f77b4", samplesMs: follow.ours },
			{ label: "polling baseline (1 s)", color: "#d62728", samplesMs: follow.baseline },
		]);
		writeFileSync(join(dirname(path), plotName), svg);
	}
	const table = [
		"| measure | pi-ide-context | polling baseline | baseline/ours | target | met |",
		"|---|---|---|---|---|---|",
		...rows.map(
			(row, index) =>
				`| ${index + 1}. ${row.short} | ${headline(row.ours)} | ${headline(row.baseline)} | ${headline(row.ratio)} | ${headline(row.target)} | ${metText(row.met)} |`,
		),
	];
	const details = rows.map(
		(row, index) =>
			`${index + 1}. ${row.measure.replace(/^\d+\. /, "")}: ours ${row.ours}${row.baseline ? `; baseline ${row.baseline}` : ""}${row.ratio ? `; ratio ${row.ratio}` : ""}${row.target ? `; target ${row.target}` : ""}.`,
	);
	const text = [
		"# Benchmarks",
		"",
		`Written by \`npm run bench -- --markdown ${path}\` from one run of commit ${machine.commit}: ${machine.cores} cores, Node ${machine.node}, ${machine.seconds} s${machine.quick ? " (quick mode: small samples, not for reporting)" : ""}. Both sides run in pi 0.73 on that Node; the Zed rows (marked pi 1.x) run in pi 1.x on the pi 1.x toolchain's Node 22. Re-run it after a change that touches a measured path; the figures below are never edited by hand.`,
		"",
		...(follow ? [`![Follow latency: ours against the polling baseline](${plotName})`, ""] : []),
		...table,
		"",
		"## What each row measures, with every figure",
		"",
		...details,
		"",
		HOW_TO_READ,
	].join("\n");
	writeFileSync(path, text);
}

/** A row that could not be measured here: the reason where the figure would be, nothing judged. */
export function skippedRow(group: number, short: string, reason: string): ReportRow {
	return {
		short,
		measure: `${group}. ${short}`,
		ours: `skipped: ${reason}`,
		baseline: "",
		ratio: "",
		target: "",
		met: undefined,
		raw: {},
	};
}
