import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { quoteArgument } from "../../src/editors/emacs/core/server-protocol.ts";
import { requestEmacs, type ServerAnswer } from "../../src/editors/emacs/server-client.ts";
import { commOf } from "../../src/editors/processes/proc-files.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { hasTmux } from "./tmux-pi.ts";
import { waitFor } from "./wait-for.ts";

/** The real Emacs on the PATH (`.ci/run` installs Debian's `emacs-nox` 28.2), or why there is none. */
export function emacsOnPath(): { version?: string; skipReason?: string } {
	try {
		const version = execFileSync("emacs", ["--version"], { encoding: "utf8" }).split("\n")[0] ?? "";
		return { version };
	} catch {
		return { skipReason: "emacs is not installed (.ci/run installs Debian's emacs-nox)" };
	}
}

/** Says once why real-Emacs tests are skipped, and fails under CI=true (CI never skips a real component). */
export function requireEmacs(what: string): boolean {
	const { version, skipReason } = emacsOnPath();
	if (version) return hasTmux();
	if (process.env.CI === "true") throw new Error(`CI=true and ${what} cannot run: ${skipReason}`);
	process.stderr.write(`${what} skipped: ${skipReason}\n`);
	return false;
}

/** Where Debian's `elpa-flycheck` puts Flycheck (`.ci/run` installs it beside emacs-nox). */
export const FLYCHECK_SITE_LISP = "/usr/share/emacs/site-lisp/elpa";

/** Flycheck for the tests of its hook, or why not: says so, and fails under CI=true as a missing Emacs does. */
export function requireFlycheck(what: string): boolean {
	if (existsSync(FLYCHECK_SITE_LISP) && readdirSync(FLYCHECK_SITE_LISP).some((dir) => dir.startsWith("flycheck-")))
		return true;
	const skipReason = "Flycheck is not installed (.ci/run installs Debian's elpa-flycheck)";
	if (process.env.CI === "true") throw new Error(`CI=true and ${what} cannot run: ${skipReason}`);
	process.stderr.write(`${what} skipped: ${skipReason}\n`);
	return false;
}

let sessions = 0;

/**
 * A real Emacs in a terminal, as users run it: `emacs -nw -Q` in a tmux pane of its own, its server (unless
 * `server: false`) named uniquely so that it lands at `<runtimeDir>/emacs/<name>` (`XDG_RUNTIME_DIR` is the
 * test's); or, given `tmpDir` instead, as on a Mac: no `XDG_RUNTIME_DIR`, that `TMPDIR`, and the default name,
 * so that Emacs makes `$TMPDIR/emacs<uid>/server` itself. Deferred native compilation is off: a cold cache
 * would otherwise spawn `--batch` workers for minutes. The test-only proc scope lets only the test's scan see it.
 */
export class RealEmacs {
	private constructor(
		readonly pid: number,
		/** Its server's socket; "" when it runs none. */
		readonly socket: string,
		private readonly tmuxServer: string,
		private readonly daemon = false,
	) {}

	static async start(
		options: {
			cwd: string;
			scope: string;
			files?: string[];
			server?: boolean;
			/** Elisp run before `(server-start)` (a `server-socket-dir` of the test's). */
			setup?: string;
		} & ({ runtimeDir: string } | { tmpDir: string }),
	): Promise<RealEmacs> {
		const runtimeDir = "runtimeDir" in options ? options.runtimeDir : undefined;
		const tmpDir = "tmpDir" in options ? options.tmpDir : "";
		if (runtimeDir) mkdirSync(runtimeDir, { recursive: true, mode: 0o700 });
		const session = ++sessions;
		const name = runtimeDir ? `pi-ide-test-${process.pid}-${session}` : "server";
		const setup = [
			"(setq native-comp-deferred-compilation nil)",
			runtimeDir ? `(setq server-name ${JSON.stringify(name)})` : "",
			options.setup ?? "",
			options.server === false ? "" : "(server-start)",
		].join(" ");
		const env: Record<string, string> = {
			...(runtimeDir ? { XDG_RUNTIME_DIR: runtimeDir } : { TMPDIR: tmpDir }),
			TERM: "xterm-256color",
			PI_IDE_TEST_PROC_SCOPE: options.scope,
		};
		const exports = Object.entries(env).map(([key, value]) => `${key}=${shellQuote(value)}`);
		const args = ["-nw", "-Q", "--eval", `(progn ${setup})`, ...(options.files ?? [])];
		const unset = ["INSIDE_EMACS", "EMACS_SOCKET_NAME", ...(runtimeDir ? [] : ["XDG_RUNTIME_DIR"])];
		const command = `cd ${shellQuote(options.cwd)} && exec env ${unset.map((key) => `-u ${key}`).join(" ")} ${exports.join(" ")} emacs ${args.map(shellQuote).join(" ")}`;
		const tmuxServer = `pi-ide-emacs-${process.pid}-${session}`;
		execFileSync("tmux", ["-L", tmuxServer, "new-session", "-d", "-x", "100", "-y", "30", command]);
		const pid = Number(
			execFileSync("tmux", ["-L", tmuxServer, "list-panes", "-F", "#{pane_pid}"], { encoding: "utf8" }),
		);
		const socketDir = runtimeDir ? join(runtimeDir, "emacs") : join(tmpDir, `emacs${process.getuid?.() ?? 0}`);
		const socket = options.server === false ? "" : join(socketDir, name);
		const emacs = new RealEmacs(pid, socket, tmuxServer);
		await waitFor(`Emacs ${pid} running`, () => commOf(pid) === "emacs\n", 20_000);
		if (socket) {
			await waitFor(`the server socket of Emacs ${pid}`, () => existsSync(socket), 20_000);
			await waitFor(`Emacs ${pid} answering`, async () => (await emacs.eval("(+ 1 2)")).ok, 20_000);
		} else {
			// The mode line's line number (`line-number-mode` is on under -Q): its first screen is drawn.
			await waitFor(`Emacs ${pid} showing its first screen`, () => /\bL1\b/.test(emacs.screen()), 20_000);
		}
		return emacs;
	}

