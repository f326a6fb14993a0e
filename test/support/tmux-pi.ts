import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { FAKE_MODEL, FAKE_PROVIDER, PACKAGE_ROOT, type PiLine, type PiSpawnOptions } from "./pi-cli.ts";
import { waitFor } from "./wait-for.ts";

let tmuxSaid = false;

/**
 * Whether tmux runs, for the tests that drive pi's TUI in it. Without it they skip and say so once; under
 * `CI=true` its absence fails instead, as the Neovim and VS Code tests do (CI never skips a real component).
 */
export function hasTmux(): boolean {
	try {
		execFileSync("tmux", ["-V"], { stdio: "ignore" });
		return true;
	} catch (error) {
		const reason = `tmux cannot run (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`;
		if (process.env.CI === "true") throw new Error(`CI=true and the tmux tests cannot run: ${reason}`);
		if (!tmuxSaid) process.stderr.write(`tmux tests skipped: ${reason}\n`);
		tmuxSaid = true;
		return false;
	}
}

let sessions = 0;

/** The real interactive pi in a tmux pane of a given size, driven by send-keys and read by capture-pane. */
export class TmuxPi {
	private constructor(
		private readonly socket: string,
		readonly width: number,
	) {}

	static start(
		line: PiLine,
		options: Pick<PiSpawnOptions, "cwd" | "agentDir"> & {
			stateDir: string;
			width: number;
			height: number;
			/** tmux server options (`["extended-keys", "on"]`: modified keys arrive as CSI u, never split). */
			serverOptions?: [string, string][];
			/**
			 * More of pi's environment (a Neovim test's `TMPDIR` and process scope). Without a process scope pi sees
			 * only editors of this test file's worker started with its own (none): never another test's Neovim or
			 * Emacs, which a parallel run keeps busy (pi's `/ide` would wait on them).
			 */
			env?: Record<string, string>;
			/** More extensions loaded after it (a test extension whose tools ask). */
			extraExtensions?: string[];
		},
	): TmuxPi {
		if (!line.node) throw new Error(line.skipReason);
		const extensions = ["-e", PACKAGE_ROOT, ...(options.extraExtensions ?? []).flatMap((path) => ["-e", path])];
		return TmuxPi.run(
			[line.node, line.cli, "--provider", FAKE_PROVIDER, "--model", FAKE_MODEL, "--no-session", ...extensions],
			{
				...options,
				env: {
					PI_IDE_TEST_PROC_SCOPE: `tmux-pi-${process.pid}`,
					...options.env,
					PI_CODING_AGENT_DIR: options.agentDir,
					PI_IDE_STATE_DIR: options.stateDir,
				},
			},
		);
	}

