/** The command-line tools of the editors the VS Code client runs in, in the order they are tried. */
export const VSCODE_TOOLS = ["code", "code-insiders", "cursor", "windsurf", "codium", "code-server"] as const;

export interface InstallOutcome {
	tool: string;
	path: string;
	ok: boolean;
	/** The tool's last line of output (its error, when it failed). */
	detail: string;
}

/** What `/ide install vscode` says: what it did for each tool found and what to do next, or how to do it by hand. */
export function installReport(vsix: string, outcomes: readonly InstallOutcome[]): string {
	const byHand = `code --install-extension ${vsix} --force`;
	if (outcomes.length === 0) {
		return [
			`No VS Code command-line tool on the PATH (${VSCODE_TOOLS.join(", ")}).`,
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
