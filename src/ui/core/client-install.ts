/** The command-line tools of the editors the VS Code client runs in, in the order they are tried. */
export const VSCODE_TOOLS = ["code", "code-insiders", "cursor", "windsurf", "codium", "code-server"] as const;
export type VscodeTool = (typeof VSCODE_TOOLS)[number];

/**
 * Each tool inside its editor's bundle on a Mac, for when the user never put it on the PATH ("Shell Command:
 * Install 'code' command in PATH" links these into /usr/local/bin; Homebrew's casks link the same files).
 * Cursor's tool is named `bin/cursor` by the scripts that call it, and Homebrew's cask links its `bin/code` as
 * `cursor`: both are tried. code-server has no bundle.
 */
const MAC_BUNDLE_TOOLS: Record<VscodeTool, readonly string[]> = {
	code: ["Visual Studio Code.app/Contents/Resources/app/bin/code"],
	"code-insiders": ["Visual Studio Code - Insiders.app/Contents/Resources/app/bin/code-insiders"],
	cursor: ["Cursor.app/Contents/Resources/app/bin/cursor", "Cursor.app/Contents/Resources/app/bin/code"],
	windsurf: ["Windsurf.app/Contents/Resources/app/bin/windsurf"],
	codium: ["VSCodium.app/Contents/Resources/app/bin/codium"],
	"code-server": [],
};

/** The system's folder of a Mac's apps (the user's own is `~/Applications`); a test names its own. */
export const MAC_SYSTEM_APPS = "/Applications";

/**
 * Where else to look for a tool that is not on the PATH, the first that runs wins: a Mac's bundles, in the
 * system's apps, then the user's; none elsewhere.
 */
export function bundledToolPaths(
	tool: VscodeTool,
	platform: string,
	home: string,
	systemApps = MAC_SYSTEM_APPS,
): string[] {
	if (platform !== "darwin") return [];
	const appDirs = [systemApps, `${home.replace(/\/+$/, "")}/Applications`];
	return appDirs.flatMap((apps) => MAC_BUNDLE_TOOLS[tool].map((inBundle) => `${apps}/${inBundle}`));
}

export interface InstallOutcome {
	tool: string;
	path: string;
	ok: boolean;
	/** The tool's last line of output (its error, when it failed). */
	detail: string;
}

/** What `/ide install vscode` says: what it did for each tool found and what to do next, or how to do it by hand. */
export function installReport(vsix: string, outcomes: readonly InstallOutcome[], platform: string): string {
	const byHand = `code --install-extension ${vsix} --force`;
	if (outcomes.length === 0) {
		const bundles = platform === "darwin" ? " or in the .app bundles of /Applications and ~/Applications" : "";
		return [
			`No VS Code command-line tool on the PATH (${VSCODE_TOOLS.join(", ")})${bundles}.`,
			"Install the client by hand with your editor's tool, e.g.:",
			`  ${byHand}`,
			"then reload the window (Developer: Reload Window).",
		].join("\n");
	}
	const lines = ["VS Code client (pi-ide-context.vscode-client):"];
	for (const outcome of outcomes)
		lines.push(`  ${outcome.tool} (${outcome.path}): ${outcome.ok ? "installed" : `failed: ${outcome.detail}`}`);
	lines.push(
		outcomes.some((outcome) => outcome.ok)
			? "Next: reload each editor window (Developer: Reload Window); /ide status then lists it."
			: `Nothing was installed. By hand: ${byHand}`,
	);
	return lines.join("\n");
}
