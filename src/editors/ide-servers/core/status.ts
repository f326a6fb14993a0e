import { sanitizeForDisplay, show } from "../../../shared/core/display-text.ts";
import type { EditorReading } from "../../core/editor.ts";
import type { LastRequest } from "../../kit/core/request-record.ts";
import type { SourcePhase } from "../../kit/core/source-phase.ts";
import { lastRequestText, tierText } from "../../kit/core/status-texts.ts";
import type { LockDirKind } from "./lock-dirs.ts";

/** `at_mentioned` read: the file and its 1-based lines, when the editor sent lines. */
export interface Mention {
	file: string;
	lines?: { start: number; end: number };
}

/** What `/ide status` says of one connection, as far as its session knows. Never the token. */
export interface SessionReport {
	server?: { name: string; version: string };
	tools: readonly string[];
	pushes: number;
	lastRequest?: LastRequest;
	problem?: string;
	nonsense?: { count: number; last: string };
}

/** One lockfile as `/ide status` shows it: the IDE it names and why it is or is not used. */
export interface LockEntryReport {
	name: string;
	port: number;
	ideName?: string;
	folders: readonly string[];
	/** Whose socket listens on the port: the editor's key pid. */
	holderPid?: number;
	/** Why it is not used; undefined when it is listed. */
	unused?: string;
	/** pi runs in this IDE's terminal (`$CLAUDE_CODE_SSE_PORT`). */
	enclosing: boolean;
	connection?: "connecting" | "connected";
	/** Why the last connection ended, or could not be made (waits for `/ide` or a new port or token). */
	ended?: string;
	session?: SessionReport;
	/** The editor it is listed as, matched to the project by `/ide status` (the tier, or why none). */
	editor?: EditorReading;
	/** Another lockfile of the same process is listed (one IDE serving several projects): this one is not. */
	sameProcessAs?: string;
	guard: "available" | "not available (the server cannot tell unsaved documents)" | "unknown until connected";
}

export interface LockDirReport {
	path: string;
	kind: LockDirKind;
	why: string;
	verdict: string;
	watch?: string;
}

export interface IdeServersReport {
	phase: SourcePhase;
	mode: "ask" | "auto" | "off";
	/** Where the setting was said. */
	source: string;
	ssePort?: number;
	dirs: readonly LockDirReport[];
	locks: readonly LockEntryReport[];
}

/** A lockfile's path, cut at its start when long: its name (the port) is what tells one from another. */
function showPath(path: string, max = 120): string {
	const chars = Array.from(sanitizeForDisplay(path));
	return chars.length <= max ? chars.join("") : `...${chars.slice(-(max - 3)).join("")}`;
}

const MODE_TEXT: Record<IdeServersReport["mode"], string> = {
	ask: 'connected when picked with /ide ("ideServers": "ask")',
	auto: 'auto-connected by the same rules as every editor ("ideServers": "auto")',
	off: "off",
};

function sessionLines(session: SessionReport, nowSeconds: number): string[] {
	return [
		`      server: ${session.server ? `${show(session.server.name, 60)} ${show(session.server.version, 30)}` : "not known yet"}; pushes seen: ${session.pushes}`,
		`      tools: ${session.tools.length === 0 ? "none" : show(session.tools.join(", "), 300)}`,
		`      last request: ${lastRequestText(session.lastRequest, nowSeconds)}${session.problem ? `; problem: ${show(session.problem)}` : ""}`,
		...(session.nonsense
			? [`      ${session.nonsense.count} messages pi could not read (last: ${show(session.nonsense.last)})`]
			: []),
	];
}

/** How the listed editor matches the project: its tier and the evidence, or `no tier` and why. */
function listedTierText(editor: EditorReading | undefined, projectDir: string): string {
	if (!editor) return "";
	if (editor.enclosing) return "; tier 0 (pi runs in its terminal)";
	return `; ${tierText(editor.paths, projectDir)}`;
}

function lockLines(lock: LockEntryReport, nowSeconds: number, projectDir: string): string[] {
	const head = `  ${showPath(lock.name)}${lock.ideName ? ` (${show(lock.ideName, 40)})` : ""}`;
	if (lock.unused !== undefined) return [`${head}: not used: ${show(lock.unused, 200)}`];
	if (lock.sameProcessAs !== undefined)
		return [
			`${head}: not listed: pid ${lock.holderPid} also serves ${showPath(lock.sameProcessAs, 60)}, which matches the project better`,
		];
	const state = lock.connection ?? (lock.ended ? `not connected: ${show(lock.ended, 200)}` : "not connected");
	return [
		`${head}: pid ${lock.holderPid} holds port ${lock.port}${lock.enclosing ? "; pi runs in its terminal ($CLAUDE_CODE_SSE_PORT)" : ""}`,
		`    folders: ${lock.folders.length === 0 ? "none" : show(lock.folders.join(", "), 200)}${listedTierText(lock.editor, projectDir)}`,
		`    ${state}; unsaved guard: ${lock.guard}`,
		...(lock.session ? sessionLines(lock.session, nowSeconds) : []),
	];
}

/** The IDE servers section of `/ide status`. */
export function ideServersStatusLines(report: IdeServersReport, nowSeconds: number, projectDir: string): string[] {
	if (report.phase === "off") return [`IDE servers: off ("ideServers": false in ${show(report.source)})`];
	if (report.phase === "unsupported")
		return ["IDE servers: not read on Windows (a port's owner is proven by /proc or lsof; see docs/editors.md)"];
	if (report.phase === "starting") return ["IDE servers: looking"];
	const used = report.locks.filter((lock) => lock.unused === undefined).length;
	const lines = [`IDE servers: ${used} of ${report.locks.length} lockfiles usable; ${MODE_TEXT[report.mode]}`];
	if (report.ssePort !== undefined) lines.push(`  $CLAUDE_CODE_SSE_PORT: ${report.ssePort} (the IDE pi runs in)`);
	for (const dir of report.dirs)
		lines.push(
			`  lock dir ${show(dir.path)} (${dir.why}): ${show(dir.verdict)}${dir.watch ? `; ${show(dir.watch)}` : ""}`,
		);
	for (const lock of report.locks) lines.push(...lockLines(lock, nowSeconds, projectDir));
	return lines;
}

/** The IDE servers line of what `/ide` says when it finds no editor for the project; none when no lockfile is there. */
export function ideServersNoMatchLine(report: IdeServersReport): string | undefined {
	if (report.phase === "off") return ideServersStatusLines(report, 0, "/")[0];
	if (report.phase !== "watching" || report.locks.length === 0) return undefined;
	return `IDE servers: ${report.locks.length} lockfiles (${report.locks.filter((lock) => lock.unused === undefined).length} usable); none in this project`;
}