	/**
	 * `emacs --daemon=<name>` as `systemctl --user` or a login script starts it: no frame until an
	 * `emacsclient` makes one (`clientFrame`). Its pid is asked of it: the starting process exits once it is up.
	 */
	static async startDaemon(options: { cwd: string; runtimeDir: string; scope: string }): Promise<RealEmacs> {
		mkdirSync(options.runtimeDir, { recursive: true, mode: 0o700 });
		const name = `pi-ide-test-${process.pid}-${++sessions}`;
		const { INSIDE_EMACS: _, EMACS_SOCKET_NAME: __, ...parentEnv } = process.env;
		const starter = spawn(
			"emacs",
			["-Q", "--eval", "(setq native-comp-deferred-compilation nil)", `--daemon=${name}`],
			{
				cwd: options.cwd,
				env: { ...parentEnv, XDG_RUNTIME_DIR: options.runtimeDir, PI_IDE_TEST_PROC_SCOPE: options.scope },
				stdio: "ignore",
			},
		);
		await new Promise((exited) => starter.once("exit", exited));
		const socket = join(options.runtimeDir, "emacs", name);
		const probe = new RealEmacs(0, socket, "");
		const answer = await waitFor(`the daemon ${name} answering`, async () => {
			const pid = existsSync(socket) ? await probe.eval("(emacs-pid)") : undefined;
			return pid?.ok ? pid : undefined;
		});
		return new RealEmacs(Number(answer.value), socket, `pi-ide-emacs-${process.pid}-${sessions}`, true);
	}

	/** An `emacsclient -t` frame of this daemon in a tmux pane of its own, as a user opens one (on `files`). */
	clientFrame(files: string[] = []): void {
		const command = `exec env TERM=xterm-256color emacsclient -t -s ${[this.socket, ...files].map(shellQuote).join(" ")}`;
		execFileSync("tmux", ["-L", this.tmuxServer, "new-session", "-d", "-x", "100", "-y", "30", command]);
	}

	/** A test's own expression (never pi's way: pi sends only core/elisp/probe-elisp.ts), answered or not within `timeoutMs`. */
	eval(expression: string, timeoutMs = 5000): Promise<ServerAnswer> {
		return requestEmacs(this.socket, `-eval ${quoteArgument(expression)} \n`, { clock: systemClock, timeoutMs });
	}

	/** Keys as typed into its terminal (tmux key names: `C-x`, `Enter`). */
	keys(...keys: string[]): void {
		execFileSync("tmux", ["-L", this.tmuxServer, "send-keys", ...keys]);
	}

	/**
	 * Keys typed through one tmux control-mode client, kept open: no process is started per key, so a latency
	 * timed from `send` counts Emacs and pi, not a `tmux send-keys` start-up (the bench's key rows).
	 */
	keyPipe(): { send(...keys: string[]): void; close(): void } {
		const client = spawn("tmux", ["-L", this.tmuxServer, "-C", "attach"], { stdio: ["pipe", "ignore", "ignore"] });
		return {
			send: (...keys) => client.stdin?.write(`send-keys ${keys.join(" ")}\n`),
			close: () => {
				client.stdin?.end();
				client.kill();
			},
		};
	}

	/** What its terminal shows now. */
	screen(): string {
		return execFileSync("tmux", ["-L", this.tmuxServer, "capture-pane", "-p"], { encoding: "utf8" });
	}

	/** Ends it the hard way (kill -9): its socket file stays behind. */
	kill(): void {
		try {
			process.kill(this.pid, "SIGKILL");
		} catch {
			// Already gone.
		}
		this.close();
	}

	close(): void {
		try {
			if (this.tmuxServer) execFileSync("tmux", ["-L", this.tmuxServer, "kill-server"], { stdio: "ignore" });
		} catch {
			// Already gone, or never started (a daemon without a client frame).
		}
		try {
			if (this.daemon) process.kill(this.pid, "SIGTERM");
		} catch {
			// Already gone.
		}
	}
}

const shellQuote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
