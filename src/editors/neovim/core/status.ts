import type { SuggestionKeyAction } from "../../../settings/core/settings.ts";
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
	/** Its ghost text, while pi wants it there (suggestions on, pushes live); absent otherwise. */
	suggestions?: NeovimSuggestionsReport;
	/** Its asks (`:Pi` and the rest), while pi registers itself there; absent otherwise. */
	asks?: NeovimAsksReport;
}

/** pi's asks in one Neovim, for `/ide status`. */
export interface NeovimAsksReport {
	state: "on" | "unsupported" | "failed" | "starting";
	/** The commands defined in Neovim (by the first pi there), and the names a command of the user's holds. */
	defined: readonly string[];
	taken: readonly string[];
	reason?: string;
}

/** `asks: :Pi, :PiAdd, ... (a command of yours holds :Pi: pi's is :PiAsk)`. */
export function askLines(report: NeovimAsksReport): string[] {
	if (report.state === "starting") return ["    asks: starting"];
	if (report.state !== "on") return [`    asks: not offered: ${show(report.reason ?? "unknown")}`];
	const commands = report.defined.map((name) => `:${name}`).join(", ");
	const taken = report.taken.map((name) => `:${name}`).join(", ");
	return [
		`    asks: ${commands || "commands defined by an older pi"}${taken ? ` (a command of yours holds ${taken}: pi's take the fallback names)` : ""}`,
	];
}

/** pi's ghost text in one Neovim, for `/ide status`. */
export interface NeovimSuggestionsReport {
	/** `elsewhere`: another pi owns them (the claim in Neovim); `failed`: not started, asked again. */
	state: "on" | "elsewhere" | "unsupported" | "failed" | "starting";
	/** The channel of the pi that owns them, when another. */
	owner?: number;
	reason?: string;
	keys: Partial<Record<SuggestionKeyAction, string>>;
	/** Keys the user has a mapping of: pi leaves them alone. */
	unoffered: readonly SuggestionKeyAction[];
	/** Asks of this Neovim, and what became of their answers there. */
	counts: { asked: number; shown: number; stale: number; empty: number; cancelled: number };
	/** A notification of the Lua's that pi refused, and why. */
	problem?: string;
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
		...(entry.suggestions ? suggestionLines(entry.suggestions) : []),
		...(entry.asks ? askLines(entry.asks) : []),
	];
}

const KEY_ORDER: readonly SuggestionKeyAction[] = ["accept", "next", "previous", "dismiss", "ask"];

/** `suggestions: ghost text on (…); keys: …; 3 asked: 2 shown, 1 stale`, and the keys pi leaves alone. */
export function suggestionLines(report: NeovimSuggestionsReport): string[] {
	if (report.state === "elsewhere")
		return [
			`    suggestions: another pi owns them in this Neovim (its channel ${report.owner ?? "?"}): that pi asks its model and draws, not this one`,
		];
	if (report.state === "unsupported" || report.state === "failed")
		return [`    suggestions: not drawn: ${show(report.reason ?? "unknown")}`];
	if (report.state === "starting") return ["    suggestions: starting"];
	const keys = KEY_ORDER.flatMap((action) => {
		const lhs = report.keys[action];
		return lhs === undefined || report.unoffered.includes(action) ? [] : [`${show(lhs, 32)} ${action}`];
	});
	const { asked, shown, stale, empty, cancelled } = report.counts;
	const outcomes = [
		[shown, "shown"],
		[stale, "stale (not drawn)"],
		[empty, "none"],
		[cancelled, "cancelled"],
	] as const;
	const said = outcomes.filter(([count]) => count > 0).map(([count, words]) => `${count} ${words}`);
	const lines = [
		`    suggestions: ghost text on (this pi owns them here); keys: ${keys.length > 0 ? keys.join(", ") : "none"}; ${asked} asked${said.length > 0 ? `: ${said.join(", ")}` : ""}`,
	];
	const left = KEY_ORDER.filter((action) => report.unoffered.includes(action) && report.keys[action] !== undefined);
	if (left.length > 0)
		lines.push(
			`    not offered (a mapping of yours): ${left.map((action) => `${show(report.keys[action] ?? "", 32)} (${action})`).join(", ")}`,
		);
	if (report.problem) lines.push(`    suggestions: last refused: ${show(report.problem)}`);
	return lines;
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
