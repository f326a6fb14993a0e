/** The key in pi's settings files; the WebSocket peer pi-ide reads the same key. */
export const SETTINGS_KEY = "pi-ide";

/** `secretFiles` as each settings file lists it. */
export interface SecretFileLists {
	global: string[];
	project: string[];
}

export type SettingSource = "default" | "global" | "project";

export type SettingsScope = "global" | "project";

/** A settings file that is there but whose pi-ide settings cannot be used: none of them apply. */
export interface SettingsProblem {
	scope: SettingsScope;
	file: string;
	/** Terminal-safe, one line, without the file's own text (JSON.parse quotes it, and a settings file may hold keys). */
	reason: string;
	/** Set when only this one setting of the file is not used (the rest of the file applies). */
	setting?: string;
	/** 1-based, in the file as written (comments included), when the parser says where. */
	line?: number;
	column?: number;
	/**
	 * pi's own reader fails on this file too and says so itself at start-up, on both lines (0.73: "Warning:
	 * (startup session lookup, global settings) ..."; 1.x: "Invalid settings file <path>: ..."): a notice then
	 * adds only what pi-ide does about it.
	 */
	piSaysIt: boolean;
}

/** A guard is on unless the user's own (global) settings turn it off; a project may only turn it on. */
export interface GuardSetting {
	on: boolean;
	source: SettingSource;
}

/** `auto`: the ambient editor block plus references; `explicit`: only what the user references. */
export type ContextMode = "auto" | "explicit";

export type IdeServersMode = "ask" | "auto" | "off";

export interface IdeSettings {
	autoconnect: boolean;
	/** A project may choose `explicit` (it only sends less); its `auto` does not override a global `explicit`. */
	context: { mode: ContextMode; source: SettingSource };
	/** The user's secret-file globs per file: both lists count, beside the defaults (pi 1.x would replace arrays). */
	secretFiles: SecretFileLists;
	redactSecrets: GuardSetting;
	guardUnsaved: GuardSetting;
	/** Read Zed's own state database: on unless global or project settings say `false` (either only sends less). */
	zed: { on: boolean; source: SettingSource };
	/** Talk to every Neovim's own server: on unless global or project settings say `false`, as `zed`. */
	neovim: { on: boolean; source: SettingSource };
	/** Talk to every Emacs's own server (and let pi's elisp connect back): on unless either file says `false`, as `neovim`. */
	emacs: { on: boolean; source: SettingSource };
	/** Asks from the editor (`:Pi`, `M-x pi-ask`, "pi: Ask…"): on unless either file says `false`, as `neovim`. */
	asks: { on: boolean; source: SettingSource };
	/** pi's questions of a run an editor asked, shown in that editor too: on (with asks) unless either file says `false`. */
	mirrorQuestions: { on: boolean; source: SettingSource };
	/** pi-bridge.nvim's socket served (while asks are on): either file may turn it off. */
	piBridge: { on: boolean; source: SettingSource };
	/**
	 * IDE servers (lockfiles + MCP over WebSocket): `ask` (default) connects to one when picked, `auto` by the
	 * rules as every editor, `off` ignores them. Either file may turn them off; only the user's own (global) file
	 * says `auto`: a cloned repository must not make pi take an IDE server from another agent.
	 */
	ideServers: { mode: IdeServersMode; source: SettingSource };
	/**
	 * Show the model's `write`/`edit` as a diff to accept or reject before it lands: off unless a file says `true`;
	 * a project may turn it on, only the user's own (global) `false` turns it off.
	 */
	review: { on: boolean; source: SettingSource };
	/**
	 * Inline suggestions (an editor's `getSuggestions` answered by a model): `asked-only` by default, `true` or a
	 * model (`"<provider>/<id>"`) on everywhere, `false` off. A project may turn them off, never on or choose the
	 * model: a cloned repository must not start a bill or pick an expensive model (its attempt is a problem).
	 */
	suggestions: SuggestionsSetting;
	/** `suggestionsPerMinute` per file, each a whole number >= 1: a project's only ever lowers the limit. */
	suggestionsPerMinute: { global?: number; project?: number };
	/**
	 * `suggestionDebounceMs` per file (Neovim's ghost text, VS Code's completions: the pause after typing before pi
	 * is asked), each a whole number 0..10 000: a project's only ever lengthens the pause (fewer requests).
	 */
	suggestionDebounceMs: { global?: number; project?: number };
	/** `suggestionKeys`, the global file's only (a cloned repository does not choose your keys). */
	suggestionKeys: SuggestionKeys;
	/** The settings files that are there but could not be used (core/settings-file.ts): none of their settings apply. */
	problems: readonly SettingsProblem[];
}

