import { clip, sanitizeForDisplay } from "../../shared/core/display-text.ts";
import { parseJsonc } from "../../shared/core/jsonc.ts";
import { type IdeSettings, SETTINGS_KEY, type SettingsProblem, type SettingsScope } from "./settings.ts";

/** What reading one settings file gave: nothing there, its text, or why it could not be read (an errno code). */
export type SettingsFileRead =
	| { kind: "missing" }
	| { kind: "text"; text: string }
	| { kind: "unreadable"; code: string };

export interface SettingsFileValue {
	/** The file's parsed value; undefined when it is missing or has a problem (its settings count as not set). */
	value: unknown;
	problem?: SettingsProblem;
}

const BYTE_ORDER_MARK = "\uFEFF";

/**
 * One settings file as pi-ide reads it: JSON with comments and trailing commas (pi itself reads strict JSON, so
 * a file pi can read is always read here too). Untrusted text: a problem, never a throw.
 */
export function settingsFileValue(scope: SettingsScope, file: string, read: SettingsFileRead): SettingsFileValue {
	// pi reads an empty file as no settings, without a word.
	if (read.kind === "missing" || (read.kind === "text" && read.text === "")) return { value: undefined };
	const problem = (reason: string, piSaysIt: boolean, at?: { line: number; column: number }): SettingsFileValue => ({
		value: undefined,
		problem: { scope, file, reason: clip(sanitizeForDisplay(reason), 160), piSaysIt, ...at },
	});
	if (read.kind === "unreadable") return problem(`cannot be read (${read.code})`, true);
	const text = read.text.startsWith(BYTE_ORDER_MARK) ? read.text.slice(1) : read.text;
	const parsed = parseJsonc(text);
	if (!parsed.ok) return problem(withoutQuotedText(parsed.reason), true, lineAndColumn(text, parsed.reason));
	const value = parsed.value;
	if (typeof value !== "object" || value === null || Array.isArray(value)) return problem("not a JSON object", false);
	const section = (value as Record<string, unknown>)[SETTINGS_KEY];
	if (section !== undefined && (typeof section !== "object" || section === null || Array.isArray(section)))
		return problem(`"${SETTINGS_KEY}" is not an object`, false);
	return { value };
}

/**
 * V8 quotes the text around the error (`Unexpected token 'x', ..."key": x"... is not valid JSON`) and says the
 * position in one of two ways by Node version; the position is said apart, the file's own text never.
 */
function withoutQuotedText(reason: string): string {
	return reason
		.replace(/(Unexpected token '.+?'), .* is not valid JSON/s, "$1")
		.replace(/ (in JSON )?at position \d+( \(line \d+ column \d+\))?/, "")
		.replace(/^not valid JSON with comments \((.*)\)$/s, "not valid JSON: $1");
}

/** Where JSON.parse stopped, as a line and column of the text (jsonc.ts keeps positions as written). */
function lineAndColumn(text: string, reason: string): { line: number; column: number } | undefined {
	const position = /at position (\d+)/.exec(reason)?.[1];
	const offset = position === undefined ? text.length : Number(position);
	if (position === undefined && !/Unexpected end of JSON input/.test(reason)) return undefined;
	const before = text.slice(0, offset);
	const lineStart = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r")) + 1;
	return { line: before.split(/\r\n|\r|\n/).length, column: offset - lineStart + 1 };
}

const show = (text: string) => clip(sanitizeForDisplay(text), 200);
const where = ({ line, column }: SettingsProblem) => (line === undefined ? "" : ` at line ${line}, column ${column}`);

/** `/ide status`: the file, the reason, where, and what applies instead. */
export function settingsProblemLine(problem: SettingsProblem): string {
	if (problem.setting) return `Settings file ${show(problem.file)}: "${problem.setting}" not used: ${problem.reason}`;
	return `Settings file ${show(problem.file)}: not used: ${problem.reason}${where(problem)}; none of its pi-ide settings apply`;
}

/**
 * The warning, once. A single setting refused says only that; for a whole file pi already names its own parse
 * error, so then only what pi-ide adds (that its settings there are not used, and which defaults apply instead).
 */
export function settingsProblemNotice(problem: SettingsProblem, settings: IdeSettings): string {
	if (problem.setting) return `pi-ide: "${problem.setting}" in ${show(problem.file)} does not apply: ${problem.reason}`;
	const why = problem.piSaysIt ? "pi names the error" : `${problem.reason}${where(problem)}`;
	return `pi-ide: none of its settings in ${show(problem.file)} apply (${why}); ${defaultsInEffect(problem.scope, settings)}`;
}

function defaultsInEffect(broken: SettingsScope, settings: IdeSettings): string {
	const defaults: string[] = [];
	if (settings.context.source === "default") defaults.push(`context ${settings.context.mode}`);
	if (settings.autoconnect) defaults.push("auto-connect on");
	if (settings.zed.source === "default") defaults.push("Zed read");
	if (settings.neovim.source === "default") defaults.push("Neovim read");
	if (settings.emacs.source === "default") defaults.push("Emacs read");
	if (settings.redactSecrets.source === "default") defaults.push("credential redaction on");
	if (settings.guardUnsaved.source === "default") defaults.push("unsaved-buffer guard on");
	const other: SettingsScope = broken === "global" ? "project" : "global";
	const kept = settings.secretFiles[other].length;
	defaults.push(
		kept === 0
			? "only the default secret-file patterns"
			: `the default secret-file patterns and ${kept} from the ${other} settings`,
	);
	return `in effect: ${defaults.join(", ")}`;
}
