import { formatAgo, show } from "../../../shared/core/display-text.ts";
import type { SourcePhase } from "../../kit/core/source-phase.ts";
import {
	cwdAndFileText,
	requestAndCutsLines,
	type ServerEntry,
	tierText,
	watchProblemLines,
} from "../../kit/core/status-texts.ts";
import { type AsksState, asksStatusText } from "./asks.ts";

/** One Emacs pi holds a connection with (its session's report, and what the source adds). */
export interface EmacsEntry extends ServerEntry {
	/** `emacs-version` as the probe answered. */
	version?: string;
	daemon: boolean;
	/** Frames a user sees, as last read (a daemon's own frame on `initial_terminal` is not one). */
	frames?: number;
	/** The major mode of the file's buffer (`python-mode`). */
	mode?: string;
	minibuffer?: boolean;
	/** States pushed over pi's connection since it opened, and when the last came (unix seconds). */
	pushes: { count: number; lastAtSeconds?: number };
	/** A request timed out and nothing came since: a long command runs; what it pushed last stands. */
	busy: boolean;
	/** pi's commands there (`M-x pi-ask`): defined or why not, and the last ask line pi could not take. */
	asks?: { state: AsksState; lastProblem?: string };
}

/** An Emacs pi does not read: no server, a TCP server, or one pi could not talk to (a frameless daemon is read). */
export interface EmacsUnread {
	pid: number;
	daemon: boolean;
	why:
		| { kind: "no-server" }
		| { kind: "tcp"; ports: readonly number[] }
		| { kind: "failed"; socket: string; reason: string };
}

/** What the Emacs source knows, for `/ide status`. */
export interface EmacsReport {
	phase: SourcePhase;
	/** Where `"emacs": false` was said, when off. */
	source: string;
	/** `INSIDE_EMACS` of pi's environment, and the Emacs among pi's ancestors, when one is (read or not). */
	insideEmacs?: string;
	enclosingPid?: number;
	emacsen: readonly EmacsEntry[];
	unread: readonly EmacsUnread[];
	/** pi's own socket that its elisp connects back to, or why there is none (then no Emacs is read). */
	listener: { socket?: string; problem?: string };
	/** Server socket dirs whose watch is not working now, and why (new Emacsen are then found on `/ide` only). */
	watchProblems?: readonly { dir: string; problem: string }[];
}

/** The one line that turns an Emacs's server on. */
export const SERVER_START_HINT = "M-x server-start, or (server-start) in the init file";

function offered(entry: EmacsEntry, projectDir: string): string {
	// Connected all the same: a frame's opening makes it an editor at once, its last one's closing unmakes it.
	if (entry.frames === 0) return "no frame a user sees: listed, not offered (emacsclient -c or -t makes one)";
	if (!entry.editor) return entry.busy ? "not read yet: busy (its request timed out)" : "not read yet";
	if (entry.enclosing) return "tier 0 (pi runs in its terminal: $INSIDE_EMACS, an ancestor of pi)";
	return tierText(entry.editor.paths, projectDir);
}

function pushesText(entry: EmacsEntry, nowSeconds: number): string {
	const { count, lastAtSeconds } = entry.pushes;
	const received =
		count === 0 || lastAtSeconds === undefined
			? "none received"
			: `${count} received, the last ${formatAgo(Math.max(0, nowSeconds - lastAtSeconds))}`;
	return `${entry.pushing ? "live" : "off (read on /ide)"} (${received})`;
}

