/**
 * Every rhythm pi-ide-context keeps, in one place: what each interval is for, and the values that follow from
 * them computed here, never typed again elsewhere. Timers themselves run through a `Clock` (./clock.ts).
 */

/** How often the pids pi relies on are re-checked: an editor killed with -9 writes nothing more. */
export const LIVENESS_CHECK_MS = 500;

/** A source's own standing (a dir's trust, Zed's database marks) is re-checked every this many liveness ticks. */
export const RECHECK_EVERY_TICKS = 4;

/** The slow fallback's period: a missing side dir looked for, a zombie Zed noticed, Zed's marks compared. */
export const RECHECK_MS = LIVENESS_CHECK_MS * RECHECK_EVERY_TICKS;

/** The same period as `/ide status` says it. */
export const SIDE_DIR_LOOK_SECONDS = RECHECK_MS / 1000;

/** A prompt (and the unsaved guard) waits at most this long for a write that is being read right now. */
export const PROMPT_FLUSH_TIMEOUT_MS = 250;

/**
 * chokidar drops a file's `change` events for 50 ms after one and emits nothing when the window ends, so an
 * editor's second write inside the window raises no event. One re-read this long after the last event
 * converges on the last write (and so within 100 ms of it).
 */
export const TRAILING_READ_MS = 70;

/**
 * Zed's database is read at most `ZED_READS_PER_WINDOW` times in any window this long while Zed keeps writing;
 * the last change is always read. Zed commits one change in up to three transactions (tabs, the editor row,
 * the selections, the last as a delete then inserts): each is read at once, a writer that never stops is not.
 */
export const ZED_READ_THROTTLE_MS = 100;
export const ZED_READS_PER_WINDOW = 3;

/** While no Zed is known, a database change scans `/proc` at most this often (the fallback's own period). */
export const ZED_SCAN_INTERVAL_MS = RECHECK_MS;

/** A selection is meant for the next prompt only this long after the user made it. */
export const SELECTION_FRESH_SECONDS = 60;

/** Clock and mtime granularity, and a client's own write delay, fit well inside this (pid reuse). */
export const PID_REUSE_TOLERANCE_SECONDS = 2;

/**
 * Neovim pushes its state at most once per window this long (leading and trailing edge, one timer in Neovim):
 * a held key sends a few notifications, not hundreds, and a change reaches pi well under 50 ms.
 */
export const NEOVIM_PUSH_THROTTLE_MS = 20;
/** A request to a Neovim that does not answer in this long is given up (it may still run later: harmless). */
export const NEOVIM_REQUEST_TIMEOUT_MS = 500;
/**
 * The guard asks an editor that can be asked (a Neovim, an IDE server) for its unsaved list at a tool call only
 * this long, every request of that ask together; then it uses the last list the editor pushed.
 */
export const GUARD_ASK_MS = 150;
/**
 * After something named `nvim*` appears in a runtime dir, `/proc` is scanned this long after: Neovim 0.7
 * creates its socket inside a fresh dir after the dir. A Neovim found without a socket yet is looked at again
 * after the next delays, then left to `/ide`.
 */
export const NEOVIM_SCAN_DELAYS_MS = [60, 300, 1500] as const;
/**
 * A request to an IDE server that gets no answer in this long is given up: the handshake's steps, the queries at
 * connecting and after a file switch. A prompt's ask is capped lower (`PROMPT_FLUSH_TIMEOUT_MS`), the guard's by
 * `GUARD_ASK_MS`; a review's `openDiff` waits for the user.
 */
export const IDE_REQUEST_TIMEOUT_MS = 2000;
/**
 * A selection an IDE server tells this soon after pi connected was made before (Anthropic's extension replays
 * the last one after 500 ms, monet on `ide_connected`): pi did not see it made, so it has no time (stale).
 */
export const IDE_SELECTION_REPLAY_MS = 1500;
/**
 * After an IDE server closes pi's connection, pi looks this long later whether its lockfile and process are still
 * there: an IDE that quits closes its clients before its listener and lockfile, and that is "gone", not "closed
 * out by another client". Well inside the second in which a gone editor is disconnected.
 */
export const IDE_CLOSE_SETTLE_MS = 250;

/**
 * A review's diff in Neovim: the whole open, `nvim_get_mode` first: a file of a few MB crosses and opens in well under it. Past it pi's
 * select asks alone, and Neovim opens nothing (the chunk's deadline).
 */
export const NEOVIM_DIFF_OPEN_MS = 2000;
/** A close Neovim could not take (a prompt held it) is asked again this often, this many times at most. */
export const NEOVIM_DIFF_CLOSE_RETRY_MS = 1000;
export const NEOVIM_DIFF_CLOSE_ATTEMPTS = 30;

