/**
 * What outlives a session inside one pi process: `/new`, `/resume`, `/fork` and `/reload` replace the
 * extension instance (pi 0.73 even re-imports the module), so it lives on globalThis under `Symbol.for` keys.
 */
export interface ConnectionMemory {
	/** `key` is the editor's key from its source; `label` names it in notices, `why` in `/ide status`. */
	connected?: { key: string; label: string; why: string };
	/** `/ide off` (or the picker's Disconnect) pauses auto-connect until the user picks an editor. */
	suppressed: boolean;
}

/**
 * Watchers and liveness timers open in this pi process, across every session and module instance. `/ide
 * status` shows it, so a leak across session replacement is visible.
 */
export interface ResourceCount {
	watchers: number;
	timers: number;
	/** Raw `fs.watch`es of the dirs where a Neovim's server appears (`$TMPDIR`, `$XDG_RUNTIME_DIR`). */
	runtimeWatches: number;
	/** Raw `fs.watch`es of the IDE servers' lock dirs (or their nearest parents while missing). */
	lockWatches: number;
	/** Raw `fs.watch`es of the dirs an Emacs's server socket appears in (or their nearest parents while missing). */
	emacsWatches: number;
}

const MEMORY_KEY = Symbol.for("pi-ide-context.connection-memory");
const COUNT_KEY = Symbol.for("pi-ide-context.resource-count");
const EVENTS_KEY = Symbol.for("pi-ide-context.recent-events");
const ONCE_KEY = Symbol.for("pi-ide-context.said-once");
const REVIEW_KEY = Symbol.for("pi-ide-context.review");
const EMACS_INSTALLS_KEY = Symbol.for("pi-ide-context.emacs-installs");
const SUGGESTIONS_KEY = Symbol.for("pi-ide-context.suggestions");

interface ProcessHolder {
	[MEMORY_KEY]?: Map<string, ConnectionMemory>;
	[COUNT_KEY]?: ResourceCount;
	[EVENTS_KEY]?: string[];
	[ONCE_KEY]?: Set<string>;
	[REVIEW_KEY]?: ReviewMemory;
	[EMACS_INSTALLS_KEY]?: number;
	[SUGGESTIONS_KEY]?: SuggestionsMemory;
}

/** `/ide review on|off` holds for this pi process, over the settings files, until pi exits. */
export interface ReviewMemory {
	override?: boolean;
}

/** What this pi process did with editors' `getSuggestions`, for `/ide status`: each request counted once by its end. */
export interface SuggestionCounts {
	requests: number;
	/** Answered with at least one suggestion. */
	answered: number;
	/** The model answered, nothing usable in it. */
	empty: number;
	cancelled: number;
	/** Answered `[]` without a model call: off, a secret file, no file path, a scan that failed, none wanted. */
	refused: number;
	rateLimited: number;
	/** Not a request, no model, the model call failed or timed out. */
	errors: number;
	inputTokens: number;
	outputTokens: number;
}

/** `/ide suggestions on|off` and the counts hold for this pi process, over sessions and the settings files. */
interface SuggestionsMemory {
	override?: boolean;
	counts: SuggestionCounts;
	/** The last failure, terminal-safe: what `/ide status` says went wrong. */
	lastError?: string;
}

const holder = () => globalThis as ProcessHolder;

/** Keyed by where editors are read and by project: a connection only means something for the same pair. */
export function connectionMemory(sourcesId: string, projectDir: string): ConnectionMemory {
	const store = holder();
	store[MEMORY_KEY] ??= new Map();
	const memories = store[MEMORY_KEY];
	const key = `${sourcesId}\u0000${projectDir}`;
	let memory = memories.get(key);
	if (!memory) {
		memory = { suppressed: false };
		memories.set(key, memory);
	}
	return memory;
}

export function resourceCount(): ResourceCount {
	const store = holder();
	store[COUNT_KEY] ??= { watchers: 0, timers: 0, runtimeWatches: 0, lockWatches: 0, emacsWatches: 0 };
	store[COUNT_KEY].runtimeWatches ??= 0;
	store[COUNT_KEY].lockWatches ??= 0;
	store[COUNT_KEY].emacsWatches ??= 0;
	return store[COUNT_KEY];
}

/** This pi process's recent events for `/ide status`, oldest first, in memory only. */
export function recentEvents(): string[] {
	const store = holder();
	store[EVENTS_KEY] ??= [];
	return store[EVENTS_KEY];
}

/**
 * True the first time `key` is asked in this pi process, false after: a warning said once survives `/new`,
 * `/resume` and pi 0.73's module re-import on `/reload`.
 */
export function firstTimeInProcess(key: string): boolean {
	const store = holder();
	store[ONCE_KEY] ??= new Set();
	if (store[ONCE_KEY].has(key)) return false;
	store[ONCE_KEY].add(key);
	return true;
}

export function reviewMemory(): ReviewMemory {
	const store = holder();
	store[REVIEW_KEY] ??= {};
	return store[REVIEW_KEY];
}

/**
 * The next install of pi's elisp in an Emacs, counted across this pi process's sessions: its symbols' prefix
 * (`pi-ide-<pid>-<n>-`) is never one an older session's install, still tearing down there, also uses.
 */
export function nextEmacsInstall(): number {
	const store = holder();
	store[EMACS_INSTALLS_KEY] = (store[EMACS_INSTALLS_KEY] ?? 0) + 1;
	return store[EMACS_INSTALLS_KEY];
}

export function suggestionsMemory(): SuggestionsMemory {
	const store = holder();
	store[SUGGESTIONS_KEY] ??= {
		counts: {
			requests: 0,
			answered: 0,
			empty: 0,
			cancelled: 0,
			refused: 0,
			rateLimited: 0,
			errors: 0,
			inputTokens: 0,
			outputTokens: 0,
		},
	};
	return store[SUGGESTIONS_KEY];
}