function entryLines(entry: EmacsEntry, nowSeconds: number, projectDir: string): string[] {
	const about = [entry.version && `Emacs ${show(entry.version, 20)}`, entry.daemon && "a daemon"]
		.filter(Boolean)
		.join(", ");
	const frames = entry.frames === undefined ? "frames unknown" : `${entry.frames} frame(s)`;
	return [
		`  emacs ${entry.pid}: ${show(entry.socket)}${about ? ` (${about})` : ""}`,
		`    ${cwdAndFileText(entry)}${entry.mode ? ` (${show(entry.mode, 40)})` : ""}`,
		`    ${frames}${entry.minibuffer ? ", in the minibuffer" : ""}; ${offered(entry, projectDir)}`,
		`    pushes: ${pushesText(entry, nowSeconds)}${entry.busy ? "; busy: its last request timed out" : ""}`,
		...(entry.asks ? [`    ${asksStatusText(entry.asks.state, entry.asks.lastProblem)}`] : []),
		...requestAndCutsLines(entry, nowSeconds, "    "),
	];
}

/** What the Emacs pi runs in is to pi, when pi does not read it. */
function enclosingText(report: EmacsReport): string {
	const pid = report.enclosingPid;
	if (pid === undefined) return " (no Emacs among pi's ancestors: ignored)";
	const why = report.unread.find((unread) => unread.pid === pid)?.why;
	switch (why?.kind) {
		case undefined:
			return `; pi runs in emacs ${pid}`;
		case "no-server":
			return `; pi runs in emacs ${pid}, which runs no server: ${SERVER_START_HINT}`;
		case "tcp":
			return `; pi runs in emacs ${pid}, which uses a TCP server (server-use-tcp): not read`;
		case "failed":
			return `; pi runs in emacs ${pid}, which pi cannot talk to (below)`;
	}
}

function unreadLine(unread: EmacsUnread): string {
	const name = `  emacs ${unread.pid}${unread.daemon ? " (a daemon)" : ""}`;
	switch (unread.why.kind) {
		case "no-server":
			return `${name}: no server: ${SERVER_START_HINT}`;
		case "tcp":
			return `${name}: uses a TCP server (server-use-tcp, port ${unread.why.ports.join(", ")}): not read`;
		case "failed":
			return `${name}: ${show(unread.why.socket)}: cannot talk to it: ${show(unread.why.reason)}`;
	}
}

/** The Emacs section of `/ide status`. */
export function emacsStatusLines(report: EmacsReport, nowSeconds: number, projectDir: string): string[] {
	if (report.phase === "off") return [`Emacs: off ("emacs": false in ${show(report.source)})`];
	if (report.phase === "unsupported")
		return ["Emacs: not read on Windows (its server speaks TCP there; see docs/editors.md)"];
	if (report.phase === "starting") return ["Emacs: looking"];
	const lines = [
		`Emacs: ${report.emacsen.length} read over their own servers (found at start, on /ide, and when a socket appears in a server dir)`,
	];
	if (report.listener.problem !== undefined)
		lines.push(`  pi's push socket: ${show(report.listener.problem)} (no Emacs is read)`);
	if (report.insideEmacs !== undefined)
		lines.push(`  $INSIDE_EMACS: ${show(report.insideEmacs, 40)}${enclosingText(report)}`);
	for (const entry of report.emacsen) lines.push(...entryLines(entry, nowSeconds, projectDir));
	for (const unread of report.unread) lines.push(unreadLine(unread));
	lines.push(...watchProblemLines(report.watchProblems, "server dir", "new Emacsen are found"));
	return lines;
}

/** The Emacs line of what `/ide` says when it finds no editor for the project. */
export function emacsNoMatchLine(report: EmacsReport): string {
	if (report.phase !== "watching") return emacsStatusLines(report, 0, "/")[0] as string;
	const withFrame = report.emacsen.filter((entry) => entry.frames !== 0).length;
	const serverless = report.unread.filter((unread) => unread.why.kind === "no-server");
	const enclosing = serverless.find((unread) => unread.pid === report.enclosingPid);
	const noServer = enclosing
		? `; pi runs in emacs ${enclosing.pid}, which runs no server (${SERVER_START_HINT})`
		: serverless.length === 0
			? ""
			: `; ${serverless.length} run no server (${SERVER_START_HINT})`;
	return `Emacs: ${report.emacsen.length} read over their own servers (${withFrame} with a frame); none in this project${noServer}`;
}
