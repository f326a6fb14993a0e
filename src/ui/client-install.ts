import { execFile } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { clip, sanitizeForDisplay } from "../shared/core/display-text.ts";
import { type InstallOutcome, installReport, VSCODE_TOOLS } from "./core/client-install.ts";

/** The .vsix `npm pack` builds into the package (`clients/vscode`). */
export const VSCODE_VSIX = fileURLToPath(new URL("../../clients/vscode/pi-ide-context-vscode.vsix", import.meta.url));

/** One editor's install may take a while (VS Code unpacks and indexes); never longer than this. */
const INSTALL_TIMEOUT_MS = 120_000;

/** `/ide install vscode`: the shipped client installed with every editor tool on the PATH. */
export async function installVscodeClient(env: { PATH?: string }, vsix = VSCODE_VSIX): Promise<string> {
	if (!existsSync(vsix))
		return `The VS Code client is not in this package (${vsix}): a source checkout builds it with npm run build:vscode.`;
	const outcomes: InstallOutcome[] = [];
	for (const tool of VSCODE_TOOLS) {
		const path = onPath(tool, env.PATH ?? "");
		if (path !== undefined) outcomes.push(await install(tool, path, vsix));
	}
	return installReport(vsix, outcomes);
}

function onPath(tool: string, path: string): string | undefined {
	for (const dir of path.split(delimiter)) {
		if (!dir) continue;
		const candidate = join(dir, tool);
		try {
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {
			// Not here.
		}
	}
	return undefined;
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
