import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import type { EmacsDiffChannel } from "../../src/editors/diff-channels.ts";
import { elispChunk } from "../../src/editors/emacs/core/elisp/elisp-chunk.ts";
import { INSTALL_ELISP } from "../../src/editors/emacs/core/elisp/push-elisp.ts";
import { EMACS_SNAPSHOT_CAPS } from "../../src/editors/emacs/core/snapshot.ts";
import { PushListener, type PushPeer } from "../../src/editors/emacs/push/push-listener.ts";
import { evalInEmacs } from "../../src/editors/emacs/server-client.ts";
import type { DiffHost, DiffRequest, DiffView, EditorAnswer } from "../../src/review/core/diff-host.ts";
import { emacsDiffHost } from "../../src/review/hosts/emacs-host.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { CleanupScope } from "./cleanup-scope.ts";
import { startOfProcess } from "./process-facts.ts";
import { RealEmacs } from "./real-emacs.ts";
import { tempDir } from "./temp-dir.ts";

/**
 * A review's channel to a real Emacs made as the session makes it, from its parts: pi's push listener, the install
 * over the server (pushing off: a review needs only `<prefix>send`), requests as `evalInEmacs`. The listener's
 * own dir is pi's private dir. Every review line is kept as sent, for the tests that count them.
 */
export interface ReviewConnection {
	channel: EmacsDiffChannel;
	/** Every `{"kind":"review"}` line Emacs sent, in order. */
	lines: unknown[];
	peer: PushPeer;
	/** Ends pi's side as a pi that exits does: Emacs's sentinel tears the install down. */
	close(): Promise<void>;
}

let installs = 0;