function section(settings: unknown): Record<string, unknown> {
	if (typeof settings !== "object" || settings === null) return {};
	const value = (settings as Record<string, unknown>)[SETTINGS_KEY];
	return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const flag = (value: unknown) => (typeof value === "boolean" ? value : undefined);
const globs = (value: unknown) =>
	Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item.trim() !== "") : [];

/**
 * A cloned repository's `.pi/settings.json` is not the user's word: it may add secret-file patterns or turn
 * a guard on, never turn one off.
 */
function guard(global: unknown, project: unknown): GuardSetting {
	if (flag(global) === false)
		return flag(project) === true ? { on: true, source: "project" } : { on: false, source: "global" };
	return { on: true, source: flag(global) === true ? "global" : "default" };
}

function contextMode(global: unknown, project: unknown): IdeSettings["context"] {
	if (global === "explicit") return { mode: "explicit", source: "global" };
	if (project === "explicit") return { mode: "explicit", source: "project" };
	if (project === "auto") return { mode: "auto", source: "project" };
	return { mode: "auto", source: global === "auto" ? "global" : "default" };
}

/** A source of editors: either settings file may turn it off (it only sends less); a project's `true` overrides nothing. */
function sourceSetting(global: unknown, project: unknown): IdeSettings["zed"] {
	if (flag(global) === false) return { on: false, source: "global" };
	if (flag(project) === false) return { on: false, source: "project" };
	if (flag(project) === true) return { on: true, source: "project" };
	return { on: true, source: flag(global) === true ? "global" : "default" };
}

const serverMode = (value: unknown): IdeServersMode | undefined =>
	value === false ? "off" : value === "ask" || value === "auto" ? value : undefined;

function ideServersSetting(global: unknown, project: unknown): IdeSettings["ideServers"] {
	const [mine, theirs] = [serverMode(global), serverMode(project)];
	if (mine === "off") return { mode: "off", source: "global" };
	if (theirs === "off" || theirs === "ask") return { mode: theirs, source: "project" };
	return mine ? { mode: mine, source: "global" } : { mode: "ask", source: "default" };
}

function reviewSetting(global: unknown, project: unknown): IdeSettings["review"] {
	if (flag(global) === false) return { on: false, source: "global" };
	if (flag(project) === true) return { on: true, source: "project" };
	return flag(global) === true ? { on: true, source: "global" } : { on: false, source: "default" };
}

/**
 * `asked-only`: pi answers an editor that asks on its own (pi-ide.nvim has its own switch); `on`: every editor,
 * pi's own included; `off`: no request gets a suggestion and no model is called.
 */
export type SuggestionsMode = "asked-only" | "on" | "off";

export interface SuggestionsSetting {
	mode: SuggestionsMode;
	/** The model the global file named (`"<provider>/<id>"`), never a project's. */
	model?: string;
	source: SettingSource;
}

/** `"<provider>/<id>"` in shape (the id may hold more slashes); whether pi has it is asked when it is used. */
const modelShape = (value: unknown): value is string =>
	typeof value === "string" && value.length <= 256 && /^[^/\s]+\/\S+$/.test(value);

/** Why a project's `suggestions` value was not used, when it asked for more than a project may. */
export const PROJECT_SUGGESTIONS_REFUSED =
	"a project's settings may turn suggestions off, never on or choose their model; only the global settings do";

function suggestionsSetting(global: unknown, project: unknown): SuggestionsSetting {
	if (global === false) return { mode: "off", source: "global" };
	if (project === false) return { mode: "off", source: "project" };
	if (global === true) return { mode: "on", source: "global" };
	if (modelShape(global)) return { mode: "on", model: global, source: "global" };
	return { mode: "asked-only", source: "default" };
}

/** What a key of Neovim's ghost text does; `false`: no key for it. */
export type SuggestionKeyAction = "accept" | "next" | "previous" | "dismiss" | "ask";

export type SuggestionKeys = Record<SuggestionKeyAction, string | false>;

/**
 * copilot.lua's keys (never `<Tab>`: it fights completion menus and indenting). A Mac's terminal sends Meta for
 * Option only when told to (docs/editors.md).
 */
export const SUGGESTION_KEYS_DEFAULT: Readonly<SuggestionKeys> = {
	accept: "<M-l>",
	next: "<M-]>",
	previous: "<M-[>",
	dismiss: "<C-]>",
	ask: "<M-\\>",
};

/** A key as Neovim's `{lhs}` writes it (`<M-l>`, `<C-]>`, `gl`): printable ASCII, no space, at most 32. */
const keyShape = (value: unknown): value is string => typeof value === "string" && /^[\x21-\x7e]{1,32}$/.test(value);

/** The global file's keys over the defaults, each checked on its own: `false` or `""` is no key, nonsense the default. */
function suggestionKeysSetting(global: unknown): SuggestionKeys {
	const keys = { ...SUGGESTION_KEYS_DEFAULT };
	if (typeof global !== "object" || global === null || Array.isArray(global)) return keys;
	for (const action of Object.keys(keys) as SuggestionKeyAction[]) {
		const value = (global as Record<string, unknown>)[action];
		if (value === false || value === "") keys[action] = false;
		else if (keyShape(value)) keys[action] = value;
	}
	return keys;
}

