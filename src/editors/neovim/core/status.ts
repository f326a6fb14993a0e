import { show } from "../../../shared/core/display-text.ts";
import type { SourcePhase } from "../../kit/core/source-phase.ts";
import {
	cwdAndFileText,
	requestAndCutsLines,
	type ServerEntry,
	tierText,
	watchProblemLines,
} from "../../kit/core/status-texts.ts";

/** One Neovim as `/ide status` shows it (what its session reports). */
export interface NeovimEntry extends ServerEntry {
	ui?: boolean;
	/** Waits for the user (a prompt) or answers nothing (a busy loop): asked nothing more until it pushes. */
	blocking: boolean;
	autoread?: boolean;
}

/** What the Neovim source knows, for `/ide status`. */
export interface NeovimReport {
	phase: SourcePhase;
	/** Where `"neovim": false` was said, when off. */
	source: string;
	/** `$NVIM` of pi's environment, and whether a Neovim of this user holds that socket. */
	enclosing?: string;
	enclosingFound: boolean;
	neovims: readonly NeovimEntry[];
	/** Neovims found whose server pi could not talk to. */
	failures: readonly { pid: number; socket: string; reason: string }[];
	/** Runtime dirs whose watch is not working now, and why (new Neovims are then found on `/ide` only). */
	watchProblems?: readonly { dir: string; problem: string }[];
}

function offered(entry: NeovimEntry, projectDir: string): string {
	if (entry.ui === false) return "not offered: no UI attached (a headless Neovim: a formatter, a test runner)";
	if (!entry.editor) return entry.blocking ? "not read yet: it waits for the user (a prompt)" : "not read yet";
	if (entry.enclosing) return "tier 0 (pi runs in its terminal: $NVIM)";
	return tierText(entry.editor.paths, projectDir);
}

function entryLines(entry: NeovimEntry, nowSeconds: number, projectDir: string): string[] {
	const autoread =
		entry.autoread === undefined
			? "unknown"
			: entry.autoread
				? "on (the model's edits are reloaded in Neovim)"
				: "off (pi does not reload the model's edits in Neovim)";
	return [
		`  nvim ${entry.pid}: ${show(entry.socket)}`,
		`    ${cwdAndFileText(entry)}`,
		`    ${entry.ui === undefined ? "UI unknown" : entry.ui ? "UI attached" : "no UI"}; ${offered(entry, projectDir)}`,
		`    pushes: ${entry.pushing ? "live" : "off (read on /ide)"}${entry.blocking ? "; blocking: waits for the user" : ""}; autoread: ${autoread}`,
		...requestAndCutsLines(entry, nowSeconds, "    "),
	];
}

/** The Neovim section of `/ide status`. */
export function neovimStatusLines(report: NeovimReport, nowSeconds: number, projectDir: string): string[] {
	if (report.phase === "off") return [`Neovim: off ("neovim": false in ${show(report.source)})`];
	if (report.phase === "unsupported")
		return ["Neovim: not read on Windows (its servers are named pipes; see docs/editors.md)"];
	if (report.phase === "starting") return ["Neovim: looking"];
	const lines = [
		`Neovim: ${report.neovims.length} found over their own servers (found at start, on /ide, and when a server appears in a runtime dir)`,
	];
	if (report.enclosing !== undefined) {
		lines.push(
			`  $NVIM: ${show(report.enclosing)}${report.enclosingFound ? "" : " (no Neovim of this user holds that socket: ignored)"}`,
		);
	}
	for (const entry of report.neovims) lines.push(...entryLines(entry, nowSeconds, projectDir));
	for (const failure of report.failures)
		lines.push(`  nvim ${failure.pid}: ${show(failure.socket)}: cannot talk to it: ${show(failure.reason)}`);
	lines.push(...watchProblemLines(report.watchProblems, "runtime dir", "new Neovims are found"));
	return lines;
}

/** The Neovim line of what `/ide` says when it finds no editor for the project. */
export function neovimNoMatchLine(report: NeovimReport): string {
	if (report.phase !== "watching") return neovimStatusLines(report, 0, "/")[0] as string;
	const withUi = report.neovims.filter((entry) => entry.ui).length;
	return `Neovim: ${report.neovims.length} found over their own servers (${withUi} with a UI); none in this project`;
}
