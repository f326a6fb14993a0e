import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pi1Toolchain } from "./pi1-toolchain.ts";

export const PACKAGE_ROOT = join(import.meta.dirname, "..", "..");

export const FAKE_PROVIDER = "fake";
export const FAKE_MODEL = "echo";

export interface PiLine {
	name: string;
	cli: string;
	/** The node binary that can run this line, or undefined with `skipReason` set. */
	node?: string;
	skipReason?: string;
	/** pi 1.x asks before loading project-scoped resources in non-interactive modes. */
	extraArgs: string[];
	/** More environment for every pi of this line (the process facts' backend, say). */
	env?: Record<string, string>;
}

/** Both pi lines this extension supports: 0.73 on the machine's Node, 1.x on Node >= 22.19. */
export function piLines(): PiLine[] {
	const modern = pi1Toolchain();
	return [
		{
			name: "pi 0.73",
			cli: join(PACKAGE_ROOT, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js"),
			node: process.execPath,
			extraArgs: [],
		},
		{
			name: "pi 1.x",
			cli: modern.cli ?? "",
			node: modern.node,
			skipReason: modern.skipReason,
			extraArgs: ["--approve"],
		},
	];
}

/**
 * Both pi lines, pi 0.73 asking about processes through `ps` and `lsof` (the backend a Mac uses) and pi 1.x
 * through `/proc`: every suite of an editor pi finds among the processes runs on both backends in one run.
 */
export function processFactsLines(): PiLine[] {
	const [pi073, pi1] = piLines() as [PiLine, PiLine];
	return [{ ...pi073, name: "pi 0.73 on ps + lsof", env: { PI_IDE_PROCESS_FACTS: "ps" } }, pi1];
}

/** How `/ide status` names the process facts a pi of this line asks (`Processes: …`). */
export function processesLinePattern(line: PiLine): RegExp {
	const forced = line.env?.PI_IDE_PROCESS_FACTS;
	if (forced === "ps") return /^Processes: ps \+ lsof \d+\.\d+[\d.]* \(PI_IDE_PROCESS_FACTS=ps\); last scan \d+ ms$/m;
	const why = forced === "proc" ? "PI_IDE_PROCESS_FACTS=proc" : "Linux";
	return new RegExp(`^Processes: procfs \\(${why}\\); last scan \\d+ ms$`, "m");
}

/** A temp agent dir whose models.json points a provider at the fake server. */
export function writeAgentDir(agentDir: string, baseUrl: string, settings: object = {}): void {
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(
		join(agentDir, "models.json"),
		JSON.stringify({
			providers: {
				[FAKE_PROVIDER]: {
					baseUrl,
					api: "openai-completions",
					apiKey: "fake-key",
					models: [
						{
							id: FAKE_MODEL,
							name: "Echo",
							reasoning: false,
							input: ["text"],
							contextWindow: 128000,
							maxTokens: 4096,
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
						},
					],
				},
			},
		}),
	);
	writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ quietStartup: true, ...settings }));
}

export interface PiRun {
	child: ChildProcess;
	stdout: () => string;
	stderr: () => string;
	exited: Promise<number | null>;
}

/** How a test starts pi, whichever way it drives it (print mode, RPC, tmux). */
export interface PiSpawnOptions {
	cwd: string;
	agentDir: string;
	/** `null`: no `PI_IDE_STATE_DIR`, so pi looks where the environment says. */
	stateDir: string | null;
	env?: Record<string, string>;
	/** The extension to load: this package by default, another file (the benchmark's baseline), or none. */
	extension?: string | null;
	/** Keep sessions in this dir (needed for fork, resume, compaction); otherwise `--no-session`. */
	sessionDir?: string;
	/** More extensions loaded after it (benchmark helpers). */
	extraExtensions?: string[];
	/** More of pi's flags (an extension's own, `--pi-ide-suggestion-model fake/x`). */
	flags?: readonly string[];
	/** A command pi runs under (`test/support/no-proc.ts`'s namespace without `/proc`): pi's node and arguments follow it. */
	wrapper?: readonly string[];
}

export function spawnPi(
	line: PiLine,
	options: PiSpawnOptions & {
		args: string[];
		/** A pi subcommand (`["install", path]`) instead of a session: no model flags then. */
		command?: string[];
	},
): PiRun {
	if (!line.node) throw new Error(line.skipReason);
	const extension = options.extension === undefined ? PACKAGE_ROOT : options.extension;
	const session = [
		"--provider",
		FAKE_PROVIDER,
		"--model",
		FAKE_MODEL,
		...(options.sessionDir ? ["--session-dir", options.sessionDir] : ["--no-session"]),
		...(extension === null ? [] : ["-e", extension]),
		...(options.extraExtensions ?? []).flatMap((path) => ["-e", path]),
		...line.extraArgs,
		...options.args,
		...(options.flags ?? []),
	];
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PI_CODING_AGENT_DIR: options.agentDir,
		PI_SKIP_VERSION_CHECK: "1",
		PI_OFFLINE: "1",
		...(options.stateDir !== null && { PI_IDE_STATE_DIR: options.stateDir }),
		...line.env,
		...options.env,
	};
	if (options.stateDir === null) delete env.PI_IDE_STATE_DIR;
	const [command, ...args] = [...(options.wrapper ?? []), line.node, line.cli, ...(options.command ?? session)];
	const child = spawn(command as string, args, {
		cwd: options.cwd,
		env,
		stdio: ["pipe", "pipe", "pipe"],
	});
	let out = "";
	let err = "";
	child.stdout?.on("data", (chunk: Buffer) => {
		out += chunk.toString("utf8");
	});
	child.stderr?.on("data", (chunk: Buffer) => {
		err += chunk.toString("utf8");
	});
	// Print mode reads piped stdin as extra prompt text and waits for its end.
	if (options.args.includes("-p") || options.command) child.stdin?.end();
	const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
	return { child, stdout: () => out, stderr: () => err, exited };
}
