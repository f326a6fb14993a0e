import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { E2eWorkspace } from "./e2e-workspace.ts";
import type { PiLine, PiSpawnOptions } from "./pi-cli.ts";
import { RealEmacs } from "./real-emacs.ts";
import { RpcPi } from "./rpc-pi.ts";
import { PI_START_TIMEOUT_MS, waitFor } from "./wait-for.ts";

/** Whether that process still runs: a zombie (dead, not yet reaped by init) writes no file any more. */
const isRunning = (pid: number) => {
	try {
		return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
	} catch {
		return false;
	}
};

/**
 * What the Emacs end-to-end tests share: the test's runtime dir (its Emacsen's server sockets land in
 * `<root>/run/emacs/`, pi's own socket dir beside them), the /proc scope that lets only this test's pi see this
 * test's Emacsen, and the real pi (RPC) started on the project with that environment.
 */
export class EmacsE2e {
	constructor(
		private readonly ws: E2eWorkspace,
		private readonly line: PiLine,
		private readonly name: string,
	) {}

	get scope(): string {
		return `${this.name}-${process.pid}-${this.ws.root.split("-").at(-1)}`;
	}

	get runtimeDir(): string {
		return join(this.ws.root, "run");
	}

	get tmp(): string {
		return join(this.ws.root, "tmp");
	}

	/** A plain `emacs -nw -Q` in tmux with its server, visiting `files` (main.ts by default), closed with the test. */
	async emacs(options: { cwd?: string; files?: string[]; server?: boolean } = {}): Promise<RealEmacs> {
		const emacs = await RealEmacs.start({
			cwd: options.cwd ?? this.ws.project,
			runtimeDir: this.runtimeDir,
			scope: this.scope,
			files: options.files ?? ["src/main.ts"],
			...(options.server === false && { server: false }),
		});
		// kill -9 first: the hangup of a plain close makes Emacs auto-save modified buffers into the project as its
		// temp dir is being removed.
		this.ws.defer(async () => {
			emacs.kill();
			await waitFor(`Emacs ${emacs.pid} gone`, () => !isRunning(emacs.pid));
		});
		return emacs;
	}

	/** The environment pi runs in: no Emacs around it (unless a test says), the test's dirs and scope. */
	env(extra: Record<string, string> = {}): Record<string, string> {
		mkdirSync(this.tmp, { recursive: true });
		mkdirSync(this.runtimeDir, { recursive: true, mode: 0o700 });
		return {
			TMPDIR: this.tmp,
			XDG_RUNTIME_DIR: this.runtimeDir,
			INSIDE_EMACS: "",
			NVIM: "",
			PI_IDE_TEST_PROC_SCOPE: this.scope,
			...extra,
		};
	}

	/**
	 * pi connected to the Emacs showing `widget`, and that Emacs's hooks on (`pushes: live`): keys typed before
	 * would run no hook of pi's yet.
	 */
	async live(rpc: RpcPi, widget: string): Promise<void> {
		await rpc.waitForWidget(widget, PI_START_TIMEOUT_MS);
		await waitFor("the Emacs pushing", async () => (await rpc.ideStatus()).join("\n").includes("pushes: live ("));
	}

	/** pi in RPC mode; `spawn`: more extensions, a wrapper it runs under. */
	startPi(extra: Record<string, string> = {}, spawn: Pick<PiSpawnOptions, "extraExtensions" | "wrapper"> = {}): RpcPi {
		return this.ws.stopLater(
			RpcPi.start(this.line, {
				cwd: this.ws.project,
				agentDir: this.ws.agentDir,
				stateDir: this.ws.stateDir,
				env: this.env(extra),
				...spawn,
			}),
		);
	}
}

