import { formatAgo, show } from "../../../shared/core/display-text.ts";
import type { ListedEditor } from "../../core/editor.ts";
import { tierText } from "../../kit/core/status-texts.ts";
import type { ZedDatabase } from "./data-dirs.ts";
import { type ZedSettingsFacts, zedSettingsLines } from "./settings.ts";
import type { RunningZed } from "./which-zed.ts";

/** One workspace row of Zed's database as `/ide status` shows it. */
export interface ZedWorkspaceReport {
	id: string;
	paths: string;
	/** Why it is not an editor pi offers (another session, remote). */
	notOffered?: string;
	editor?: ListedEditor;
	/** Why the latest read kept the editor state before it. */
	kept?: string;
}

/** What the Zed source knows, for `/ide status`. */
export interface ZedReport {
	phase:
		| { kind: "starting" }
		| { kind: "off"; source: string }
		| { kind: "no-database"; looked: string[] }
		| { kind: "problem"; reason: string }
		| { kind: "reading" };
	database?: ZedDatabase;
	zed?: RunningZed;
	schemaSteps?: string;
	sessionId?: string;
	workspaces: readonly ZedWorkspaceReport[];
	lastProblem?: { reason: string; atSeconds: number };
	/** The rows cannot be used: no Zed editor is offered. */
	blocked?: string;
	/** Running Zeds with `ZED_STATELESS` (an in-memory database): the rows on disk are not theirs. */
	stateless?: readonly number[];
	/** The running Zed's own settings that decide what pi can see, and their file. */
	settings?: { facts: ZedSettingsFacts; file: string };
	/**
	 * Reads of the database so far, how long the last one held pi's thread, whether it succeeded, and how
	 * often the slow fallback looked at the database's files.
	 */
	reads?: { count: number; lastMs: number; lastOk: boolean; fallbackChecks: number };
	/** Database dirs whose watch is not working now, and why (the 2 s fallback still reads every change). */
	watchProblems?: readonly { dir: string; problem: string }[];
}

function workspaceLine(workspace: ZedWorkspaceReport, projectDir: string): string {
	const roots = workspace.paths.split("\n").filter(Boolean);
	const head = `  Workspace ${show(workspace.id, 24)} (${roots.length === 0 ? "no folder" : show(roots.join(", "), 120)})`;
	if (workspace.notOffered) return `${head}: not offered: ${show(workspace.notOffered)}`;
	const editor = workspace.editor;
	if (!editor) return `${head}: not read yet`;
	const buffer = editor.state.active_buffer;
	const file = buffer?.file ? show(buffer.name, 40) : "no editor tab";
	const tier = tierText(editor.paths, projectDir);
	const unsaved = buffer?.modified ? ", unsaved changes" : "";
	const kept = workspace.kept ? ` (kept: ${show(workspace.kept)})` : "";
	const hidden = editor.hidden ? ", hidden (its window shows another workspace)" : "";
	return `${head}: ${tier}, ${file}${unsaved}${hidden}${kept}`;
}

/** The Zed section's first line: whether Zed is read, and if so which database and whether Zed runs. */
function zedHeadline(report: ZedReport): string {
	const { phase, database } = report;
	if (phase.kind === "off") return `Zed: not read (${show(phase.source, 200)} says "zed": false)`;
	if (phase.kind === "starting") return "Zed: starting";
	if (phase.kind === "no-database")
		return `Zed: no Zed database (looked in ${phase.looked.map((dir) => show(dir, 120)).join(", ")})`;
	if (phase.kind === "problem") return `Zed: not read: ${show(phase.reason, 200)}`;
	if (!database) return "Zed: Zed is not running (its database is watched: starting Zed connects)";
	const running = report.zed ? `Zed is running (pid ${report.zed.pid})` : "Zed is not running";
	return `Zed: database ${show(database.path, 200)} (${database.channel}); ${running}`;
}

/** `/ide status`'s Zed section: the database, whether Zed runs, the schema, the session, each workspace. */
export function zedStatusLines(report: ZedReport, nowSeconds: number, projectDir: string): string[] {
	const lines = [zedHeadline(report)];
	if (report.phase.kind !== "reading") return lines;
	if (report.schemaSteps) lines.push(`  Schema steps: ${show(report.schemaSteps, 200)}`);
	if (report.blocked) lines.push(`  NOT read: ${show(report.blocked, 200)}`);
	if (report.sessionId) lines.push(`  Session: ${show(report.sessionId, 60)}`);
	if (report.reads && report.reads.count > 0)
		lines.push(
			`  Reads: ${report.reads.count}, the last took ${report.reads.lastMs.toFixed(1)} ms; fallback checks: ${report.reads.fallbackChecks}`,
		);
	for (const pid of report.stateless ?? [])
		lines.push(`  Zed ${pid} runs with ZED_STATELESS: its database is in memory, the rows on disk are not its`);
	if (report.settings) lines.push(...zedSettingsLines(report.settings.facts, show(report.settings.file, 200)));
	if (report.zed) for (const workspace of report.workspaces) lines.push(workspaceLine(workspace, projectDir));
	for (const watch of report.watchProblems ?? [])
		lines.push(`  ${show(watch.dir, 200)} not watched: ${show(watch.problem)} (changes are seen within 2 s)`);
	if (report.lastProblem) {
		const { reason, atSeconds } = report.lastProblem;
		const since = report.reads?.lastOk ? "; read fine since" : "";
		lines.push(`  Last read problem (${formatAgo(nowSeconds - atSeconds)}${since}): ${show(reason, 200)}`);
	}
	return lines;
}

/** What `/ide` adds when it finds no editor for the project: Zed's headline, when there is a Zed database. */
export function zedNoMatchLine(report: ZedReport): string | undefined {
	const kind = report.phase.kind;
	return kind === "reading" || kind === "problem" ? zedHeadline(report) : undefined;
}
