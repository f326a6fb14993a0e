import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { installAnthropicExtension } from "../support/anthropic-vscode.ts";
import { PACKAGE_ROOT } from "../support/pi-cli.ts";
import { installPi1Toolchain } from "../support/pi1-toolchain.ts";
import { HOST_FAILURE_ENV, installVscodeHost } from "../support/vscode-host.ts";
import { skipLogPath } from "./skip-log.ts";

/**
 * Runs once before any test file: the pi 1.x suites need their toolchain in the cache. Where it cannot be had
 * (no registry, an unpacked tarball) those suites skip and everything else runs; under CI=true a missing pi
 * line fails the run instead, so CI never silently tests one line only.
 */
export default function setup(): void {
	// Every pi a test starts scans /proc for Neovims (and Zeds): it sees only those the tests started with this
	// scope, never the developer's own editors. A test that needs its own scope sets another.
	process.env.PI_IDE_TEST_PROC_SCOPE ??= `pi-ide-tests-${process.pid}`;
	buildVscodeClient();
	let reason: string | undefined;
	try {
		reason = installPi1Toolchain((message) => process.stderr.write(`[setup] ${message}\n`)).skipReason;
	} catch (error) {
		reason = firstLine(error);
	}
	if (reason === undefined) {
		installHost();
		return;
	}
	if (process.env.CI === "true") throw new Error(`CI=true and the pi 1.x toolchain cannot be had: ${reason}`);
	process.stderr.write(`pi 1.x tests skipped: ${reason}\n`);
	noteRunWideSkip("pi 1.x tests", reason);
}

/** A reason that holds for the whole run, for the closing summary (the workers note their files' own). */
function noteRunWideSkip(what: string, reason: string): void {
	appendFileSync(skipLogPath(), `${JSON.stringify({ file: "", what, reason })}\n`);
}

/**
 * The VS Code test host, beside pi 1.x (its tests need both), and Anthropic's extension the IDE server tests run
 * in it; a failure is said by the tests that skip.
 */
function installHost(): void {
	const log = (message: string) => process.stderr.write(`[setup] ${message}\n`);
	try {
		installVscodeHost(log);
	} catch (error) {
		// npm's whole error, said here and again in the run's closing summary; the suites that skip point at it.
		const message = error instanceof Error ? error.message : String(error);
		log(message);
		process.env[HOST_FAILURE_ENV] = message;
		noteRunWideSkip("the VS Code tests", message);
	}
	const extension = installAnthropicExtension(log);
	if (extension.skipReason) log(extension.skipReason);
}

const CLIENT = join(PACKAGE_ROOT, "clients", "vscode");

/**
 * The VS Code tests install the package's own .vsix, as `/ide install vscode` does: built here, once per run,
 * when it is missing or older than anything it was built from (the client's sources and the parts of `src/`
 * it bundles, as the last build listed them), so a run after a change never tests the old build.
 */
function buildVscodeClient(): void {
	if (!vscodeClientStale()) return;
	const started = Date.now();
	execFileSync(process.execPath, [join(CLIENT, "build.mjs")], { stdio: ["ignore", "ignore", "inherit"] });
	process.stderr.write(`[setup] VS Code client built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

function vscodeClientStale(): boolean {
	const vsix = join(CLIENT, "pi-ide-context-vscode.vsix");
	const inputsList = join(CLIENT, "dist", "inputs.json");
	if (!existsSync(vsix) || !existsSync(inputsList)) return true;
	const builtAt = statSync(vsix).mtimeMs;
	const inputs: string[] = [
		...JSON.parse(readFileSync(inputsList, "utf8")),
		...["build.mjs", "package.json", "README.md", ".vscodeignore"].map((file) => join(CLIENT, file)),
	];
	return inputs.some((input) => !existsSync(input) || statSync(input).mtimeMs > builtAt);
}

function firstLine(error: unknown): string {
	const text = error instanceof Error ? error.message : String(error);
	return text.split("\n").find((line) => line.trim() !== "") ?? text;
}