export async function connectReviews(
	emacs: RealEmacs,
	options: { enclosing?: boolean } = {},
): Promise<ReviewConnection> {
	const listener = await PushListener.open({}, process.getuid?.() ?? 0, startOfProcess());
	if (typeof listener === "string") throw new Error(listener);
	const lines: unknown[] = [];
	const listeners = new Set<(message: unknown) => void>();
	let gone!: (reason: string) => void;
	const closed = new Promise<string>((resolve) => {
		gone = resolve;
	});
	const peer = listener.expect({
		message: (value) => {
			if ((value as { kind?: unknown }).kind !== "review") return;
			lines.push(value);
			for (const listener of listeners) listener(value);
		},
		closed: (reason) => gone(reason),
	});
	const prefix = `pi-ide-${process.pid}-${++installs}-`;
	const run: EmacsDiffChannel["run"] = (_what, elispFunction, args, deadlineMs) =>
		evalInEmacs(emacs.socket, elispFunction, args, {
			clock: systemClock,
			timeoutMs: deadlineMs === undefined ? 5000 : Math.max(1, deadlineMs - systemClock.nowMs()),
			expectedPid: emacs.pid,
		});
	const installed = await run("install", INSTALL_ELISP, {
		socket: listener.socketPath,
		token: peer.token,
		prefix,
		push: false,
		debounce_ms: 10,
		caps: EMACS_SNAPSHOT_CAPS,
	});
	if (!installed.ok || (installed.value as { ok?: unknown }).ok !== true)
		throw new Error(`install failed: ${JSON.stringify(installed)}`);
	const channel: EmacsDiffChannel = {
		enclosing: options.enclosing ?? false,
		prefix,
		privateDir: dirname(listener.socketPath),
		clock: systemClock,
		run,
		onReviewMessage: (listener) => {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		whenClosed: () => closed,
	};
	return {
		channel,
		lines,
		peer,
		close: async () => {
			gone("pi closed the connection");
			await listener.close();
		},
	};
}

/** What Emacs holds of pi's reviews and of the user's windows, read in one request (the test's own chunk). */
export interface ReviewLayout {
	reviews: {
		name: string;
		mode: string;
		text: string;
		header: string;
		font_lock: boolean;
		modified: boolean;
		coding: string;
		/** `[first, last]` lines of each highlight. */
		overlays: [number, number][];
		windows: number;
		point_line: number;
		dir: string;
	}[];
	/** File buffers with unsaved changes: the review never touches the user's. */
	modified_files: number;
	/** Windows of the selected frame, the minibuffer's aside. */
	windows: number;
	/** The selected window's buffer (" *Minibuf-1*" in the minibuffer). */
	selected: string;
	minibuffer: string | null;
	/** Symbols of the prefix's that are still bound or fbound, and hook entries named with it. */
	left: string[];
	mode_hooks_ran: boolean;
}

/** Args `{prefix, text}`: `text` false leaves the buffers' texts out (json.el encodes a few MB slowly). */
const LAYOUT_ELISP = elispChunk(`(let* ((prefix (gethash "prefix" args)) (left nil) (reviews nil))
  (dolist (buffer (buffer-list))
    (when (string-prefix-p "*pi: " (buffer-name buffer))
      (with-current-buffer buffer
        (push (list (cons "name" (buffer-name)) (cons "mode" (symbol-name major-mode))
                    (cons "text" (if (eq (gethash "text" args) t) (buffer-substring-no-properties (point-min) (point-max)) ""))
                    (cons "header" (format "%s" header-line-format))
                    (cons "font_lock" (if font-lock-mode t :json-false))
                    (cons "modified" (if (buffer-modified-p) t :json-false))
                    (cons "coding" (symbol-name buffer-file-coding-system))
                    (cons "overlays" (vconcat (mapcar (lambda (o) (vector (line-number-at-pos (overlay-start o))
                                                                          (1- (line-number-at-pos (overlay-end o)))))
                                                      (delq nil (mapcar (lambda (o) (and (memq (overlay-get o 'face) '(diff-added highlight)) o))
                                                                        (overlays-in (point-min) (point-max)))))))
                    (cons "windows" (length (get-buffer-window-list buffer nil t)))
                    (cons "point_line" (line-number-at-pos))
                    (cons "dir" default-directory))
              reviews))))
  (mapatoms (lambda (symbol)
              (when (and (string-prefix-p prefix (symbol-name symbol))
                         (string-match-p "review" (symbol-name symbol))
                         (or (boundp symbol) (fboundp symbol)))
                (push (symbol-name symbol) left))))
  (dolist (hook '(kill-buffer-hook post-command-hook))
    (dolist (entry (default-value hook))
      (when (and (symbolp entry) (string-prefix-p prefix (symbol-name entry)))
        (push (format "%s in %s" entry hook) left))))
  (list (cons "reviews" (vconcat (nreverse reviews)))
        (cons "windows" (length (window-list nil 'no-minibuf)))
        (cons "selected" (buffer-name (window-buffer (selected-window))))
        (cons "minibuffer" (if (active-minibuffer-window)
                               (with-current-buffer (window-buffer (active-minibuffer-window))
                                 (minibuffer-contents-no-properties))
                             nil))
        (cons "left" (vconcat left))
        (cons "modified_files" (length (delq nil (mapcar (lambda (b) (and (buffer-file-name b) (buffer-modified-p b)))
                                                         (buffer-list)))))
        (cons "mode_hooks_ran" (if (bound-and-true-p pi-test-mode-hooks-ran) t :json-false))))`);

export async function reviewLayout(emacs: RealEmacs, prefix: string, text = true): Promise<ReviewLayout> {
	const answer = await evalInEmacs(
		emacs.socket,
		LAYOUT_ELISP,
		{ prefix, text },
		{ clock: systemClock, timeoutMs: 5000 },
	);
	if (!answer.ok) throw new Error(`layout: ${answer.reason}`);
	return answer.value as ReviewLayout;
}

/** Mode hooks any user might have (Eglot, LSP, a checker): the review's buffer must run none of them. */
export const WATCH_MODE_HOOKS = `(progn (defvar pi-test-mode-hooks-ran nil)
  (dolist (hook '(prog-mode-hook js-mode-hook after-change-major-mode-hook))
    (add-hook hook (lambda () (when (string-prefix-p "*pi: " (buffer-name)) (setq pi-test-mode-hooks-ran t)))))
  t)`;

/** The answer if it came, else "pending" (asked after Emacs answered a request: nothing more is on its way). */
export async function settledAnswer(view: DiffView, emacs: RealEmacs): Promise<EditorAnswer | "pending"> {
	await emacs.eval("t");
	return Promise.race([view.answer, new Promise<"pending">((done) => setTimeout(() => done("pending"), 50))]);
}

export const REVIEW_MAIN = "export const a = 1;\nexport const b = 2;\n";
export const REVIEW_PROPOSED = "export const a = 1;\nexport const b = 3;\nexport const c = 4;\n";

/** One Emacs on src/main.js, connected as pi connects, with the review's host and what the tests read of it. */
export interface ReviewEmacs {
	emacs: RealEmacs;
	connection: ReviewConnection;
	host: DiffHost;
	/** A review of src/main.js (MAIN → PROPOSED) with a fresh id, `overrides` over it. */
	request(overrides?: Partial<DiffRequest>): DiffRequest;
	layout(text?: boolean): Promise<ReviewLayout>;
	/** No buffer, window, hook or function of a review left; the user's file alone in the frame, selected. */
	expectNothingLeft(): Promise<void>;
}

/** A fresh project per test (src/main.js), and the Emacsen started in it closed after the test. */
export function emacsReviewSuite(): {
	project: () => string;
	start: (options?: { enclosing?: boolean }) => Promise<ReviewEmacs>;
} {
	const scope = new CleanupScope();
	let project = "";
	let runtimeDir = "";
	let ids = 0;
	beforeEach(() => {
		const dir = tempDir("emacs-review");
		scope.defer(dir.cleanup);
		project = join(dir.path, "proj");
		runtimeDir = join(dir.path, "run");
		mkdirSync(join(project, "src"), { recursive: true });
		writeFileSync(join(project, "src", "main.js"), REVIEW_MAIN);
	});
	afterEach(() => scope.close());
	const start = async (options: { enclosing?: boolean } = {}): Promise<ReviewEmacs> => {
		const procScope = `emacs-review-${process.pid}-${Math.random().toString(36).slice(2)}`;
		const emacs = await RealEmacs.start({ cwd: project, runtimeDir, scope: procScope, files: ["src/main.js"] });
		scope.defer(() => emacs.close());
		expect((await emacs.eval(WATCH_MODE_HOOKS)).ok).toBe(true);
		const connection = await connectReviews(emacs, options);
		scope.defer(() => connection.close());
		const layout = (text = true) => reviewLayout(emacs, connection.channel.prefix, text);
		return {
			emacs,
			connection,
			host: emacsDiffHost(connection.channel),
			request: (overrides = {}) => ({
				id: `r${String(++ids).padStart(5, "0")}`,
				file: join(project, "src", "main.js"),
				displayName: "src/main.js",
				onDisk: REVIEW_MAIN,
				proposed: REVIEW_PROPOSED,
				...overrides,
			}),
			layout,
			expectNothingLeft: async () => {
				expect(await layout()).toMatchObject({
					reviews: [],
					left: [],
					windows: 1,
					selected: "main.js",
					modified_files: 0,
				});
			},
		};
	};
	return { project: () => project, start };
}