	/** Any command (pi itself, or the demo that starts it) in a fresh tmux server of its own. */
	static run(
		command: string[],
		options: {
			cwd: string;
			width: number;
			height: number;
			env?: Record<string, string>;
			/** Server options set before the command starts (`["extended-keys", "on"]`). */
			serverOptions?: [string, string][];
		},
	): TmuxPi {
		const socket = `pi-ide-test-${process.pid}-${++sessions}`;
		const env = { PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", TERM: "xterm-256color", ...options.env };
		const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
		const serverOptions = (options.serverOptions ?? []).flatMap(([name, value]) => [
			";",
			"set-option",
			"-g",
			name,
			value,
		]);
		execFileSync("tmux", [
			"-L",
			socket,
			"-f",
			"/dev/null",
			"start-server",
			...serverOptions,
			";",
			"new-session",
			"-d",
			"-s",
			"pi",
			"-x",
			String(options.width),
			"-y",
			String(options.height),
			"-c",
			options.cwd,
			...Object.entries(env).flatMap(([key, value]) => ["-e", `${key}=${value}`]),
			["exec", ...command].map(quote).join(" "),
		]);
		// Keep the pane after the command exits so a crash is observable instead of a vanished session.
		execFileSync("tmux", ["-L", socket, "set-option", "-t", "pi", "remain-on-exit", "on"]);
		return new TmuxPi(socket, options.width);
	}

	private tmux(...args: string[]): string {
		return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
	}

	screen(): string {
		return this.tmux("capture-pane", "-p", "-t", "pi");
	}

	/** The screen with its SGR escapes (colours, bold, dim), as the terminal shows it. */
	screenWithStyles(): string {
		return this.tmux("capture-pane", "-p", "-e", "-t", "pi");
	}

	lines(): string[] {
		return this.screen().split("\n");
	}

	/** Literal text, then named keys (Enter, Down, Escape). */
	type(text: string): void {
		this.tmux("send-keys", "-t", "pi", "-l", text);
	}

	press(...keys: string[]): void {
		this.tmux("send-keys", "-t", "pi", ...keys);
	}

	get pid(): number {
		return Number(this.tmux("display-message", "-p", "-t", "pi", "#{pane_pid}").trim());
	}

	isRunning(): boolean {
		return this.tmux("display-message", "-p", "-t", "pi", "#{pane_dead}").trim() === "0";
	}

	/** What the input editor holds: the lines between its two borders, or undefined while a dialog replaces it. */
	editorText(): string | undefined {
		const lines = this.lines();
		const borders = lines.flatMap((line, index) => (/^─{10,}$/.test(line.trim()) ? [index] : []));
		if (borders.length < 2) return undefined;
		const [top, bottom] = borders.slice(-2) as [number, number];
		return lines
			.slice(top + 1, bottom)
			.join("\n")
			.trim();
	}

	/**
	 * Type a command and submit it. Enter on an open argument completion only applies it, so press Enter
	 * until the editor no longer holds the text.
	 */
	async submit(text: string): Promise<void> {
		this.type(text);
		await waitFor(`"${text}" typed`, () => this.editorText()?.includes(text), 5000, 20);
		for (let attempt = 1; ; attempt++) {
			const before = await this.stillScreen();
			this.press("Enter");
			// Another Enter before pi drew this one would land in what the command opened (a picker's first row).
			await waitFor(`pi's redraw after Enter on "${text}"`, () => this.screen() !== before, 10_000, 20);
			if (!this.editorText()?.includes(text)) return;
			if (attempt === 3) throw new Error(`"${text}" still in pi's editor after three Enters`);
		}
	}

	/** The screen once two captures 100 ms apart agree (an autocomplete list drawn after the text, say). */
	private async stillScreen(): Promise<string> {
		let last = this.screen();
		return waitFor(
			"a still screen",
			async () => {
				await new Promise((resolve) => setTimeout(resolve, 100));
				const now = this.screen();
				const still = now === last;
				last = now;
				return still ? now : undefined;
			},
			5000,
			0,
		);
	}

	/** The line right under the editor's bottom border: where a belowEditor widget renders. */
	belowEditor(): string | undefined {
		const lines = this.lines();
		const borders = lines.flatMap((line, index) => (/^─{10,}$/.test(line.trim()) ? [index] : []));
		const bottom = borders.at(-1);
		return bottom === undefined ? undefined : lines[bottom + 1];
	}

	/** The screen once `predicate` holds; a timeout says what the screen showed last. */
	async waitForScreen(what: string, predicate: (screen: string) => boolean, timeoutMs = 15_000): Promise<string> {
		let last = "";
		try {
			return await waitFor(
				what,
				() => {
					last = this.screen();
					return predicate(last) ? last : undefined;
				},
				timeoutMs,
				50,
			);
		} catch (error) {
			throw new Error(`${error instanceof Error ? error.message : String(error)}; the screen last:\n${last}`);
		}
	}

	/** Open file descriptors and inotify watches of the pi process: what a leaked watcher would leave. */
	handles(): { fds: number; inotifyWatches: number } {
		const dir = `/proc/${this.pid}/fd`;
		let inotifyWatches = 0;
		const fds = readdirSync(dir);
		for (const fd of fds) {
			try {
				if (readlinkSync(`${dir}/${fd}`) !== "anon_inode:inotify") continue;
				inotifyWatches += readFileSync(`/proc/${this.pid}/fdinfo/${fd}`, "utf8")
					.split("\n")
					.filter((l) => l.startsWith("inotify wd:")).length;
			} catch {
				// An fd closed between listing and reading it is simply not counted.
			}
		}
		return { fds: fds.length, inotifyWatches };
	}

	stop(): void {
		try {
			this.tmux("kill-server");
		} catch {
			// Already gone.
		}
	}
}