/** How long an RPC host's review dialog stays: pi cannot withdraw it once the editor answered, so it ends by itself. */
export const REVIEW_RPC_DIALOG_TIMEOUT_MS = 120_000;
/**
 * Node fires a timer by its loop's cached time, which lags the precise clock in a busy process: a dialog that
 * pi's own timer ended may look this much short of its timeout.
 */
export const FOREIGN_TIMER_EARLY_MS = 250;
/** pi's select waits this long for the editor to show the diff, so its title can say where; then it asks anyway. */
export const REVIEW_SHOWN_WAIT_MS = 1000;
/** pi's review select ignores keys this long after it appears: an Enter typed for the prompt never approves. */
export const REVIEW_KEYS_ARMED_MS = 500;

/**
 * pi's elisp in an Emacs pushes the state this long after the first change of a burst (one timer, not moved
 * while it is pending): measured key → pushed line ~13 ms at 10 ms, 53 ms at 50 ms, so a key reaches the
 * widget well inside 50 ms.
 */
export const EMACS_PUSH_DEBOUNCE_MS = 10;
/**
 * A request to an Emacs's server that gets no answer in this long is given up (a busy Emacs answers after its
 * command; the request may still run then, so every chunk is harmless late). The prompt never waits on it: a
 * pushing Emacs's state is already in pi.
 */
export const EMACS_REQUEST_TIMEOUT_MS = 1000;
/** A connection to pi's push socket that has not sent a known token as its first line by then is dropped. */
export const EMACS_PUSH_HELLO_TIMEOUT_MS = 2000;
/**
 * After an entry appears in an Emacs server socket dir, `/proc` is scanned this long after (the socket is
 * bound before it listens); an Emacs still found with no server is looked at again after the next delays.
 */
export const EMACS_SCAN_DELAYS_MS = [60, 300, 1500] as const;

/**
 * A review's proposal in Emacs: the whole open (the proposal written to pi's dir, Emacs reading it into its
 * buffer in the file's mode); a file of a few MB opens in well under it. Past it pi's select asks alone, and Emacs
 * opens nothing (the chunk's deadline).
 */
export const EMACS_DIFF_OPEN_MS = 2000;
/** A close Emacs did not answer is asked again this often, this many times at most (it is idempotent). */
export const EMACS_DIFF_CLOSE_RETRY_MS = 1000;
export const EMACS_DIFF_CLOSE_ATTEMPTS = 5;

/**
 * A model call for an inline suggestion is given up after this long (pi aborts its HTTP request; no retry): a
 * suggestion that takes seconds is of no use, and pi-ide.nvim's own deadline is 30 s.
 */
export const SUGGESTION_TIMEOUT_MS = 15_000;
/**
 * Neovim asks for a suggestion once typing in Insert mode paused this long (`suggestionDebounceMs`): pi-ide.nvim's
 * and Theia's pause; users feel friction from about 400 ms of pause plus the model's time.
 */
export const SUGGESTION_DEBOUNCE_MS = 300;
/** A Neovim whose suggestions another pi owned is asked again at most this often whether they are free now. */
export const NEOVIM_SUGGEST_CLAIM_RETRY_MS = 2000;
/**
 * A VS Code client's standing connection for inline completions that failed or closed is opened again no sooner
 * than this after its first failure, twice as long after each further one, at most SUGGEST_LINK_RETRY_MAX_MS (on
 * the next change of its state file, or the next re-check): a window reloading its extension host gets a new pid
 * anyway, and a socket that keeps failing is not hammered (on a Mac each try asks `lsof`).
 */
export const SUGGEST_LINK_RETRY_MS = 2000;
export const SUGGEST_LINK_RETRY_MAX_MS = 60_000;

/** An ask sent while pi was idle must start a run within this long, or the editor is told it was not sent. */
export const ASK_START_WAIT_MS = 2000;
/** Asks Neovim could not register (it waited for the user in a prompt) are registered again after this long. */
export const ASK_REGISTER_RETRY_MS = 1000;
/** Neovim's question window ignores keys this long after it opens: a key meant for the buffer never answers. */
export const QUESTION_KEYS_ARMED_MS = 500;
/** A question an editor could not take (Neovim in a prompt) is sent again this often while it stays open. */
export const QUESTION_RETRY_MS = 400;
/** An open reply view is sent the streaming reply at most once per this long (a few times a second). */
export const REPLY_VIEW_UPDATE_MS = 250;
/** At a run's end, the editors' buffers follow the disk within this long (`pi: done` waits for it). */
export const FOLLOW_DISK_MS = 80;

/** pi-bridge's socket: a file nobody accepts a connection on within this is stale (pi-bridge.ext's 500 ms). */
export const BRIDGE_STALE_PROBE_MS = 500;
