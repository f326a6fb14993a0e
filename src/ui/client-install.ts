import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { clip, sanitizeForDisplay } from "../shared/core/display-text.ts";
import { bundledToolPaths, type InstallOutcome, installReport, VSCODE_TOOLS } from "./core/client-install.ts";

/** The .vsix `npm pack` builds into the package (`clients/vscode`). */
export const VSCODE_VSIX = fileURLToPath(new URL("../../clients/vscode/pi-ide-context-vscode.vsix", import.meta.url));

/** One editor's install may take a while (VS Code unpacks and indexes); never longer than this. */
const INSTALL_TIMEOUT_MS = 120_000;

/**
 * `/ide install vscode`: the shipped client installed with every editor tool on the PATH, or on a Mac inside
 * its editor's bundle when it is not on the PATH. Tests name the platform and the system's apps folder.
 */
export async function installVscodeClient(
	env: { PATH?: string; HOME?: string },
	vsix = VSCODE_VSIX,
	where: { platform: string; systemApps?: string } = { platform: process.platform },
): Promise<string> {
	const { platform, systemApps } = where;
	if (!existsSync(vsix))
		return `The VS Code client is not in this package (${vsix}): a source checkout builds it with npm run build:vscode.`;
	const home = env.HOME || homedir();
	const outcomes: InstallOutcome[] = [];
	for (const tool of VSCODE_TOOLS) {
		const onPath = (env.PATH ?? "").split(delimiter).flatMap((dir) => (dir ? [join(dir, tool)] : []));
		const path = [...onPath, ...bundledToolPaths(tool, platform, home, systemApps)].find(runs);
		if (path !== undefined) outcomes.push(await install(tool, path, vsix));
	}
	return installReport(vsix, outcomes, platform);
}

/** An executable file is there (a dir of that name is not a tool). */
function runs(candidate: string): boolean {
	try {
		accessSync(candidate, constants.X_OK);
		return statSync(candidate).isFile();
	} catch {
		return false;
	}
}

function install(tool: string, path: string, vsix: string): Promise<InstallOutcome> {
	return new Promise((done) => {
		execFile(
			path,
			["--install-extension", vsix, "--force"],
			{ timeout: INSTALL_TIMEOUT_MS },
			(error, stdout, stderr) => {
				const output = `${stdout}\n${stderr}`.trim().split("\n").filter(Boolean);
				const last = clip(sanitizeForDisplay(output.at(-1) ?? (error ? error.message : "")), 200);
				done({ tool, path, ok: !error, detail: last });
			},
		);
	});
}