const debounceMs = (value: unknown) =>
	typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= 10_000 ? value : undefined;

const perMinute = (value: unknown) =>
	typeof value === "number" && Number.isSafeInteger(value) && value >= 1 ? value : undefined;

/** The problem of a project file whose `suggestions` asks to turn them on or to choose the model. */
function projectSuggestionsProblem(project: unknown, projectFile: string): SettingsProblem[] {
	if (project !== true && !modelShape(project)) return [];
	return [
		{
			scope: "project",
			file: projectFile,
			setting: "suggestions",
			reason: PROJECT_SUGGESTIONS_REFUSED,
			piSaysIt: false,
		},
	];
}

/** `autoconnect`: project wins over global, missing means on. */
export function resolveSettings(
	globalSettings: unknown,
	projectSettings: unknown,
	problems: readonly SettingsProblem[] = [],
	projectFile = ".pi/settings.json",
): IdeSettings {
	const global = section(globalSettings);
	const project = section(projectSettings);
	return {
		autoconnect: flag(project.autoconnect) ?? flag(global.autoconnect) ?? true,
		context: contextMode(global.context, project.context),
		secretFiles: { global: globs(global.secretFiles), project: globs(project.secretFiles) },
		redactSecrets: guard(global.redactSecrets, project.redactSecrets),
		guardUnsaved: guard(global.guardUnsaved, project.guardUnsaved),
		zed: sourceSetting(global.zed, project.zed),
		neovim: sourceSetting(global.neovim, project.neovim),
		emacs: sourceSetting(global.emacs, project.emacs),
		asks: sourceSetting(global.asks, project.asks),
		mirrorQuestions: sourceSetting(global.mirrorQuestions, project.mirrorQuestions),
		piBridge: sourceSetting(global.piBridge, project.piBridge),
		ideServers: ideServersSetting(global.ideServers, project.ideServers),
		review: reviewSetting(global.review, project.review),
		suggestions: suggestionsSetting(global.suggestions, project.suggestions),
		suggestionsPerMinute: {
			global: perMinute(global.suggestionsPerMinute),
			project: perMinute(project.suggestionsPerMinute),
		},
		suggestionDebounceMs: {
			global: debounceMs(global.suggestionDebounceMs),
			project: debounceMs(project.suggestionDebounceMs),
		},
		suggestionKeys: suggestionKeysSetting(global.suggestionKeys),
		problems: [...problems, ...projectSuggestionsProblem(project.suggestions, projectFile)],
	};
}

/** Why review is on or off right now, for the widget, the event and `/ide status`. */
export interface ReviewStanding {
	on: boolean;
	/** `process`: `/ide review on|off` for this pi process. `print-mode`: a project's `true` a script does not obey. */
	source: SettingSource | "process" | "print-mode";
}

/**
 * `/ide review on|off` wins for this pi process; then the settings, except that in print mode a project's
 * `true` does not apply (a cloned repository must not block every write of a script).
 */
export function reviewStanding(
	setting: IdeSettings["review"],
	override: boolean | undefined,
	printMode: boolean,
): ReviewStanding {
	if (override !== undefined) return { on: override, source: "process" };
	if (setting.on && setting.source === "project" && printMode) return { on: false, source: "print-mode" };
	return setting;
}

/** Why suggestions are answered or not right now, for the service and `/ide status`. */
export interface SuggestionStanding {
	mode: SuggestionsMode;
	/** The global file's model, kept under `/ide suggestions on`. */
	model?: string;
	/** `process`: `/ide suggestions on|off` for this pi process. */
	source: SettingSource | "process";
}

/** `/ide suggestions on|off` wins for this pi process (`on` keeps the global file's model); then the settings. */
export function suggestionStanding(setting: SuggestionsSetting, override: boolean | undefined): SuggestionStanding {
	if (override === false) return { mode: "off", source: "process" };
	if (override === true) return { mode: "on", ...(setting.model && { model: setting.model }), source: "process" };
	return setting;
}

/** Requests a minute per editor: the global file's number or `defaultPerMinute`, lowered by a project's. */
export function suggestionsPerMinute(setting: IdeSettings["suggestionsPerMinute"], defaultPerMinute: number): number {
	return Math.min(setting.global ?? defaultPerMinute, setting.project ?? Number.POSITIVE_INFINITY);
}

/** The pause after typing before Neovim asks: the global file's or `defaultMs`, lengthened by a project's. */
export function suggestionDebounceMs(setting: IdeSettings["suggestionDebounceMs"], defaultMs: number): number {
	return Math.max(setting.global ?? defaultMs, setting.project ?? 0);
}
