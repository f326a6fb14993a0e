import { formatAgo, show } from "../../../shared/core/display-text.ts";
import type { EditorReading } from "../../core/editor.ts";
import type { Diagnostic } from "../../core/protocol-state.ts";
import { type EditorPaths, scoreTier } from "../../core/tiers.ts";
import type { LastRequest } from "./request-record.ts";

/**
 * The words `/ide status` uses alike for every source pi talks to (a Neovim's, an Emacs's, an IDE server's
 * connection) and every listed editor (a Zed workspace too), so that one thing reads the same everywhere.
 */

/** An active file's problems as a status line counts them. */
export interface DiagnosticCounts {
	errors: number;
	warnings: number;
}

export function countDiagnostics(items: readonly Pick<Diagnostic, "severity">[]): DiagnosticCounts {
	return {
		errors: items.filter((item) => item.severity === "error").length,
		warnings: items.filter((item) => item.severity === "warning").length,
	};
}

/** ` (2 errors, 1 warnings)` after a file's name; nothing without a file or without counts. */
export function diagnosticCountsText(counts: DiagnosticCounts | undefined, file: string | undefined): string {
	return counts && file !== undefined ? ` (${counts.errors} errors, ${counts.warnings} warnings)` : "";
}

/** `state 3s ago`, `, failed: why` when it failed; `none yet`. */
export function lastRequestText(request: LastRequest | undefined, nowSeconds: number): string {
	if (!request) return "none yet";
	const failure = request.failure ? `, failed: ${show(request.failure)}` : "";
	return `${show(request.what, 40)} ${formatAgo(Math.max(0, nowSeconds - request.atSeconds))}${failure}`;
}

/** How an editor matches the project: `tier 2 (evidence)` or `no tier (why)`. */
export function tierText(paths: EditorPaths, projectDir: string): string {
	const verdict = scoreTier(paths, projectDir);
	return `${verdict.tier === undefined ? "no tier" : `tier ${verdict.tier}`} (${show(verdict.evidence)})`;
}

/** What pi cut or left out of an editor's latest state, one line; none when nothing was. */
export function cutsLines(cuts: readonly string[] | undefined, indent: string): string[] {
	return cuts?.length ? [`${indent}cut by pi: ${cuts.map((cut) => show(cut)).join("; ")}`] : [];
}

/** A watched dir whose watch does not work now: what it is, why, and what is found only on `/ide` then. */
export function watchProblemLines(
	problems: readonly { dir: string; problem: string }[] | undefined,
	dirName: string,
	foundOnIde: string,
): string[] {
	return (problems ?? []).map(
		(watch) => `  ${dirName} ${show(watch.dir)} not watched: ${show(watch.problem)} (${foundOnIde} on /ide)`,
	);
}

/** One editor pi holds a connection with over its own server (a Neovim, an Emacs), as `/ide status` shows it. */
export interface ServerEntry {
	pid: number;
	socket: string;
	/** Its process's working directory (not a buffer's). */
	cwd?: string;
	file?: string;
	/** Its pushes run now (the best tier, the enclosing one, the connected one). */
	pushing: boolean;
	/** The active file's errors and warnings as last read. */
	diagnostics?: DiagnosticCounts;
	/** pi runs in its terminal. */
	enclosing: boolean;
	lastRequest?: LastRequest;
	problem?: string;
	/** What pi cut or left out of the latest snapshot (an oversize field), each with why; the rest stands. */
	cuts?: readonly string[];
	editor?: EditorReading;
}

/** `cwd: …; file: … (2 errors, 0 warnings)` of one server entry. */
export function cwdAndFileText(entry: ServerEntry): string {
	const file = entry.file === undefined ? "none" : show(entry.file);
	return `cwd: ${entry.cwd === undefined ? "unknown" : show(entry.cwd)}; file: ${file}${diagnosticCountsText(entry.diagnostics, entry.file)}`;
}

/** The last request with the problem, then what pi cut: the closing lines of one server entry. */
export function requestAndCutsLines(entry: ServerEntry, nowSeconds: number, indent: string): string[] {
	const problem = entry.problem ? `; problem: ${show(entry.problem)}` : "";
	return [
		`${indent}last request: ${lastRequestText(entry.lastRequest, nowSeconds)}${problem}`,
		...cutsLines(entry.cuts, indent),
	];
}