/** How many states the connected Emacs pushed so far, as `/ide status` counts them (0 before the first). */
export async function pushesReceived(rpc: RpcPi): Promise<number> {
	const status = (await rpc.ideStatus()).join("\n");
	return Number(/pushes: live \((\d+) received/.exec(status)?.[1] ?? 0);
}

/**
 * What of any pi is left in that Emacs, as Emacs itself says: entries of the hooks pi's elisp uses, advice on
 * Flymake's report handler, timers, processes and bound symbols whose names start with `pi-ide-` (not the
 * test's own server, `pi-ide-test-...`), the asks' commands (`pi-ask` ...) and pi's buffers (`*pi reply*`, `*pi question*` ...).
 * The empty list is the answer after pi has gone.
 */
export async function piLeftovers(emacs: RealEmacs): Promise<string[]> {
	const text = await evalText(
		emacs,
		`(let ((found nil)
       ;; The test's own server (real-emacs.ts names it pi-ide-test-...) and its clients are not pi's.
       (pi-p (lambda (x) (let ((name (format "%s" x)))
                           (and (string-prefix-p "pi-ide-" name) (not (string-prefix-p "pi-ide-test-" name)))))))
  (dolist (hook '(post-command-hook after-change-functions window-selection-change-functions
                  window-buffer-change-functions after-save-hook after-revert-hook kill-buffer-hook
                  first-change-hook flycheck-after-syntax-check-hook after-load-functions
                  after-make-frame-functions delete-frame-functions))
    (dolist (fn (and (boundp hook) (append (default-value hook) nil)))
      (when (funcall pi-p fn) (push (format "%s: %s" hook fn) found))))
  ;; Advice is kept on the symbol even before Flymake defines the function (-Q loads it only when used).
  (advice-mapc (lambda (fn _props) (when (funcall pi-p fn) (push (format "advice: %s" fn) found)))
               'flymake--handle-report)
  (dolist (timer (append timer-list timer-idle-list))
    (when (funcall pi-p (timer--function timer)) (push (format "timer: %s" (timer--function timer)) found)))
  (dolist (process (process-list))
    (when (funcall pi-p (process-name process)) (push (format "process: %s" (process-name process)) found)))
  (mapatoms (lambda (symbol)
              (when (and (funcall pi-p (symbol-name symbol)) (or (fboundp symbol) (boundp symbol)))
                (push (format "symbol: %s" symbol) found))))
  ;; The asks' commands (a pi-ide-<name> twin is a pi-ide- symbol above) and pi's buffers.
  (dolist (command '(pi-ask pi-add pi-stop pi-reply))
    (when (fboundp command) (push (format "command: %s" command) found)))
  (dolist (name '("*pi ask*" "*pi reply*" "*pi choose*"))
    (when (get-buffer name) (push (format "buffer: %s" name) found)))
  (dolist (buffer (buffer-list))
    (when (string-prefix-p "*pi question*" (buffer-name buffer)) (push (format "buffer: %s" (buffer-name buffer)) found)))
  (mapconcat #'identity found "\\n"))`,
	);
	return text === "" ? [] : text.split("\n");
}

/** Waits until that Emacs holds nothing of pi (its sentinel ran); the last leftovers on a timeout. */
export async function waitForNothingOfPi(emacs: RealEmacs, timeoutMs = 3000): Promise<void> {
	let last: string[] = [];
	try {
		await waitFor(
			"nothing of pi left in Emacs",
			async () => {
				last = await piLeftovers(emacs);
				return last.length === 0;
			},
			timeoutMs,
			50,
		);
	} catch (error) {
		throw new Error(`${String(error)}; still there: ${last.join(", ")}`);
	}
}

/** Evaluates a test's own expression in that Emacs and returns what it printed (`prin1`), failing on an error. */
export async function evalOk(emacs: RealEmacs, expression: string, timeoutMs = 5000): Promise<string> {
	const answer = await emacs.eval(expression, timeoutMs);
	if (!answer.ok) throw new Error(`${expression}: ${JSON.stringify(answer)}`);
	return answer.value;
}

/** The value of a test's own expression as text (`format "%s"`), through base64: no printer escapes in the way. */
export async function evalText(emacs: RealEmacs, expression: string, timeoutMs = 5000): Promise<string> {
	const printed = await evalOk(
		emacs,
		`(base64-encode-string (encode-coding-string (format "%s" ${expression}) 'utf-8 t) t)`,
		timeoutMs,
	);
	return Buffer.from(printed.replaceAll('"', ""), "base64").toString("utf8");
}
