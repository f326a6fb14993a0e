/**
 * Anthropic's own VS Code extension (`anthropic.claude-code`), the IDE server the ide-servers source reads in a
 * real VS Code: the `.vsix` shipped inside the npm package `@anthropic-ai/claude-code@1.0.100`
 * (`package/vendor/claude-code.vsix`, the version ide-server-protocol.md §8 measured). Fetched once into the
 * cache, as the VS Code host is; pi's package never ships or loads it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export const ANTHROPIC_EXTENSION_PACKAGE = "@anthropic-ai/claude-code@1.0.100";

function vsixPath(): string {
	const base =
		process.env.PI_IDE_TEST_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pi-ide-context");
	return join(base, "anthropic-vscode-1.0.100", "claude-code.vsix");
}

/** The cached `.vsix`, or why there is none (cheap: no download). */
export function anthropicExtension(): { vsix?: string; skipReason?: string } {
	const vsix = vsixPath();
	return existsSync(vsix)
		? { vsix }
		: { skipReason: `Anthropic's VS Code extension is not in the cache at ${vsix} (vitest's global setup fetches it)` };
}

/** Fetches the `.vsix` out of the npm package unless it is cached: staged, renamed into place when complete. */
export function installAnthropicExtension(log: (message: string) => void = () => {}): {
	vsix?: string;
	skipReason?: string;
} {
	const vsix = vsixPath();
	if (existsSync(vsix)) return { vsix };
	mkdirSync(dirname(dirname(vsix)), { recursive: true });
	const staging = mkdtempSync(`${dirname(vsix)}.staging-`);
	try {
		log(`fetching ${ANTHROPIC_EXTENSION_PACKAGE} for its VS Code extension (once, about 36 MB)`);
		const tarball = execFileSync("npm", ["pack", "--silent", ANTHROPIC_EXTENSION_PACKAGE], {
			cwd: staging,
			encoding: "utf8",
			stdio: ["ignore", "pipe", "pipe"],
		}).trim();
		execFileSync("tar", ["-xzf", tarball, "package/vendor/claude-code.vsix"], { cwd: staging, stdio: "ignore" });
		mkdirSync(join(staging, "out"));
		renameSync(join(staging, "package", "vendor", "claude-code.vsix"), join(staging, "out", "claude-code.vsix"));
		rmSync(dirname(vsix), { recursive: true, force: true });
		renameSync(join(staging, "out"), dirname(vsix));
		return { vsix };
	} catch (error) {
		return { skipReason: `${ANTHROPIC_EXTENSION_PACKAGE} could not be fetched: ${String(error).split("\n")[0]}` };
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
}
