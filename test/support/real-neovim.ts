import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { RpcConnection } from "../../src/editors/neovim/rpc.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { waitFor } from "./wait-for.ts";

/** The real Neovim on the PATH (`.ci/run` installs Debian's 0.7.2), or why there is none. */
export function neovimOnPath(): { version?: string; skipReason?: string } {
	try {
		const version = execFileSync("nvim", ["--version"], { encoding: "utf8" }).split("\n")[0] ?? "";
		return { version };
	} catch {
		return { skipReason: "nvim is not installed (.ci/run installs Debian's neovim)" };
	}
}

/** Says once why real-Neovim tests are skipped, and fails under CI=true (CI never skips a real component). */
export function requireNeovim(what: string): boolean {
	const { version, skipReason } = neovimOnPath();
	if (version) return true;
	if (process.env.CI === "true") throw new Error(`CI=true and ${what} cannot run: ${skipReason}`);
	process.stderr.write(`${what} skipped: ${skipReason}\n`);
	return false;
}

let sessions = 0;

/**
 * A real Neovim: headless (a child, no UI: what a formatter or test runner looks like) or with a UI in a tmux
 * pane of its own. `TMPDIR` is the test's dir, so its 0.7 server socket (`$TMPDIR/nvimXXXXXX/0`) is found
 * there; the test-only proc scope lets only the test's pi see it. Driven over its own server (`rpc`).
 */
export class RealNeovim {
	rpc!: RpcConnection;
	socket = "";

	private constructor(
		readonly pid: number,
		private readonly tmpDir: string,
		private readonly stop: () => void,
		private readonly child?: ChildProcess,
		/** With a UI: the tmux server its pane runs in. */
		private readonly tmuxServer?: string,
	) {}

	static async start(options: {
		cwd: string;
		args?: string[];
		tmpDir: string;
		ui: boolean;
		scope?: string;
		env?: Record<string, string>;
		/** Where its server listens, when the test's own arguments say (`--listen`, `serverstart()`): by its pid. */
		socketAt?: (pid: number) => string;
	}): Promise<RealNeovim> {
		mkdirSync(options.tmpDir, { recursive: true });
		const before = new Set(readdirSync(options.tmpDir));
		const env: Record<string, string> = {
			TMPDIR: options.tmpDir,
			TERM: "xterm-256color",
			PI_IDE_TEST_PROC_SCOPE: options.scope ?? process.env.PI_IDE_TEST_PROC_SCOPE ?? "",
			...options.env,
		};
		const args = ["--clean", ...(options.args ?? [])];
		let neovim: RealNeovim;
		if (options.ui) {
			const server = `pi-ide-nvim-${process.pid}-${++sessions}`;
			const exports = Object.entries(env).map(([key, value]) => `${key}=${quote(value)}`);
			const command = `cd ${quote(options.cwd)} && exec env -u NVIM ${exports.join(" ")} nvim ${args.map(quote).join(" ")}`;
			execFileSync("tmux", ["-L", server, "new-session", "-d", "-x", "100", "-y", "30", command]);
			const pid = Number(execFileSync("tmux", ["-L", server, "list-panes", "-F", "#{pane_pid}"], { encoding: "utf8" }));
			const stop = () => {
				try {
					execFileSync("tmux", ["-L", server, "kill-server"], { stdio: "ignore" });
				} catch {
					// Already gone.
				}
			};
			neovim = new RealNeovim(pid, options.tmpDir, stop, undefined, server);
		} else {
			const { NVIM: _, ...parentEnv } = process.env;
			const child = spawn("nvim", ["--headless", ...args], {
				cwd: options.cwd,
				env: { ...parentEnv, ...env },
				stdio: "ignore",
			});
			neovim = new RealNeovim(child.pid as number, options.tmpDir, () => child.kill("SIGKILL"), child);
		}
		await neovim.connect(before, options.socketAt);
		return neovim;
	}

	/**
	 * Waits for its server socket (where `socketAt` says, else in a dir that was not there before it started) and
	 * connects a driver to it.
	 */
	private async connect(before: ReadonlySet<string>, socketAt?: (pid: number) => string): Promise<void> {
		this.socket = await waitFor(
			`the server socket of nvim ${this.pid}`,
			() => {
				if (socketAt) return existsSync(socketAt(this.pid)) ? socketAt(this.pid) : undefined;
				for (const name of readdirSync(this.tmpDir)) {
					if (before.has(name)) continue;
					const path = join(this.tmpDir, name, "0");
					if (name.startsWith("nvim") && existsSync(path)) return path;
				}
				return undefined;
			},
			10_000,
		);
		const rpc = await waitFor("a connection to Neovim", async () => {
			const opened = await RpcConnection.open(this.socket, {
				clock: systemClock,
				timeoutMs: 2000,
				onNotification: () => {},
			});
			return typeof opened === "string" ? undefined : opened;
		});
		this.rpc = rpc;
	}

	/** A request that must succeed; its value. */
	async call(method: string, ...params: unknown[]): Promise<unknown> {
		const answer = await this.rpc.request(method, params, 5000);
		if (!answer.ok) throw new Error(`${method}: ${answer.reason}`);
		return answer.value;
	}

	lua(code: string, ...args: unknown[]): Promise<unknown> {
		return this.call("nvim_exec_lua", code, args);
	}

	/** Keys as typed, then waits until Neovim is in `mode` (input is processed after the request returns). */
	async keys(keys: string, mode?: string): Promise<void> {
		await this.call("nvim_input", keys);
		if (mode !== undefined) {
			await waitFor(`Neovim in mode ${JSON.stringify(mode)} after ${keys}`, async () => {
				const now = (await this.call("nvim_get_mode")) as { mode: string };
				return now.mode === mode;
			});
		}
	}

	/** What its UI shows now, one line a row, as tmux's pane holds it (a Neovim with a UI only). */
	screen(): string {
		if (!this.tmuxServer) throw new Error("a headless Neovim shows nothing");
		return execFileSync("tmux", ["-L", this.tmuxServer, "capture-pane", "-p"], { encoding: "utf8" });
	}

	/** Keys through the terminal, as a user presses them (tmux's names: `M-l`, `Escape`, `C-]`). */
	terminalKeys(...keys: string[]): void {
		if (!this.tmuxServer) throw new Error("a headless Neovim has no terminal");
		execFileSync("tmux", ["-L", this.tmuxServer, "send-keys", ...keys]);
	}

	command(command: string): Promise<unknown> {
		return this.call("nvim_command", command);
	}

	/** What pi's groups Neovim holds now (nothing of pi should stay). */
	async piGroups(): Promise<string[]> {
		const names = (await this.lua(
			"local n = {} for _, a in ipairs(vim.api.nvim_get_autocmds({})) do if a.group_name and a.group_name:match('^pi_ide_') then n[#n + 1] = a.group_name end end return n",
		)) as string[];
		return [...new Set(names)];
	}

	/** Ends it the hard way (kill -9): the socket closes with the process. */
	kill(): void {
		this.rpc?.close();
		if (this.child) this.child.kill("SIGKILL");
		else process.kill(this.pid, "SIGKILL");
		this.stop();
	}

	close(): void {
		this.rpc?.close();
		this.stop();
	}
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
